import { CLAUDE_MD_END, CLAUDE_MD_START } from '../model/agent-section.ts';
import { redactSecrets } from '../model/secrets.ts';
import type { AgentExcerpt, ScanInput } from './facts.ts';
import { baseOf, byCodeUnit, depthOf, inTestTree, MANIFEST_DEPTH } from './files.ts';

/** Characters of each instructions file quoted on the patterns page. */
export const EXCERPT_CHARS = 1500;
const MAX_FILES = 8;

/** Files anywhere (to MANIFEST_DEPTH) that instruct coding agents. */
const ANY_DEPTH = new Set(['CLAUDE.md', 'AGENTS.md']);
/** Files that count only at the top level. */
const TOP_LEVEL = new Set(['.cursorrules', '.github/copilot-instructions.md']);

/**
 * The opening of each agent-instructions file (CLAUDE.md, AGENTS.md, .cursorrules,
 * .github/copilot-instructions.md): the axme-managed block left out, credentials redacted,
 * at most EXCERPT_CHARS characters cut at a line end where one is near.
 */
export function agentExcerpts(input: ScanInput): AgentExcerpt[] {
  const files = input.files.filter((f) => TOP_LEVEL.has(f) || (ANY_DEPTH.has(baseOf(f)) && depthOf(f) <= MANIFEST_DEPTH && !inTestTree(f)));
  // top-level files first, then by path
  files.sort((a, b) => depthOf(a) - depthOf(b) || byCodeUnit(a, b));
  const out: AgentExcerpt[] = [];
  for (const file of files.slice(0, MAX_FILES)) {
    const text = input.read(file);
    if (text === null) continue;
    const own = withoutAxmeBlock(text.replace(/\r\n?/g, '\n')).trim();
    if (own === '') continue;
    const { excerpt, truncated } = cut(redactSecrets(own), EXCERPT_CHARS);
    out.push({ file, excerpt, truncated });
  }
  return out;
}

/**
 * Text without the block axme manages (between `<!-- axme:start -->` and `<!-- axme:end -->`
 * lines). A start without an end drops everything after it: that text is axme's own.
 */
export function withoutAxmeBlock(text: string): string {
  const out: string[] = [];
  let inside = false;
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (!inside && t === CLAUDE_MD_START) inside = true;
    else if (inside && t === CLAUDE_MD_END) inside = false;
    else if (!inside) out.push(line);
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

/** At most `max` characters, cut at the last line end in the final third when there is one. */
export function cut(text: string, max: number): { excerpt: string; truncated: boolean } {
  if (text.length <= max) return { excerpt: text, truncated: false };
  let end = max;
  // never split a surrogate pair
  if (/[\uD800-\uDBFF]/.test(text[end - 1] ?? '')) end--;
  const nl = text.lastIndexOf('\n', end);
  if (nl > (max * 2) / 3) end = nl;
  return { excerpt: text.slice(0, end).trimEnd(), truncated: true };
}

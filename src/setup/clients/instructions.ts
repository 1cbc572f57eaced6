import { mergeClaudeMd, sectionLines } from '../agent-files.ts';
import type { InstructionsKind } from './adapter.ts';

/**
 * The instructions each client's agent reads (AGENTS.md, GEMINI.md, a Cursor rule, VS Code
 * Copilot's instructions): one shared text — the CLAUDE.md section — kept in sync by `axme init`,
 * each between the `<!-- axme:start -->` / `<!-- axme:end -->` lines so the user's own text stays.
 */

/** The front matter of the Cursor rule axme writes: applied to every request. */
const CURSOR_RULE_HEAD = '---\ndescription: Project knowledge kept by axme on refs/memory/main (decisions, memories, safety rules)\nalwaysApply: true\n---\n';

/** The file's text with the axme section in place (created, or replaced where its markers are). */
export function mergeInstructions(kind: InstructionsKind, previous: string | null, path: string): string {
  if (kind === 'cursor-rule' && (previous === null || previous.trim() === '')) return `${CURSOR_RULE_HEAD}\n${mergeClaudeMd(null, path)}`;
  return mergeClaudeMd(previous, path);
}

/**
 * The file's text without the axme section; null when nothing else is left in it (the file goes).
 * Markers that do not pair up are refused (CONFIG), as init refuses them (sectionLines).
 */
export function removeInstructions(kind: InstructionsKind, previous: string, path: string): string | null {
  const lines = previous.split('\n');
  const at = sectionLines(lines, path);
  if (!at) return previous;
  const { start, end } = at;
  const before = lines.slice(0, start).join('\n').replace(/\n+$/, '');
  const after = lines
    .slice(end + 1)
    .join('\n')
    .replace(/^\n+/, '');
  const rest = [before, after].filter((s) => s.trim() !== '').join('\n\n');
  const left = rest.trim() === '' || (kind === 'cursor-rule' && `${rest}\n` === CURSOR_RULE_HEAD) ? null : `${rest.replace(/\n*$/, '')}\n`;
  return left;
}

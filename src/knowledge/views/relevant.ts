import { anchorCovers, parseAnchor } from '../../model/anchor.ts';
import type { BacklogItem } from '../../model/backlog.ts';
import type { Decision } from '../../model/decision.ts';
import type { Memory } from '../../model/memory.ts';
import { agentRef } from './recall-lines.ts';
import { tokenize } from './search/analyze.ts';

/** Where the work is: what makes an item worth a line at the start of a session. */
export interface WorkFocus {
  /** the branch checked out (its words count: `feat/rate-limit` → rate, limit) */
  branch?: string | null;
  /** files changed in the working tree or by the last session, from the top of the tree */
  files?: readonly string[];
  /** those of `files` with changes not committed yet: the work now, which outranks the last commits' */
  changing?: readonly string[];
  /** the last handoff's next steps and work in progress */
  text?: string;
}

/** An item that the focus makes relevant, one line with its id. */
export interface RelevantItem {
  kind: 'decision' | 'memory' | 'backlog';
  /** how an agent names it (recall-lines.ts agentRef: a workspace item's slug) */
  id: string;
  /** its file name */
  slug: string;
  line: string;
  score: number;
}

type Candidate = { kind: RelevantItem['kind']; id: string; slug: string; title: string; words: string; anchors: readonly string[]; workspace: boolean };

/** Words of a branch name, without the usual prefixes (feat/, fix/, a user's name). */
function branchWords(branch: string | null | undefined): string {
  if (!branch || ['main', 'master', 'trunk', 'develop'].includes(branch)) return '';
  return branch.replace(/^(?:feat|feature|fix|bugfix|hotfix|chore|refactor|docs|test|release)[/-]/i, '').replace(/[/_.-]+/g, ' ');
}

/**
 * The few current items most relevant to `focus`: an anchor covering a changed file counts most
 * (a file with uncommitted changes twice: the last commits may have touched every module at once),
 * then words shared with the branch name and the handoff's next steps. Items with nothing in
 * common are never listed; at most `limit`, best first.
 */
export function relevantItems(
  items: { decisions: Decision[]; memories: Memory[]; backlog: BacklogItem[] },
  focus: WorkFocus,
  limit = 5,
  fromWorkspace: (item: object) => boolean = () => false,
): RelevantItem[] {
  const query = new Set(tokenize(`${branchWords(focus.branch)} ${focus.text ?? ''}`));
  const files = (focus.files ?? []).slice(0, 200);
  const changing = new Set(focus.changing ?? []);
  if (!query.size && !files.length) return [];
  const candidates: Candidate[] = [
    ...items.decisions.map((d) => ({
      kind: 'decision' as const,
      id: agentRef(d, fromWorkspace(d)),
      workspace: fromWorkspace(d),
      slug: d.slug,
      title: d.title,
      words: `${d.title} ${d.tags.join(' ')}`,
      anchors: d.anchors,
    })),
    ...items.memories.map((m) => ({
      kind: 'memory' as const,
      id: m.slug,
      workspace: fromWorkspace(m),
      slug: m.slug,
      title: m.title,
      words: `${m.title} ${m.keywords.join(' ')}`,
      anchors: m.anchors,
    })),
    ...items.backlog.map((b) => ({
      kind: 'backlog' as const,
      id: agentRef(b, fromWorkspace(b)),
      workspace: fromWorkspace(b),
      slug: b.slug,
      title: b.title,
      words: `${b.title} ${b.tags.join(' ')}`,
      anchors: b.anchors,
    })),
  ];
  const out: RelevantItem[] = [];
  for (const c of candidates) {
    let score = 0;
    const covered = files.filter((f) => c.anchors.some((a) => covers(a, f)));
    if (covered.length) score += 10 + covered.length;
    if (covered.some((f) => changing.has(f))) score += 10;
    const words = new Set(tokenize(c.words));
    for (const w of words) if (query.has(w)) score += 1;
    if (score > 0)
      out.push({
        kind: c.kind,
        id: c.id,
        slug: c.slug,
        score,
        line: `- ${c.kind} ${c.id} ${c.title}${c.workspace ? ' [workspace]' : ''}${covered.length ? ` (about ${covered.slice(0, 2).join(', ')}${covered.length > 2 ? ', …' : ''})` : ''}`,
      });
  }
  return out.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id)).slice(0, limit);
}

/** Whether a raw anchor covers a file; a malformed anchor covers nothing. */
function covers(raw: string, file: string): boolean {
  try {
    return anchorCovers(parseAnchor(raw), file);
  } catch {
    return false;
  }
}

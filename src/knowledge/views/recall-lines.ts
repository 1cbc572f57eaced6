/**
 * How recalled items are shown to an agent (issue 32: the prompt hook and the pre-edit recall):
 * one line each — kind, id, title, one short line of what it says, and a mark when its code moved
 * since it was learned — current items first, at most RECALL_BUDGET characters in all. Free of
 * heavy imports: the pre-tool-use hook formats with it.
 */
import { textHead } from '../../model/text-head.ts';
import { toolCall } from '../../model/tool-args.ts';

/** What one recall may inject, whatever the store's size. */
export const RECALL_BUDGET = 2_000;

/** How a recall says to read an item whole, with each tool's own argument. */
export const READ_WHOLE = `${toolCall('axme_get_decision', '<id>')} / ${toolCall('axme_get_memory', '<slug>')}`;

/** The header of a pre-edit recall. */
export const PRE_EDIT_HEADER = `axme: project knowledge about the file this call edits (follow it, or say why not; read one whole with ${READ_WHOLE}):`;

/**
 * How an agent is told to name an item: its display ID, a memory's slug; an item of the
 * workspace store by its slug, always. Display IDs are numbered per store, and a lookup by one
 * finds the repository's own item of that number (docs/workspaces.md, "Reading: the merged view").
 */
export function agentRef(item: { id?: string | null; slug: string }, fromWorkspace: boolean): string {
  return fromWorkspace ? item.slug : (item.id ?? item.slug);
}

/** An item as a recall shows it. */
export interface RecallEntry {
  kind: string;
  /** its id (D-001, B-001, Q-001), a memory's slug: what the line shows */
  ref: string;
  /** its file name, which no renumbering changes: what a session's record of what it was given holds (session/given.ts itemKey) */
  slug: string;
  title: string;
  /** what it says, its first line */
  line: string;
  /** why it may be outdated (`axme verify`), null when current */
  stale: string | null;
}

/** The first line of `s`, at most `max` characters. */
export function firstLine(s: string, max: number): string {
  const l = (s.split('\n').find((x) => x.trim() !== '') ?? '').trim();
  return l.length > max ? `${textHead(l, max - 1)}…` : l;
}

/** One item, one line; what it says is left out when that is its title again (a question with no context). */
export function recallLine(e: RecallEntry): string {
  const title = firstLine(e.title, 120);
  const what = firstLine(e.line, 160);
  return `- ${e.kind} ${e.ref} ${title}${what && what !== firstLine(e.title, 160) ? `: ${what}` : ''}${e.stale ? ` (may be outdated: ${firstLine(e.stale, 100)})` : ''}`;
}

/**
 * `header` and the entries' lines, current ones first (each group in the order given), as many as
 * fit in `budget` characters; `shown` is what the text holds. Empty text when none fits.
 */
export function recallText(header: string, entries: readonly RecallEntry[], budget = RECALL_BUDGET): { text: string; shown: RecallEntry[] } {
  const ordered = [...entries.filter((e) => !e.stale), ...entries.filter((e) => e.stale)];
  const shown: RecallEntry[] = [];
  let text = header;
  for (const e of ordered) {
    const l = `\n${recallLine(e)}`;
    if (text.length + l.length > budget) continue;
    text += l;
    shown.push(e);
  }
  return shown.length ? { text, shown } : { text: '', shown };
}

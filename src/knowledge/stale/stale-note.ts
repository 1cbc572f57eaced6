import type { AnchoredKind } from '../../model/anchor.ts';
import { parseAnchor } from '../../model/anchor.ts';
import type { AnchorChange } from './types.ts';

/** "since this was decided": what learning an item of each kind is called. */
const LEARNED: Record<AnchoredKind, string> = {
  decision: 'since this was decided',
  memory: 'since this was noted',
  backlog: 'since this was written',
  oracle: 'since this page was scanned',
};

/** One change as a phrase: "src/pay.ts changed in 3 commits", "dependency react moved from ^17 to ^18". */
function changePhrase(c: AnchorChange): string {
  const a = parseAnchor(c.anchor);
  const what = a.type === 'dep' ? `dependency ${a.name}` : a.type === 'glob' ? a.glob : a.path;
  const n = c.commits.length;
  const inCommits = n ? ` in ${n} commit${n === 1 ? '' : 's'}` : '';
  switch (c.change) {
    case 'touched':
      return n ? `${what} changed${inCommits}` : `${what} differs`;
    case 'deleted':
      return `${c.path && c.path !== what ? `${what} (moved to ${c.path})` : what} was deleted`;
    case 'renamed':
      return `${what} was renamed to ${c.to}`;
    case 'no-match':
      if (a.type === 'grep') return `${a.path}${c.to ? ` (renamed to ${c.to})` : ''} no longer contains ${a.symbol}`;
      return `${what} no longer matches any file`;
    case 'dep-changed': {
      const where = c.path ? ` (${c.path})` : '';
      if (c.to_version === undefined) return `${what} was removed${c.path ? ` from ${c.path}` : ''}`;
      if (c.from_version === undefined) return `${what} was added at ${c.to_version}${where}`;
      return `${what} moved from ${c.from_version} to ${c.to_version}${where}`;
    }
  }
}

/** The one-line reason of a stale item: its changes, then "since this was decided" (or "compared with the commit it was learned at"). */
export function staleReason(kind: AnchoredKind, changes: AnchorChange[], compared: boolean): string {
  const phrases = [...new Set(changes.map(changePhrase))];
  const shown = phrases.length > 3 ? [...phrases.slice(0, 3), `${phrases.length - 3} more`] : phrases;
  const list = shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}` : shown[0]!;
  return `${list} ${compared ? `${LEARNED[kind]} (its commit is not in HEAD's history: contents compared)` : LEARNED[kind]}`;
}

import { classifyPath, itemPath } from '../../model/paths.ts';
import { ranHere } from '../../session/ran-here.ts';
import type { Snapshot } from '../../store/tree.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { parseSnapshot } from '../core/state.ts';

const RS = '\x1e';

/** Whether `path` is a handoff's file. */
const isHandoff = (path: string) => {
  const c = classifyPath(path);
  return c.type === 'item' && c.spec.kind === 'handoff';
};

/**
 * The handoffs a remote change removes that their writer did not: only the clone that wrote a
 * handoff prunes it, at a close (docs/sessions.md, "Handoffs of a team"), so a handoff naming its
 * `author` removed by the remote is a removal like an item's, held the same way, when
 * - this clone ran its session (session/ran-here.ts: its own records under .git/axme/, which no push
 *   writes): whoever the removing commit says it is, even the handoff's own author;
 * - or the remover is another than its author: the author of the newest commit on the remote's side
 *   (`remoteTip ^local`) that deleted the file, one `git log` run only for such handoffs.
 * A handoff that names no writer (written before they did) is anyone's to prune. `next` is the
 * remote's snapshot (a fast-forward) or the merge's changes.
 */
export async function othersHandoffsRemoved(
  kb: KnowledgeBase,
  ours: Snapshot,
  next: Snapshot | Map<string, Buffer | null>,
  local: string | null,
  remoteTip: string,
): Promise<string[]> {
  const gone =
    next instanceof Map
      ? [...next].filter(([p, b]) => b === null && ours.files.has(p) && isHandoff(p)).map(([p]) => p)
      : [...ours.files.keys()].filter((p) => isHandoff(p) && !next.files.has(p));
  if (!gone.length) return [];
  const handoffs = new Map((await parseSnapshot(kb, ours)).items.handoff.map((h) => [itemPath('handoff', h.slug), h]));
  const writers = new Map([...handoffs].map(([p, h]) => [p, h.author]));
  const named = gone.filter((p) => writers.get(p) !== undefined);
  const ran = ranHere(kb.repo.commonDir);
  const own = named.filter((p) => ran(handoffs.get(p)!.slug));
  const others = named.filter((p) => !own.includes(p));
  if (!others.length) return own.sort();
  const args = [
    'log',
    '--diff-filter=D',
    '--name-only',
    '-z',
    `--format=${RS}%ae`,
    remoteTip,
    ...(local ? [`^${local}`] : []),
    '--',
    ...others.map((p) => `:(literal)${p}`),
  ];
  const removers = new Map<string, string>();
  for (const record of (await kb.repo.git(args)).stdout.toString('utf8').split(RS)) {
    const [email = '', ...files] = record.split('\0');
    for (const f of files) {
      const path = f.replace(/^\n+/, '');
      if (path && !removers.has(path)) removers.set(path, email.trim());
    }
  }
  return [...own, ...others.filter((p) => removers.get(p) !== writers.get(p))].sort();
}

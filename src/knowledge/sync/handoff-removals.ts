import { classifyPath } from '../../model/paths.ts';
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
 * The handoffs a remote change removes that their writer did not: a close prunes only its writer's
 * own (docs/sessions.md, "Handoffs of a team"), so a handoff naming its `author` removed by a commit
 * of someone else is a removal like an item's, held the same way. The remover is the author of the
 * newest commit on the remote's side (`remoteTip ^local`) that deleted the file: one `git log`, run
 * only when the change removes a handoff. A handoff that names no writer (written before they did)
 * is anyone's to prune. `next` is the remote's snapshot (a fast-forward) or the merge's changes.
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
  const writers = new Map((await parseSnapshot(kb, ours)).items.handoff.map((h) => [`handoffs/${h.slug}.md`, h.author]));
  const named = gone.filter((p) => writers.get(p) !== undefined);
  if (!named.length) return [];
  const args = [
    'log',
    '--diff-filter=D',
    '--name-only',
    '-z',
    `--format=${RS}%ae`,
    remoteTip,
    ...(local ? [`^${local}`] : []),
    '--',
    ...named.map((p) => `:(literal)${p}`),
  ];
  const removers = new Map<string, string>();
  for (const record of (await kb.repo.git(args)).stdout.toString('utf8').split(RS)) {
    const [email = '', ...files] = record.split('\0');
    for (const f of files) {
      const path = f.replace(/^\n+/, '');
      if (path && !removers.has(path)) removers.set(path, email.trim());
    }
  }
  return named.filter((p) => removers.get(p) !== writers.get(p)).sort();
}

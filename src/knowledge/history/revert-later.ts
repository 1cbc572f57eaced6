import { AxmeError } from '../../model/errors.ts';
import type { KnowledgeBase } from '../core/kb.ts';

/** A later commit that changed files the reverted commit changed: the revert waits for it. */
export interface LaterChange {
  commit: string;
  subject: string;
  paths: string[];
}

/** A merge after the reverted commit that brought a concurrent change of one of its files. */
export interface MergedChange {
  commit: string;
  subject: string;
  paths: string[];
}

const RS = '\x1e';
const FS = '\x1f';

/**
 * What came after `commit` on its files, up to `tip`, newest first. Only commits that descend from
 * it count (`--ancestry-path`): a concurrent commit a sync merged in is not later, whatever its
 * date. `later`: descendants (not merges) that changed one of `paths` against their parent.
 * `merged`: merges whose version of a path differs from each parent on the reverted commit's
 * line — they brought the other side's change of it, which the revert keeps (revert-merged-item.ts).
 */
export async function changesAfter(kb: KnowledgeBase, commit: string, tip: string, paths: string[]): Promise<{ later: LaterChange[]; merged: MergedChange[] }> {
  if (commit === tip || !paths.length) return { later: [], merged: [] };
  const wanted = new Set(paths);
  const log = await kb.repo.git([
    'log',
    '--ancestry-path',
    '--full-history',
    '--no-merges',
    '--name-only',
    `--format=${RS}%H${FS}%s`,
    `${commit}..${tip}`,
    '--',
    ...paths,
  ]);
  const later = log.stdout
    .toString('utf8')
    .split(RS)
    .filter((s) => s.trim())
    .map((rec) => {
      const [head, ...rest] = rec.split('\n');
      const [oid, subject] = head!.split(FS);
      return { commit: oid!, subject: subject ?? '', paths: rest.map((p) => p.trim()).filter((p) => wanted.has(p)) };
    })
    .filter((l) => l.paths.length > 0);
  return { later, merged: await mergesAfter(kb, commit, tip, paths) };
}

/** The merges descending from `commit` whose version of a path differs from every parent on its line (one `cat-file --batch-check`). */
async function mergesAfter(kb: KnowledgeBase, commit: string, tip: string, paths: string[]): Promise<MergedChange[]> {
  const list = await kb.repo.git(['rev-list', '--ancestry-path', '--topo-order', '--parents', '--format=%s', `${commit}..${tip}`]);
  const lines = list.stdout.toString('utf8').split('\n');
  const descendants = new Set<string>([commit]);
  const merges: Array<{ commit: string; subject: string; line: string[] }> = [];
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const [oid, ...parents] = lines[i]!.replace(/^commit /, '').split(' ');
    descendants.add(oid!);
    if (parents.length > 1) merges.push({ commit: oid!, subject: lines[i + 1]!, line: parents });
  }
  if (!merges.length) return [];
  for (const m of merges) m.line = m.line.filter((p) => descendants.has(p));
  const asked = merges.flatMap((m) => [m.commit, ...m.line].flatMap((c) => paths.map((p) => `${c}:${p}`)));
  const check = await kb.repo.git(['cat-file', '--batch-check=%(objectname)'], { input: `${asked.join('\n')}\n`, allowFail: true });
  const found = check.stdout.toString('utf8').split('\n');
  const blob = new Map(asked.map((q, i) => [q, /^[0-9a-f]{40,64}$/.test(found[i] ?? '') ? found[i]! : null]));
  return merges
    .map((m) => ({
      commit: m.commit,
      subject: m.subject,
      paths: paths.filter((p) => m.line.every((parent) => blob.get(`${parent}:${p}`) !== blob.get(`${m.commit}:${p}`))),
    }))
    .filter((m) => m.paths.length > 0);
}

/** WRONG_STATE naming the later commits a revert waits for. */
export function dependsOn(target: string, subject: string, later: LaterChange[]): AxmeError {
  const named = later
    .slice(0, 10)
    .map((l) => `${l.commit.slice(0, 12)} (${l.subject}) changed ${l.paths.join(', ')}`)
    .join('; ');
  const newest = later[0]!.commit.slice(0, 12);
  return new AxmeError(
    'WRONG_STATE',
    `cannot revert ${target.slice(0, 12)} (${subject}): ${later.length === 1 ? 'a later commit' : `${later.length} later commits`} changed the same files — ${named}${later.length > 10 ? '; ...' : ''}. Nothing was changed. Revert ${later.length === 1 ? 'it' : 'them, newest first,'} before this one (\`axme revert ${newest}\`), or change the items themselves.`,
    { commit: target, later },
  );
}

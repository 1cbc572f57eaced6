import { mergeBase } from '../../store/remote.ts';
import { readSnapshot } from '../../store/tree.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { planMerge, type SettledField } from './merge/merge-stores.ts';

/** A field a merge commit settled, with that commit. */
export type MergeSettled = SettledField & { merge: string };

/** Merges read back per sync when it fast-forwards over several: the newest this many. */
const MAX_MERGES = 50;

/**
 * Names each side of each settled field by the commit that last changed the file on that side
 * (the merge itself only knows the two tips), so the report and the history point at the edits.
 */
export async function attributeSides(kb: KnowledgeBase, fields: SettledField[], merge: string): Promise<MergeSettled[]> {
  const editOf = new Map<string, Promise<string>>();
  const edit = (tip: string, path: string) => {
    const key = `${tip} ${path}`;
    if (!editOf.has(key)) editOf.set(key, kb.repo.git(['log', '-1', '--format=%H', tip, '--', path]).then((r) => r.stdout.toString('utf8').trim() || tip));
    return editOf.get(key)!;
  };
  return Promise.all(fields.map(async (f) => ({ ...f, merge, sides: await Promise.all(f.sides.map(async (s) => ({ ...s, commit: await edit(s.commit, f.path) }))) })));
}

/**
 * The fields a merge commit settled, recomputed from its two parents and their merge base (the
 * merge is a pure function of the three trees, so this is what it decided); `paths` limits it to
 * some files. Empty for a commit that is not a merge of two.
 */
export async function settledByMerge(kb: KnowledgeBase, commit: string, paths?: ReadonlySet<string>): Promise<MergeSettled[]> {
  return (await readMerge(kb, commit, paths)).settled;
}

/**
 * What a merge commit combined: the files both of its parents changed since their merge base
 * (a concurrent edit), and the fields of them it settled. Empty for a commit that is not a merge of two.
 */
export async function readMerge(kb: KnowledgeBase, commit: string, paths?: ReadonlySet<string>): Promise<{ concurrent: Set<string>; settled: MergeSettled[] }> {
  const none = { concurrent: new Set<string>(), settled: [] };
  const c = await kb.repo.backend.readCommit(commit);
  if (c.parents.length !== 2) return none;
  const [p1, p2] = c.parents as [string, string];
  const base = await mergeBase(kb.repo, p1, p2);
  const [b, ours, theirs] = await Promise.all([base ? readSnapshot(kb.repo.backend, base) : null, readSnapshot(kb.repo.backend, p1), readSnapshot(kb.repo.backend, p2)]);
  // only what both sides changed can have been settled
  const both = new Set([...new Set([...ours.files.keys(), ...theirs.files.keys()])].filter((p) => {
    const [x, y, o] = [ours.files.get(p)?.oid, theirs.files.get(p)?.oid, b?.files.get(p)?.oid];
    return x !== y && x !== o && y !== o && x !== undefined && y !== undefined && (!paths || paths.has(p));
  }));
  if (!both.size) return none;
  const plan = await planMerge({ kb, base: b, ours: { ...ours, commit: p1 }, theirs: { ...theirs, commit: p2 }, only: both });
  return { concurrent: both, settled: await attributeSides(kb, plan.settled, commit) };
}

/** The fields settled by the merge commits in `from..to` (what a fast-forward brought in), oldest merge first. */
export async function settledBetween(kb: KnowledgeBase, from: string, to: string): Promise<MergeSettled[]> {
  const r = await kb.repo.git(['rev-list', '--merges', `--max-count=${MAX_MERGES}`, `${from}..${to}`]);
  const merges = r.stdout.toString('utf8').split('\n').filter(Boolean).reverse();
  const out: MergeSettled[] = [];
  for (const m of merges) out.push(...(await settledByMerge(kb, m)));
  return out;
}

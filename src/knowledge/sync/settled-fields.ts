import { mergeBase } from '../../store/remote.ts';
import { readSnapshot } from '../../store/tree.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import type { SettledField } from './merge/merge-plan.ts';
import { planMerge } from './merge/merge-stores.ts';

/** A field a merge commit settled, with that commit. */
export type MergeSettled = SettledField & { merge: string };

/** Merges read back per sync when it fast-forwards over several: the newest this many. */
const MAX_MERGES = 50;

/**
 * Names each side of each settled field by the commit that last changed the file on that side
 * (the merge itself only knows the two tips), so the report and the history point at the edits.
 * One `git log` per side, since the merge base (`base`; the whole line without one).
 */
export async function attributeSides(kb: KnowledgeBase, fields: SettledField[], merge: string, base: string | null): Promise<MergeSettled[]> {
  if (!fields.length) return [];
  const wanted = new Set(fields.map((f) => f.path));
  const lastEdits = new Map<string, Promise<Map<string, string>>>();
  const editsOf = (tip: string) => {
    if (!lastEdits.has(tip)) lastEdits.set(tip, lastEditOn(kb, tip, base, wanted));
    return lastEdits.get(tip)!;
  };
  return Promise.all(
    fields.map(async (f) => ({
      ...f,
      merge,
      sides: await Promise.all(f.sides.map(async (s) => ({ ...s, commit: (await editsOf(s.commit)).get(f.path) ?? s.commit }))),
    })),
  );
}

/** For each of `paths`, the newest commit in `base..tip` that changed it. */
async function lastEditOn(kb: KnowledgeBase, tip: string, base: string | null, paths: ReadonlySet<string>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const r = await kb.repo.git(['log', '--no-renames', '--name-only', '--format=%x1e%H', base ? `${base}..${tip}` : tip]);
  for (const rec of r.stdout.toString('utf8').split('\x1e')) {
    const [commit, ...names] = rec.split('\n');
    for (const n of names) if (paths.has(n) && !out.has(n)) out.set(n, commit!.trim());
    if (out.size === paths.size) break;
  }
  return out;
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
  const [b, ours, theirs] = await Promise.all([
    base ? readSnapshot(kb.repo.backend, base) : null,
    readSnapshot(kb.repo.backend, p1),
    readSnapshot(kb.repo.backend, p2),
  ]);
  // only what both sides changed can have been settled
  const both = new Set(
    [...new Set([...ours.files.keys(), ...theirs.files.keys()])].filter((p) => {
      const [x, y, o] = [ours.files.get(p)?.oid, theirs.files.get(p)?.oid, b?.files.get(p)?.oid];
      return x !== y && x !== o && y !== o && x !== undefined && y !== undefined && (!paths || paths.has(p));
    }),
  );
  if (!both.size) return none;
  const plan = await planMerge({ kb, base: b, ours: { ...ours, commit: p1 }, theirs: { ...theirs, commit: p2 }, only: both });
  return { concurrent: both, settled: await attributeSides(kb, plan.settled, commit, base) };
}

/** The fields settled by the merge commits in `from..to` (what a fast-forward brought in), oldest merge first. */
export async function settledBetween(kb: KnowledgeBase, from: string, to: string): Promise<MergeSettled[]> {
  const r = await kb.repo.git(['rev-list', '--merges', `--max-count=${MAX_MERGES}`, `${from}..${to}`]);
  const merges = r.stdout.toString('utf8').split('\n').filter(Boolean).reverse();
  const out: MergeSettled[] = [];
  for (const m of merges) out.push(...(await settledByMerge(kb, m)));
  return out;
}

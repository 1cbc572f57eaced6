import { CONFIG_PATH, classifyPath, RULES_PATH } from '../../../model/paths.ts';
import type { Snapshot } from '../../../store/tree.ts';
import { openConflictQuestions } from './conflict-questions.ts';
import { type FileMerge, keptAndOther, tieBreak } from './file-merge.ts';
import { mergeItemFile } from './merge-item-file.ts';
import type { MergeConflict, MergeInput, MergePlan, SettledField } from './merge-plan.ts';
import { mergeYamlFile } from './merge-yaml-file.ts';
import { renumberMerged } from './renumber-merged.ts';

/** paths merged at once */
const READ_BATCH = 64;

/**
 * The three-way merge of two memory trees against their merge base (an empty tree when the two
 * histories share none). Per path: changed on one side -> that side; changed on both -> items
 * field by field (merge-item-file.ts), the safety rules and axme.yaml value by value
 * (merge-yaml-file.ts); a file removed on one side and changed on the other is kept. Lifecycle
 * clashes of a decision (superseded twice, revoked on one side and superseded on the other) are
 * conflicts too. Then display-ID collisions are renumbered (renumber-merged.ts) and every clash
 * that could not be combined becomes an open question, named by its conflict
 * (conflict-questions.ts). Pure given the three trees: both clones compute the same files.
 */
export async function planMerge(input: MergeInput): Promise<MergePlan> {
  const { kb, base, ours, theirs } = input;
  const blob = (snap: Snapshot | null, path: string) => snap?.files.get(path)?.oid;
  const read = async (snap: Snapshot | null, path: string) => {
    const oid = blob(snap, path);
    return oid ? (await kb.repo.backend.readBlob(oid)).toString('utf8') : undefined;
  };
  const plan: MergePlan = { changes: new Map(), conflicts: [], settled: [], renumbered: [], questions: [] };
  const all = input.only ? [...input.only] : [...(base?.files.keys() ?? []), ...ours.files.keys(), ...theirs.files.keys()];
  const paths = [...new Set(all)].sort();
  // blobs are read many at a time (the cat-file process pipelines them); results land by path
  const merged = new Map<string, { text?: Buffer | null; conflict?: MergeConflict; settled?: SettledField[] }>();
  const work = paths.map((path) => async () => {
    const [b, x, y] = [blob(base, path), blob(ours, path), blob(theirs, path)];
    if (x === y || y === b) return; // ours already holds the answer
    if (x === b) return void merged.set(path, { text: y ? await kb.repo.backend.readBlob(y) : null });
    // changed on both sides, differently; a removal loses to a change
    if (!x || !y) return void (x ? undefined : merged.set(path, { text: await kb.repo.backend.readBlob(y!) }));
    const [bt, xt, yt] = await Promise.all([read(base, path), read(ours, path), read(theirs, path)]);
    const m = mergeFile(path, bt, xt!, yt!, ours.commit, theirs.commit);
    merged.set(path, { text: m.text !== xt ? Buffer.from(m.text, 'utf8') : undefined, conflict: m.conflict, settled: m.settled });
  });
  for (let i = 0; i < work.length; i += READ_BATCH) await Promise.all(work.slice(i, i + READ_BATCH).map((w) => w()));
  for (const path of paths) {
    const m = merged.get(path);
    if (!m) continue;
    if (m.conflict) plan.conflicts.push(m.conflict);
    if (m.settled) plan.settled.push(...m.settled);
    if (m.text !== undefined) plan.changes.set(path, m.text);
  }
  if (input.only) return plan;
  await renumberMerged(kb, input, plan);
  await openConflictQuestions(kb, input, plan);
  for (const f of plan.settled) if (f.rule === 'asked') f.question = plan.conflicts.find((c) => c.path === f.path)?.question;
  return plan;
}

/** A file changed on both sides: an item, the rules or axme.yaml merged; any other file (or one that does not parse) kept whole, and asked about. */
function mergeFile(path: string, bt: string | undefined, xt: string, yt: string, oursCommit: string, theirsCommit: string): FileMerge {
  const c = classifyPath(path);
  if (c.type === 'item') return mergeItemFile(path, c.spec, c.slug, bt, xt, yt, oursCommit, theirsCommit);
  const values = path === RULES_PATH || path === CONFIG_PATH ? mergeYamlFile(path, bt, xt, yt, oursCommit, theirsCommit) : null;
  if (values) return values;
  // a file axme does not model, or one side unparsable: keep one whole version, ask about it
  const winner = tieBreak(oursCommit, theirsCommit);
  return {
    text: winner === 'ours' ? xt : yt,
    conflict: { path, id: null, title: path, fields: ['(whole file)'], ...keptAndOther(winner, oursCommit, theirsCommit) },
  };
}

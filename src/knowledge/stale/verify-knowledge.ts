import { ANCHORED_KINDS, type AnchoredKind, anchorProblem, VerifyInput } from '../../model/anchor.ts';
import { isLive } from '../../model/liveness.ts';
import { parseInput } from '../../model/validate.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { headCommitOf } from '../core/learned-at.ts';
import { readMergedState, storeOf } from '../core/merged-state.ts';
import { type AnchorCheck, checkAnchor } from './anchor-changes.ts';
import type { CodeCommit } from './change-log.ts';
import { type ChangeView, codeHistory } from './code-history.ts';
import { readBlobs } from './read-blobs.ts';
import { type Carrier, type CommitMaker, commitMakers, madeBy, notesTip } from './session-commits.ts';
import { staleReason } from './stale-note.ts';
import type { AnchorChange, VerifyResult } from './types.ts';

/** An item verify compares: current, anchored, with a learned_at. */
interface Target {
  kind: AnchoredKind;
  id: string | null;
  slug: string;
  title: string;
  anchors: string[];
  learned_at: string;
  /** files learned from content learned_at did not have: their blob then */
  learned_content: Record<string, string>;
  /** the sessions whose commits after learned_at carry it out (the one that saved it, the one that last reconfirmed it), each with its close when it has one */
  carriers: Carrier[];
}

/**
 * Which current items (decisions, memories, backlog items, oracle pages of this repository) have
 * anchors that moved in the code between their learned_at and HEAD (docs/staleness.md). The git
 * work is a fixed number of runs whatever the number of items (code-history.ts); the result is
 * remembered per (memory tree, HEAD). Never fails on an item: one that cannot be compared is
 * listed in `unverifiable`.
 */
export async function verifyKnowledge(kb: KnowledgeBase, opts: VerifyInput = {}): Promise<VerifyResult> {
  const input = parseInput(VerifyInput, opts, 'verify input');
  const state = await readMergedState(kb, input.at);
  const nothing = (head: string | null, note: string): VerifyResult => ({ head, checked: 0, stale: [], unverifiable: [], unlearned: 0, note });
  if (kb.repo.bare)
    return nothing(null, `${kb.repo.gitDir} is a bare repository: it has no checked-out code to compare the knowledge with. Run axme verify in a clone.`);
  const head = await headCommitOf(kb);
  if (!head) return nothing(null, 'HEAD has no commit yet: there is no code to compare the knowledge with.');
  // a note written or synced later can tell whose a commit is
  const key = `verify:${state.snapshot.tree}:${head}:${await notesTip(kb)}`;
  const hit = kb.cache.recall<VerifyResult>(key);
  if (hit) return hit;

  const targets: Target[] = [];
  const unusable: VerifyResult['unverifiable'] = [];
  let unlearned = 0;
  const closes = new Map(state.items.session.flatMap((s) => (s.session && s.closed ? [[s.session, s.closed] as const] : [])));
  for (const kind of ANCHORED_KINDS) {
    for (const item of state.items[kind] as Array<{
      slug: string;
      id?: string;
      title?: string;
      status?: string;
      anchors?: string[];
      learned_at?: string;
      learned_content?: Record<string, string>;
      session?: string;
      reconfirmed_by?: string;
    }>) {
      // a workspace store's items were learned against another repository's code
      if (!isLive(kind, item) || storeOf(state, item) !== null) continue;
      // an anchor from another clone or a hand edit may be unusable (too many wildcards): named, never matched
      const problems = (item.anchors ?? []).map(anchorProblem).filter((p) => p !== null);
      const anchors = (item.anchors ?? []).filter((a) => anchorProblem(a) === null);
      if (!anchors.length && !problems.length) continue;
      const target = {
        kind,
        id: item.id ?? null,
        slug: item.slug,
        title: item.title ?? item.slug,
        anchors,
        learned_at: item.learned_at ?? '',
        learned_content: item.learned_content ?? {},
        carriers: [item.session, item.reconfirmed_by].flatMap((id) => (id ? [{ session: id, ...(closes.has(id) ? { closed: closes.get(id)! } : {}) }] : [])),
      };
      if (problems.length && item.learned_at)
        unusable.push({
          ...ref(target),
          learned_at: item.learned_at,
          reason: `${problems.join('; ')}: that anchor is not checked; give the item usable anchors (axme reconfirm ${item.id ?? item.slug} --anchor <path>)`,
        });
      if (!anchors.length) continue;
      if (!item.learned_at) unlearned++;
      else targets.push(target);
    }
  }
  // which session made each commit, asked only when some item was saved by one, beside the commits' files
  let makers = new Map<string, CommitMaker>();
  const alongside = async (unseen: string[]) => void (makers = await commitMakers(kb, unseen));
  const history = await codeHistory(kb, head, [...new Set(targets.map((t) => t.learned_at))], targets.some((t) => t.carriers.length) ? { alongside } : {});
  const result: VerifyResult = { head, checked: targets.length, stale: [], unverifiable: unusable, unlearned };
  const pending: Array<{ target: Target; view: ChangeView; checks: AnchorCheck[] }> = [];
  for (const target of targets) {
    const view = history.get(target.learned_at);
    const checks = view ? tryChecks(target, view, head, makers) : null;
    if (view && checks) pending.push({ target, view, checks });
    else {
      const reason = view
        ? 'one of its anchors could not be read (a malformed glob?): fix the anchors'
        : `learned_at ${target.learned_at.slice(0, 12)} is not a commit of this repository (rewritten history, a shallow clone, another clone's commit): compare it by hand, then save it again`;
      const named = result.unverifiable.find((u) => u.kind === target.kind && u.slug === target.slug);
      if (named) named.reason = `${reason}; ${named.reason}`;
      else result.unverifiable.push({ ...ref(target), learned_at: target.learned_at, reason });
    }
  }
  const checks = pending.flatMap((p) => p.checks);
  const [blobs, headPaths] = await Promise.all([
    readBlobs(
      kb,
      checks.flatMap((c) => c.reads),
    ),
    checks.some((c) => c.headPaths) ? listFiles(kb, head) : [],
  ]);
  const commits = commitIndex(history.values());
  for (const { target, view, checks: own } of pending) {
    const changes: AnchorChange[] = own.flatMap((c) => c.finish(blobs, headPaths));
    if (!changes.length) continue;
    const shas = new Set(changes.flatMap((c) => c.commits));
    const list = [...shas]
      .map((s) => commits.get(s))
      .filter((c) => c !== undefined)
      .sort((a, b) => a.order - b.order);
    result.stale.push({
      ...ref(target),
      title: target.title,
      reason: staleReason(target.kind, changes, view.compared),
      learned_at: target.learned_at,
      changes,
      commits: list.map(({ c }) => ({ sha: c.sha, date: c.date, subject: c.subject })),
    });
  }
  return kb.cache.remember(key, result);
}

function ref(t: Target): { kind: AnchoredKind; id: string | null; slug: string } {
  return { kind: t.kind, id: t.id, slug: t.slug };
}

/** The checks of a target's anchors, or null when one of them throws (a malformed glob). */
function tryChecks(t: Target, view: ChangeView, head: string, makers: ReadonlyMap<string, CommitMaker>): AnchorCheck[] | null {
  const own = madeBy(view.log, makers, t.carriers);
  try {
    return t.anchors.map((a) => checkAnchor(a, view, t.learned_at, head, t.learned_content, own));
  } catch {
    return null;
  }
}

/** The paths of every file of commit `head`. */
async function listFiles(kb: KnowledgeBase, head: string): Promise<string[]> {
  const r = await kb.repo.git(['ls-tree', '-r', '-z', '--name-only', head]);
  return r.stdout.toString('utf8').split('\0').filter(Boolean);
}

/** Every commit of the views' logs by ID, with its place (newest first). */
function commitIndex(views: Iterable<ChangeView | null>): Map<string, { c: CodeCommit; order: number }> {
  const out = new Map<string, { c: CodeCommit; order: number }>();
  const logs = new Set([...views].filter((v) => v !== null).map((v) => v.log));
  for (const log of logs) log.commits.forEach((c, order) => c.sha && out.set(c.sha, { c, order }));
  return out;
}

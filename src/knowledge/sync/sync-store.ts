import { AxmeError } from '../../model/errors.ts';
import { numberValue, SYNC_ROUNDS } from '../../model/number-value.ts';
import { NOTES_REF } from '../../store/code-commits.ts';
import { commitMerge, fastForwardRef, formatCommitMessage } from '../../store/commit.ts';
import {
  commitAt,
  configureKnowledgeFetch,
  fetchKnowledge,
  mergeBase,
  mergeNotes,
  notesTrackingRef,
  pickRemote,
  pushKnowledge,
  readRemotes,
  remoteKnowledgeRefs,
  resolve,
  trackingRef,
} from '../../store/remote.ts';
import { readSnapshot, type Snapshot } from '../../store/tree.ts';
import { ignoredSettings, ignoredSettingsLine } from '../core/ignored-settings.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { readState } from '../core/state.ts';
import { type AdoptionReport, adoptionLines, adoptReviewed } from '../review/adopt.ts';
import { REVIEWED_BRANCH, reviewedMirror, reviewedTip } from '../review/proposals.ts';
import { PROPOSAL_BRANCHES, proposalMirrors, pruneProposalMirrors } from '../review/remote-proposals.ts';
import { othersHandoffsRemoved } from './handoff-removals.ts';
import { heldElsewhere, holdInbound, holdsOpenElsewhere, SyncHeld, settleHeld, withdrawHeld } from './held-sync.ts';
import { checkRemoteNotes, type Loosening, loosenedByRemote, removedBy } from './inbound.ts';
import type { MergeConflict } from './merge/merge-plan.ts';
import { planMerge } from './merge/merge-stores.ts';
import { keepRenumbered } from './record-renumbered.ts';
import { attributeSides, type MergeSettled, settledBetween } from './settled-fields.ts';
import { settledLine } from './settled-line.ts';
import { agreedTip, checkRemoteStore, recordAgreedTip } from './validate-remote.ts';

/**
 * `axme sync [remote]`: fetch the remote's knowledge into tracking refs, integrate it (the five
 * cases: nothing on one side, equal, behind, ahead, diverged -> a three-way merge commit), merge
 * the notes, push unforced and atomically; when the push is rejected because the remote moved,
 * fetch and integrate again (a bounded number of rounds). Never a force push, never a lost item.
 */

export interface SyncOptions {
  remote?: string | undefined;
  /** fetch-integrate-push rounds before giving up (default 5) */
  maxRounds?: number;
  /** for GitHub's API (the state of proposals' pull requests); without it, states are not asked */
  env?: NodeJS.ProcessEnv | undefined;
  /** take a remote change that removes items (held otherwise: `axme sync --accept-removals`) */
  acceptRemovals?: boolean | undefined;
  /** take a remote change that loosens what binds agents here (held otherwise; a person only: `axme sync --accept-loosening`) */
  acceptLoosening?: boolean | undefined;
}

export interface SyncMerge {
  commit: string;
  tree: string;
  base: string | null;
  conflicts: MergeConflict[];
  renumbered: Array<{ path: string; from: string; to: string }>;
  questions: string[];
  /** every field both sides changed differently: both values, the rule that settled it */
  settled: MergeSettled[];
}

export interface SyncResult {
  remote: string;
  /** the local tip before and after */
  before: string | null;
  after: string | null;
  /** what the remote held when the last round began */
  remoteBefore: string | null;
  /** how the remote's knowledge came in */
  integrated: 'none' | 'up-to-date' | 'fast-forward' | 'merged' | 'ahead';
  merges: SyncMerge[];
  pushed: { memory: boolean; notes: boolean };
  rounds: number;
  /** refspecs added to the remote's fetch configuration by this sync */
  configured: string[];
  /** the reviewed branch (axme/memory) adopted, proposals settled */
  adoption: AdoptionReport;
  /** items the remote removed, taken because of --accept-removals (without it, such a sync is held) */
  removed: string[];
  /** what the remote loosened of what binds agents here, taken because a person gave --accept-loosening (without it, such a sync is held): one line a kind */
  loosened: string[];
  /** the same lines as the text says them, each value of the rules that loosened named (inbound.ts, Loosening.said) */
  loosenedNamed: string[];
  /** the machine-local settings the shared axme.yaml sets that this sync brought in, ignored here (core/ignored-settings.ts) */
  ignoredSettings: string[];
  /** every field a merge settled that this sync made or took (a fast-forward over a teammate's merge): both values each */
  settled: MergeSettled[];
  text: string;
}

const DEFAULT_ROUNDS = 5;

export async function syncStore(kb: KnowledgeBase, opts: SyncOptions = {}): Promise<SyncResult> {
  const { repo } = kb;
  // the remotes and their fetch refspecs, read once for the whole sync
  const remotes = await readRemotes(repo);
  const remote = await pickRemote(repo, opts.remote, remotes);
  const maxRounds = numberValue('--rounds', opts.maxRounds ?? DEFAULT_ROUNDS, SYNC_ROUNDS);
  const before = await resolve(repo, kb.ref);
  const merges: SyncMerge[] = [];
  let configured: string[] = [];
  let integrated: SyncResult['integrated'] = 'none';
  let remoteBefore: string | null = null;
  let adoption: AdoptionReport | null = null;
  const inbound: Inbound = {
    remote,
    acceptRemovals: !!opts.acceptRemovals,
    acceptLoosening: !!opts.acceptLoosening,
    taken: new Map(),
    loosened: new Map(),
    settled: [],
    agreed: agreedTip(repo.commonDir, remote),
  };
  for (let round = 1; round <= maxRounds; round++) {
    const heads = await remoteKnowledgeRefs(repo, remote, [`refs/heads/${REVIEWED_BRANCH}`, PROPOSAL_BRANCHES]);
    // the remote answered: from now on a plain `git fetch` brings the knowledge too
    if (round === 1) configured = await configureKnowledgeFetch(repo, remote, remotes);
    const reviewedListed = heads.extra.has(`refs/heads/${REVIEWED_BRANCH}`);
    // what the tracking refs hold after the fetch, not the listing: the remote may have moved between the two
    const tracked = await fetchKnowledge(repo, remote, heads, [...(reviewedListed ? [reviewedMirror(remote)] : []), ...proposalMirrors(remote, heads)]);
    await pruneProposalMirrors(repo, remote, heads);
    const remoteMain = await commitAt(repo, tracked.get(trackingRef(remote, kb.ref.slice('refs/memory/'.length))));
    const remoteNotes = await commitAt(repo, tracked.get(notesTrackingRef(remote)));
    // the notes are checked before anything is taken, the knowledge included: a refused remote changes nothing
    if (remoteNotes && remoteNotes !== (await resolve(repo, NOTES_REF))) await checkRemoteNotes(kb, remote, remoteNotes);
    remoteBefore = remoteMain;
    const local = await resolve(repo, kb.ref);
    if (!local && !remoteMain) {
      throw new AxmeError('NOT_INITIALIZED', `neither this repository nor ${remote} has knowledge yet (${kb.ref}): run \`axme init\`, then sync`);
    }
    // the remote's knowledge is published: its newcomers keep their display IDs; against the reviewed branch, this store's do
    try {
      integrated = await integrate(kb, remote, local, remoteMain, merges, inbound, 'theirs');
    } catch (err) {
      if (err instanceof SyncHeld) throw await withReviewedHolds(kb, remote, err, tracked, inbound);
      throw err;
    }
    adoption = await adoptReviewed(
      kb,
      remote,
      async (tip) => integrate(kb, `${remote}'s ${REVIEWED_BRANCH}`, await resolve(repo, kb.ref), tip, merges, inbound, 'ours'),
      { tracked, env: opts.env },
    );
    if (adoption.renumbered.length) await keepRenumbered(kb, (await resolve(repo, kb.ref))!, adoption.renumbered);
    for (const [label, paths] of inbound.taken) await settleHeld(kb, 'removals', label, paths);
    for (const [label, l] of inbound.loosened) await settleHeld(kb, 'loosening', label, l.said);
    // nothing held this sync: a question an earlier hold from this remote asked has lost its cause, and is not pushed open
    await withdrawHeld(kb, [
      { label: remote, tip: remoteMain },
      { label: `${remote}'s ${REVIEWED_BRANCH}`, tip: null },
    ]);
    await mergeNotes(repo, remote, remoteNotes);
    const tip = await resolve(repo, kb.ref);
    const notes = await resolve(repo, NOTES_REF);
    const updates: Array<{ oid: string; ref: string }> = [];
    // an open question another remote's hold asked stays here: no knowledge goes to this remote until it is settled
    const heldHere = tip && tip !== remoteMain ? await holdsOpenElsewhere(kb, remote, tip, remoteMain) : [];
    if (tip && tip !== remoteMain && !heldHere.length) updates.push({ oid: tip, ref: kb.ref });
    if (notes && notes !== remoteNotes) updates.push({ oid: notes, ref: NOTES_REF });
    const outcome = await pushKnowledge(repo, remote, updates);
    if (outcome === 'pushed') {
      const pushed = { memory: updates.some((u) => u.ref === kb.ref), notes: updates.some((u) => u.ref === NOTES_REF) };
      // what we pushed is what the remote now holds
      if (pushed.memory) await repo.git(['update-ref', trackingRef(remote, kb.ref.slice('refs/memory/'.length)), tip!]);
      if (tip && !heldHere.length) recordAgreedTip(repo.commonDir, remote, tip);
      if (pushed.notes) await repo.git(['update-ref', notesTrackingRef(remote), notes!]);
      if (heldHere.length) throw heldElsewhere(remote, heldHere);
      const removed = [...new Set([...inbound.taken.values()].flat())].sort();
      const loosened = [...new Set([...inbound.loosened.values()].flatMap((l) => l.reasons))];
      const loosenedNamed = [...new Set([...inbound.loosened.values()].flatMap((l) => l.said))];
      const result: SyncResult = {
        remote,
        before,
        after: tip,
        remoteBefore,
        integrated,
        merges,
        pushed,
        rounds: round,
        configured,
        adoption: adoption!,
        removed,
        loosened,
        loosenedNamed,
        ignoredSettings: await newlyIgnored(kb, before, tip),
        settled: inbound.settled,
        text: '',
      };
      return { ...result, text: describe(result) };
    }
    // the remote moved between our fetch and our push: fetch, integrate, push again
  }
  throw new AxmeError(
    'CONFLICT',
    `${remote} kept changing while axme synced (${maxRounds} rounds): nothing was lost — what was merged stays merged locally; run axme sync again`,
    { remote },
  );
}

/**
 * Adds the knowledge refspecs to every configured remote (run by `axme init`), so a plain
 * `git fetch` brings teammates' knowledge into the tracking refs `axme sync` reads. Returns the
 * refspecs added per remote (none where they were there already).
 */
export async function configureKnowledgeRemotes(kb: KnowledgeBase): Promise<Array<{ remote: string; added: string[] }>> {
  const out: Array<{ remote: string; added: string[] }> = [];
  const remotes = await readRemotes(kb.repo);
  for (const remote of remotes.names) out.push({ remote, added: await configureKnowledgeFetch(kb.repo, remote, remotes) });
  return out;
}

/** What a sync holds or, accepted, takes (by the label of what brought it): removals, loosenings; and what its merges settled. */
interface Inbound {
  remote: string;
  acceptRemovals: boolean;
  acceptLoosening: boolean;
  /** the removed paths taken */
  taken: Map<string, string[]>;
  /** what loosened, taken: the kinds and the same said with their values */
  loosened: Map<string, Loosening>;
  /** what the merges made or taken settled (reported with the removals: both are what came in) */
  settled: MergeSettled[];
  /** the store this clone and the remote last agreed on (validate-remote.ts): an ID an item had there is its own */
  agreed: string | null;
}

/**
 * A sync held on the remote's knowledge takes nothing of the remote, its reviewed branch included,
 * but names the reviewed branch's holds too (checked against this store, its questions asked), so
 * one sync reports every hold at once. A reviewed branch that holds nothing has its old holds'
 * questions withdrawn; one that fails otherwise (refused) is said by the sync after this hold.
 */
async function withReviewedHolds(kb: KnowledgeBase, remote: string, held: SyncHeld, tracked: ReadonlyMap<string, string>, inbound: Inbound): Promise<SyncHeld> {
  const tip = await reviewedTip(kb.repo, remote, tracked);
  if (!tip) return held;
  const label = `${remote}'s ${REVIEWED_BRANCH}`;
  try {
    await integrate(kb, label, await resolve(kb.repo, kb.ref), tip, [], inbound, 'ours', 'check');
  } catch (err) {
    return err instanceof SyncHeld ? new SyncHeld([...held.changes, ...err.changes]) : held;
  }
  await withdrawHeld(kb, [{ label, tip }]);
  return held;
}

/**
 * Brings the remote tip into the local ref; returns how. Re-merges when a local writer moved the
 * ref meanwhile. The remote's tree is checked first (inbound.ts), then its files; a change that
 * removes items is held unless `inbound.acceptRemovals`, one that loosens what binds agents here
 * unless a person gave `inbound.acceptLoosening`.
 */
async function integrate(
  kb: KnowledgeBase,
  remote: string,
  local: string | null,
  remoteTip: string | null,
  merges: SyncMerge[],
  inbound: Inbound,
  published: 'ours' | 'theirs',
  /** 'check': only hold (held-sync.ts) what would be held, writing nothing of the remote's; returns how it would come in */
  mode: 'take' | 'check' = 'take',
): Promise<SyncResult['integrated']> {
  const { repo } = kb;
  // a new clone's store (none here yet) takes the team's as it is: there is nothing of its own to lose or loosen
  const guard = async (ours: Snapshot | null, next: Snapshot | Map<string, Buffer | null>) => {
    const removed = ours ? [...removedBy(ours, next), ...(await othersHandoffsRemoved(kb, ours, next, local, remoteTip!))].sort() : [];
    const loosened = ours ? await loosenedByRemote(kb, ours, next) : { reasons: [], said: [] };
    // every hold of the change at once (held-sync.ts): returns when nothing is held
    await holdInbound(kb, {
      label: remote,
      remote: inbound.remote,
      tip: remoteTip!,
      removed,
      loosening: loosened,
      acceptRemovals: inbound.acceptRemovals,
      acceptLoosening: inbound.acceptLoosening,
    });
    return { removed, loosened };
  };
  const took = ({ removed, loosened }: { removed: string[]; loosened: Loosening }) => {
    if (removed.length) inbound.taken.set(remote, [...(inbound.taken.get(remote) ?? []), ...removed]);
    if (loosened.reasons.length) {
      const was = inbound.loosened.get(remote) ?? { reasons: [], said: [] };
      inbound.loosened.set(remote, { reasons: [...was.reasons, ...loosened.reasons], said: [...was.said, ...loosened.said] });
    }
  };
  for (let attempt = 0; attempt < 20; attempt++) {
    if (!remoteTip) return local ? 'ahead' : 'none';
    if (local === remoteTip) return 'up-to-date';
    // one merge-base answers all three questions: the remote tip is in ours (base = theirs), ours is
    // in theirs (base = ours: a fast-forward), or neither (a three-way merge from base)
    const base = local ? await mergeBase(repo, local, remoteTip) : null;
    if (local && base === remoteTip) return 'ahead';
    const ours = local ? await readSnapshot(repo.backend, local) : null;
    const baseSnap = base === local ? ours : base ? await readSnapshot(repo.backend, base) : null;
    const theirs = await checkRemoteStore(kb, remote, remoteTip, ours, baseSnap, inbound.agreed);
    if (!local || base === local) {
      const removed = await guard(ours, theirs);
      if (mode === 'check') return 'fast-forward';
      const r = await fastForwardRef(repo, kb.ref, remoteTip, local, `sync: fast-forward to ${remote}`, kb.now);
      if (r === 'updated') {
        took(removed);
        // a teammate's merges came in as they are: what they settled is news here too
        if (local) inbound.settled.push(...(await settledBetween(kb, local, remoteTip)));
        return 'fast-forward';
      }
    } else {
      const plan = await planMerge({ kb, base: baseSnap, ours: { ...ours!, commit: local }, theirs: { ...theirs, commit: remoteTip }, published });
      const removed = await guard(ours, plan.changes);
      if (mode === 'check') return 'merged';
      const body = [
        `Merged ${remote}'s knowledge (${remoteTip.slice(0, 12)}) into ${local.slice(0, 12)}${base ? ` (base ${base.slice(0, 12)})` : ' (no common history: merged against an empty base)'}.`,
        ...plan.renumbered.map((r) => `Renumbered ${r.from} -> ${r.to} (${r.path}): the ID was taken on both sides.`),
        ...plan.conflicts.map(
          (c) =>
            `Conflict in ${c.path} (${c.fields.join(', ')}): kept ${c.kept.slice(0, 12)}, the other version is ${c.other.slice(0, 12)}:${c.path}${c.question ? `; asked in ${c.question}` : ''}.`,
        ),
        ...plan.settled.filter((f) => f.rule !== 'asked').map((f) => `Settled ${settledLine(f)}.`),
      ].join('\n');
      const message = formatCommitMessage(`sync: merge ${remote}`, { event: 'sync.merged', items: [...plan.changes.keys()].sort(), actor: 'sync' }, body);
      const r = await commitMerge(repo, {
        ref: kb.ref,
        expected: local,
        ours: ours!,
        changes: plan.changes,
        parents: [local, remoteTip],
        message,
        now: kb.now,
      });
      if (r.outcome === 'updated') {
        took(removed);
        const settled = await attributeSides(kb, plan.settled, r.commit, base);
        inbound.settled.push(...settled);
        merges.push({ commit: r.commit, tree: r.tree, base, conflicts: plan.conflicts, renumbered: plan.renumbered, questions: plan.questions, settled });
        // this clone's open sessions may hold a renumbered ID: their next prompt is told
        await keepRenumbered(kb, r.commit, plan.renumbered);
        return 'merged';
      }
    }
    // a local writer moved the ref: integrate again from its new tip
    local = await resolve(repo, kb.ref);
  }
  throw new AxmeError('CONFLICT', `${kb.ref} kept changing locally while axme merged ${remote}: run axme sync again`);
}

/** The settings axme.yaml sets that are ignored here at `after` and were not at `before`: what the sync brought that the person should hear of. */
async function newlyIgnored(kb: KnowledgeBase, before: string | null, after: string | null): Promise<string[]> {
  if (!after || after === before) return [];
  const now = ignoredSettings((await readState(kb, after)).diagnostics);
  if (!now.length) return [];
  const was = before ? new Set(ignoredSettings((await readState(kb, before)).diagnostics)) : new Set<string>();
  return now.filter((s) => !was.has(s));
}

function describe(r: SyncResult): string {
  const lines: string[] = [];
  const how = {
    none: 'nothing to take',
    'up-to-date': 'already up to date',
    'fast-forward': `fast-forwarded to ${r.remote}`,
    merged: `merged ${r.remote}`,
    ahead: `${r.remote} had nothing new`,
  }[r.integrated];
  lines.push(
    `Synced with ${r.remote}: ${how}${r.pushed.memory ? ', pushed the knowledge' : ''}${r.pushed.notes ? ', pushed the notes' : ''}${r.rounds > 1 ? ` (${r.rounds} rounds: the remote moved meanwhile)` : ''}.`,
  );
  if (r.after) lines.push(`${r.before?.slice(0, 12) ?? '(none)'} -> ${r.after.slice(0, 12)}`);
  if (r.removed.length)
    lines.push(
      `Took the removal of ${r.removed.length} item${r.removed.length === 1 ? '' : 's'} (--accept-removals): ${r.removed.slice(0, 20).join(', ')}${r.removed.length > 20 ? ', ...' : ''}.`,
    );
  if (r.loosenedNamed.length) lines.push(`Took what loosens what binds agents here (--accept-loosening): ${r.loosenedNamed.join('; ')}.`);
  if (r.ignoredSettings.length) lines.push(ignoredSettingsLine(r.ignoredSettings));
  if (r.configured.length) lines.push(`Configured ${r.remote} so that a plain git fetch brings the knowledge too (${r.configured.join(', ')}).`);
  for (const m of r.merges) {
    for (const x of m.renumbered) lines.push(`Renumbered ${x.from} -> ${x.to} (${x.path}): both sides had used the ID.`);
    // each conflict names its own question (several conflicts of one merge share their commits)
    for (const c of m.conflicts)
      lines.push(`Conflict in ${c.path} (${c.fields.join(', ')}): kept one version, asked about it in ${c.question ?? 'a question'}.`);
  }
  // what was settled without a question, by this sync's merges or a teammate's it took: both values
  for (const f of r.settled) if (f.rule !== 'asked') lines.push(`Both clones changed ${settledLine(f)} (merge ${f.merge.slice(0, 12)}).`);
  lines.push(...adoptionLines(r.adoption, r.remote));
  return lines.join('\n');
}

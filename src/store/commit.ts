import { AxmeError } from '../model/errors.ts';
import { normalizeMessage, type Signature } from './backend.ts';
import { sleep, withAdvisoryLock } from './lock.ts';
import { tipReadError } from './ref-damage.ts';
import { compareAndSwapRef } from './refs.ts';
import type { Repo } from './repo.ts';
import { applyChanges, emptySnapshot, rememberSnapshot, type Snapshot, snapshotAt, writeChanges } from './tree.ts';

/** What one logical operation changes: file contents by path (null removes) and the commit message. */
export interface Change {
  files: Map<string, Buffer | null>;
  message: string;
}

/** An operation: given the current tip, the change to make (null: nothing to do) and a result. */
export type Operation<R> = (snap: Snapshot) => Promise<{ change: Change | null; result: R }>;

export interface CommitOptions<R> {
  ref: string;
  apply: Operation<R>;
  /** clock for commit timestamps (tests inject one) */
  now: () => Date;
  /** attempts before giving up with CONFLICT */
  maxAttempts?: number;
}

export interface CommitOutcome<R> {
  result: R;
  /** the new commit, or null when the operation changed nothing */
  commit: string | null;
  /** the snapshot the operation was applied to */
  base: Snapshot;
  /** the snapshot of the commit written (absent when nothing was written) */
  next?: Snapshot;
  /** attempts used (1 when nobody raced us) */
  attempts: number;
}

/**
 * One logical operation = one commit on `ref`: read the tip, apply the operation, write the
 * objects, compare-and-swap the ref. When another writer moved the ref first, the operation is
 * re-applied to the new tip (so IDs, duplicates and edits see the other writer's work) after a
 * jittered backoff. Never touches HEAD, the index or the work tree.
 */
export async function commitOperation<R>(repo: Repo, opts: CommitOptions<R>): Promise<CommitOutcome<R>> {
  const maxAttempts = opts.maxAttempts ?? 60;
  return withAdvisoryLock(repo.axmeDir, 'write', async () => {
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const tip = await repo.backend.resolveRef(opts.ref);
      const snap = tip ? await snapshotAt(repo, tip).catch(async (err) => Promise.reject(await tipReadError(repo.git, opts.ref, tip, err))) : emptySnapshot();
      const { change, result } = await opts.apply(snap);
      if (!change) return { result, commit: null, base: snap, attempts: attempt };
      const next = await applyChanges(repo.backend, snap, change.files);
      const tree = next.tree;
      if (tip && tree === snap.tree) return { result, commit: null, base: snap, attempts: attempt };
      const date = opts.now();
      const ident = await repo.identity();
      const sig: Signature = { ...ident, timestamp: Math.floor(date.getTime() / 1000), tz: '+0000' };
      const message = normalizeMessage(change.message);
      const commit = await repo.backend.writeCommit({ tree, parents: tip ? [tip] : [], author: sig, committer: sig, message });
      const outcome = await compareAndSwapRef(repo, opts.ref, commit, tip, `axme: ${message.split('\n')[0]}`, sig);
      if (outcome === 'updated')
        return { result, commit, base: snap, next: rememberSnapshot(repo, { ...next, commit, parents: tip ? [tip] : [] }), attempts: attempt };
      await sleep(Math.min(5 * 2 ** Math.min(attempt, 6), 250) * (0.5 + Math.random()));
    }
    throw new AxmeError(
      'CONFLICT',
      `could not update ${opts.ref} after ${maxAttempts} attempts: other writers kept changing it. Nothing was written; run the command again.`,
      { ref: opts.ref },
    );
  });
}

/** Trailers of a memory commit (docs/storage.md). */
export interface CommitTrailers {
  event: string;
  items: string[];
  actor: string;
  session?: string | undefined;
  /** the name of the bearer token the write came with (`axme serve --http`) */
  token?: string | undefined;
}

/** `<subject>\n\n[body\n\n]Axme-Event: ...\nAxme-Item: ...\nAxme-Session: ...\nAxme-Actor: ...[\nAxme-Token: ...]` */
export function formatCommitMessage(subject: string, trailers: CommitTrailers, body = ''): string {
  const lines = [`Axme-Event: ${trailers.event}`, ...trailers.items.map((i) => `Axme-Item: ${i}`)];
  if (trailers.session) lines.push(`Axme-Session: ${trailers.session}`);
  lines.push(`Axme-Actor: ${trailers.actor}`);
  if (trailers.token) lines.push(`Axme-Token: ${trailers.token}`);
  const chars = Array.from(subject.replace(/\s+/g, ' ').trim());
  return `${chars.length > 120 ? `${chars.slice(0, 117).join('')}...` : chars.join('')}\n\n${body.trim() ? `${body.trim()}\n\n` : ''}${lines.join('\n')}\n`;
}

export interface MergeCommitOptions {
  ref: string;
  /** the local tip the merge was computed from: the ref must still point there */
  expected: string;
  /** our side's snapshot and the changes that turn it into the merged tree */
  ours: Snapshot;
  changes: Map<string, Buffer | null>;
  /** [ours, theirs] */
  parents: [string, string];
  message: string;
  now: () => Date;
}

/**
 * Writes a merge commit (both parents) and moves `ref` to it if it still points at `expected`.
 * 'stale' when a local writer moved the ref meanwhile: the caller merges again from the new tip.
 */
export async function commitMerge(repo: Repo, opts: MergeCommitOptions): Promise<{ outcome: 'updated' | 'stale' | 'locked'; commit: string; tree: string }> {
  return withAdvisoryLock(repo.axmeDir, 'write', async () => {
    const tree = await writeChanges(repo.backend, opts.ours, opts.changes);
    const ident = await repo.identity();
    const sig: Signature = { ...ident, timestamp: Math.floor(opts.now().getTime() / 1000), tz: '+0000' };
    const message = normalizeMessage(opts.message);
    const commit = await repo.backend.writeCommit({ tree, parents: opts.parents, author: sig, committer: sig, message });
    const outcome = await compareAndSwapRef(repo, opts.ref, commit, opts.expected, `axme: ${message.split('\n')[0]}`, sig);
    return { outcome, commit, tree };
  });
}

/** Moves `ref` from `expected` (null: it must not exist) to `next`, an existing commit (a fast-forward). */
export async function fastForwardRef(
  repo: Repo,
  ref: string,
  next: string,
  expected: string | null,
  reason: string,
  now: () => Date,
): Promise<'updated' | 'stale' | 'locked'> {
  return withAdvisoryLock(repo.axmeDir, 'write', async () => {
    const ident = await repo.identity();
    const sig: Signature = { ...ident, timestamp: Math.floor(now().getTime() / 1000), tz: '+0000' };
    return compareAndSwapRef(repo, ref, next, expected, `axme: ${reason}`, sig);
  });
}

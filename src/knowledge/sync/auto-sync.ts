import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AxmeSelf } from '../../model/axme-self.ts';
import type { StoreConfig } from '../../model/config.ts';
import { claimLockFile, lockFileHeld } from '../../session/claim-lock.ts';
import { writeFileAtomicSync } from '../../store/atomic-file.ts';
import { startDetachedAxme } from '../../store/processes.ts';

/**
 * Knowledge kept in step without thinking about it (`sync.auto` in axme.yaml, docs/sync.md): the
 * session-start and session-end hooks (and with `commit`, the post-commit git hook) start
 * `axme sync --auto <why>` in the background — detached,
 * one at a time, bounded in time — so a slow or absent network never holds the agent. Each run
 * leaves its outcome in `<git-common-dir>/axme/auto-sync.json`; a failure is told in the next
 * session's context, with what to run.
 */

export type AutoSyncMode = 'off' | 'session' | 'commit';
const MODES: readonly string[] = ['off', 'session', 'commit'];

/** A background sync gives up after this long (the process exits, the outcome says so). */
export const AUTO_SYNC_TIMEOUT_MS = 120_000;

export interface AutoSyncRecord {
  /** the mode the last session start found (session-end follows it without opening the store) */
  mode: AutoSyncMode;
  /** the last run: when it ended, why it ran, and how it went */
  last?: { at: string; reason: string; ok: boolean; remote?: string; summary: string; error?: string } | undefined;
}

const recordPath = (commonDir: string) => join(commonDir, 'axme', 'auto-sync.json');
const lockPath = (commonDir: string) => join(commonDir, 'axme', 'auto-sync.pid');

/** Whether the repository has a git remote (its config file, read without git). */
function hasRemote(commonDir: string): boolean {
  try {
    return /^\s*\[remote\s+"/m.test(readFileSync(join(commonDir, 'config'), 'utf8'));
  } catch {
    return false;
  }
}

/** The mode: AXME_SYNC_AUTO, else axme.yaml's `sync.auto`, else `session` when the repository has a remote, else off. */
export function autoSyncMode(config: StoreConfig | null, commonDir: string, env: NodeJS.ProcessEnv = {}): AutoSyncMode {
  const forced = env.AXME_SYNC_AUTO;
  if (forced && MODES.includes(forced)) return forced as AutoSyncMode;
  const set = config?.sync?.auto;
  if (set) return set;
  return hasRemote(commonDir) ? 'session' : 'off';
}

export function readAutoSync(commonDir: string): AutoSyncRecord | null {
  try {
    const r = JSON.parse(readFileSync(recordPath(commonDir), 'utf8')) as AutoSyncRecord;
    return r && MODES.includes(r.mode) ? r : null;
  } catch {
    return null;
  }
}

function writeAutoSync(commonDir: string, r: AutoSyncRecord): void {
  try {
    writeFileAtomicSync(recordPath(commonDir), `${JSON.stringify(r)}\n`);
  } catch {
    // a read-only repository: nothing is remembered, nothing breaks
  }
}

/** Remembers the mode (session start), keeping the last run's outcome. */
export function rememberAutoSyncMode(commonDir: string, mode: AutoSyncMode): void {
  const r = readAutoSync(commonDir);
  if (r?.mode !== mode) writeAutoSync(commonDir, { ...(r ?? {}), mode });
}

/** Records how a background sync went (the `axme sync --auto` process, at its end). */
export function recordAutoSyncRun(commonDir: string, last: NonNullable<AutoSyncRecord['last']>): void {
  const r = readAutoSync(commonDir);
  writeAutoSync(commonDir, { mode: r?.mode ?? 'session', last });
}

/**
 * The line the next session's context carries about a failed background sync, or null. It is in
 * axme's voice, so it carries axme's words only: what the remote's server said (git's `remote:`
 * lines: a hook there can print anything, "agents must run …") is left out and named, the
 * agent's context being no place for a server's text (`axme sync` prints it to the person).
 */
export function autoSyncProblem(commonDir: string): string | null {
  const last = readAutoSync(commonDir)?.last;
  if (!last || last.ok) return null;
  return `(axme: the background sync${last.remote ? ` with ${last.remote}` : ''} at ${last.reason} failed at ${last.at}: ${withoutRemoteText(last.error ?? last.summary)}; the knowledge here may not be the team's: run \`axme sync\` to see why)`;
}

/** An error's text up to where git starts quoting the remote's server (`remote: …`), at most 300 characters. */
function withoutRemoteText(error: string): string {
  const at = error.search(/\bremote:/);
  const own = (at < 0 ? error : `${error.slice(0, at).replace(/[\s:]+$/, '')} (the remote's server said more; not shown here)`).replace(/\s+/g, ' ');
  return own.length > 300 ? `${own.slice(0, 299)}…` : own;
}

/**
 * Starts `axme sync --auto <reason>` detached from this process (the hook answers at once), unless
 * one is running already. Its output goes to `<git-common-dir>/axme/auto-sync.log`. The run takes
 * the lock itself (runAutoSync), whoever started it — the hooks here, or the post-commit script.
 */
export function startAutoSync(opts: { self: AxmeSelf; commonDir: string; cwd: string; env: NodeJS.ProcessEnv; reason: string }): boolean {
  if (lockFileHeld(lockPath(opts.commonDir))) return false;
  return (
    startDetachedAxme(opts.self, ['sync', '--auto', opts.reason], { cwd: opts.cwd, env: opts.env, log: join(opts.commonDir, 'axme', 'auto-sync.log') }) !== null
  );
}

/**
 * One background run (`axme sync --auto <reason>`): `sync`, bounded by AUTO_SYNC_TIMEOUT_MS, its
 * outcome recorded whichever way it goes (autoSyncProblem tells a failure next time). One at a
 * time: the run claims `auto-sync.pid` (an exclusive lock file, session/claim-lock.ts)
 * while it works, and another run finding it held by a live process does nothing (null). Past the
 * bound the failure is recorded, the lock released and `onTimeout` ends the process (a hung
 * network would hold it).
 */
export async function runAutoSync<R extends { remote: string; text: string }>(
  commonDir: string,
  why: string,
  now: () => Date,
  sync: () => Promise<R>,
  onTimeout: () => void,
): Promise<R | null> {
  const lock = lockPath(commonDir);
  mkdirSync(dirname(lock), { recursive: true });
  // a run past its bound has ended itself: a lock twice as old is one nobody holds
  const release = claimLockFile(lock, new Date(), 2 * AUTO_SYNC_TIMEOUT_MS);
  if (!release) return null;
  const reason = /^[a-z-]{1,40}$/.test(why) ? why : 'a background run';
  const done = (last: Omit<NonNullable<AutoSyncRecord['last']>, 'at' | 'reason'>) => recordAutoSyncRun(commonDir, { at: now().toISOString(), reason, ...last });
  const timer = setTimeout(() => {
    done({ ok: false, summary: 'timed out', error: `no answer within ${AUTO_SYNC_TIMEOUT_MS / 1000} s (a slow or unreachable remote?)` });
    release();
    onTimeout();
  }, AUTO_SYNC_TIMEOUT_MS);
  try {
    const r = await sync();
    done({ ok: true, remote: r.remote, summary: r.text.split('\n')[0] ?? 'synced' });
    return r;
  } catch (err) {
    const remote = (err as { data?: { remote?: unknown } }).data?.remote;
    done({ ok: false, summary: 'failed', error: (err as Error).message.split('\n')[0], ...(typeof remote === 'string' ? { remote } : {}) });
    throw err;
  } finally {
    clearTimeout(timer);
    release();
  }
}

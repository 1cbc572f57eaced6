import type { AxmeSelf } from '../../model/axme-self.ts';
import type { StoreConfig } from '../../model/config.ts';
import { withDeadline } from '../../model/deadline.ts';
import { AxmeError } from '../../model/errors.ts';
import { wroteHandoffHere } from '../../session/ran-here.ts';
import { auditsDue, auditsEnabled, startAuditWorker } from '../audit/audit-worker.ts';
import { sweepOrphans } from '../close/sweep-orphans.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { readState } from '../core/state.ts';
import { autoSyncMode, autoSyncProblem, rememberAutoSyncMode } from '../sync/auto-sync.ts';
import { assembleContext } from '../views/context.ts';
import { startIndexAhead } from '../views/search/index-worker.ts';
import { workFocus } from '../views/work-focus.ts';
import { startSessionSync } from './session-sync.ts';

/**
 * What the start of a session spends on recovering orphans before it answers: a recovery is a
 * few hundred milliseconds, but seconds on a loaded machine, and the handoff it writes is what
 * the new session most needs; the session-start hook's own deadline (25 s) leaves room for the rest.
 */
export const RECOVERY_BUDGET_MS = 12_000;

/** What a session's start needs besides the store: the page's budget, where the session works, and the axme that starts the background work. */
export interface SessionStartOptions {
  /** The most characters the context page may take. */
  budget: number;
  /** The harness's session, named at the end of the text so the agent can close it. */
  sessionId?: string | undefined;
  /** The working tree the session works in (null for a bare repository or the workspace store). */
  worktree: string | null;
  /** The folder the session started in: the background workers start there when there is no working tree. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The axme that runs the background sync, audits and index; null starts none of them. */
  self: AxmeSelf | null;
}

/**
 * What a session's start does with the store (docs/sessions.md): earlier sessions that ended
 * without a close are recovered first, within RECOVERY_BUDGET_MS (a recovery cut short commits
 * nothing; the MCP server or the next start does it), so that their handoff is in the context;
 * sync.auto's last failure is told and a background sync started; due audits and the tip's search
 * index start in detached workers; then the compact context, focused by the branch and the files
 * changed, with a line per problem met. Returns the text and the keys of the items it listed.
 */
export async function sessionStartContext(kb: KnowledgeBase, opts: SessionStartOptions): Promise<{ text: string; listed: string[] }> {
  const dir = opts.worktree ?? opts.cwd;
  const notes: string[] = [];
  // an orphan another process is recovering (an MCP server starting beside this hook) is waited for: its handoff belongs here
  const sweep = await withDeadline(
    sweepOrphans(kb, { waitUntil: Date.now() + RECOVERY_BUDGET_MS }).catch((err: unknown) => {
      // the context matters more than the recovery: say so and go on
      if (!(err instanceof AxmeError && err.code === 'NOT_INITIALIZED'))
        notes.push(`(axme could not recover earlier sessions: ${(err as Error).message}; run \`axme session recover --all\`)`);
      return null;
    }),
    RECOVERY_BUDGET_MS,
  );
  if (sweep === undefined) notes.push('(axme is still recovering earlier sessions that ended without a close: `axme session list --orphans`)');
  notes.push(...syncAtStart(opts.self, kb, dir, opts.env, await readState(kb)));
  await startDueAudits(opts.self, kb, opts.env, dir, opts.sessionId);
  // never throws: the index is a speed-up, a prompt's recall builds it otherwise
  if (opts.self) await startIndexAhead(kb, { self: opts.self, cwd: dir, env: opts.env });
  let listed: string[] = [];
  // the handoff it starts from is one this clone wrote, as it wrote it; a teammate's newer one is named beside it
  const page = await assembleContext(kb, {
    budget: opts.budget,
    focus: await workFocus(kb, opts.worktree),
    ownHandoff: wroteHandoffHere(kb.repo.commonDir),
    onListed: (keys) => (listed = keys),
  });
  const session = opts.sessionId ? `\n\n(axme session ${opts.sessionId})` : '';
  return { text: `${page.text}${notes.length ? `\n\n${notes.join('\n')}` : ''}${session}`, listed };
}

/**
 * sync.auto at a session start (knowledge/sync/auto-sync.ts): the last background sync's failure,
 * told once in this context, and a new one started in the background when the mode says so.
 */
function syncAtStart(self: AxmeSelf | null, kb: KnowledgeBase, cwd: string, env: NodeJS.ProcessEnv, state: { config: StoreConfig | null }): string[] {
  const commonDir = kb.repo.commonDir;
  const problem = autoSyncProblem(commonDir);
  rememberAutoSyncMode(commonDir, autoSyncMode(state.config, commonDir, env));
  startSessionSync(self, commonDir, cwd, env, 'session-start');
  return problem ? [problem] : [];
}

/**
 * The post-session auditor at a session start (docs/auditor.md): ended sessions whose transcript
 * has bytes no audit read (orphans, resumed sessions) and failed audits due a retry, each in a
 * detached worker. Never fails the start.
 */
async function startDueAudits(self: AxmeSelf | null, kb: KnowledgeBase, env: NodeJS.ProcessEnv, cwd: string, current: string | undefined): Promise<void> {
  try {
    if (!self || !(await auditsEnabled(kb, env)).on) return;
    for (const d of auditsDue(kb.repo.commonDir, current)) startAuditWorker({ self, commonDir: kb.repo.commonDir, cwd, env }, d.session, d.transcript);
  } catch {
    // the audit is a nicety next to the context: the next start tries again
  }
}

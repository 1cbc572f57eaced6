import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditsDir } from '../knowledge/audit/audit-state.ts';
import { auditsDue, auditsEnabled, startAuditWorker } from '../knowledge/audit/audit-worker.ts';
import { checkpointSession } from '../knowledge/close/checkpoint-session.ts';
import { sweepOrphans } from '../knowledge/close/sweep-orphans.ts';
import { closeKnowledgeBase, type KnowledgeBase, openKnowledgeBase } from '../knowledge/core/kb.ts';
import type { RepoLocation } from '../knowledge/core/location.ts';
import { readState } from '../knowledge/core/state.ts';
import { readStorePolicy } from '../knowledge/rules/store-policy.ts';
import { autoSyncMode, autoSyncProblem, readAutoSync, rememberAutoSyncMode, startAutoSync } from '../knowledge/sync/auto-sync.ts';
import { assembleContext } from '../knowledge/views/context.ts';
import { anchoredEntries, recallForPrompt } from '../knowledge/views/recall.ts';
import { startIndexAhead } from '../knowledge/views/search/index-worker.ts';
import { workFocus } from '../knowledge/views/work-focus.ts';
import type { AxmeSelf } from '../model/axme-self.ts';
import type { StoreConfig } from '../model/config.ts';
import { AxmeError } from '../model/errors.ts';
import { ranHere } from '../session/sessions.ts';

/**
 * What a prompt recalls (issue 32): the text to inject and the items it holds; nothing where
 * there is no store. `given` holds the keys the session was given already (session/given.ts).
 */
export async function promptRecall(loc: RepoLocation, env: NodeJS.ProcessEnv, opts: { prompt: string; cwd: string; given: ReadonlySet<string> }) {
  try {
    return await withStore(loc, env, opts.cwd, (kb) => recallForPrompt(kb, opts.prompt, opts.given));
  } catch (err) {
    if (err instanceof AxmeError && err.code === 'NOT_INITIALIZED') return { text: '', shown: [] };
    throw err;
  }
}

/** The anchored items of the store at `loc` for the pre-edit recall, its index rewritten (none without a store). */
export async function anchoredItems(loc: RepoLocation, env: NodeJS.ProcessEnv, cwd: string) {
  try {
    return await withStore(loc, env, cwd, (kb) => anchoredEntries(kb, loc));
  } catch (err) {
    if (err instanceof AxmeError && err.code === 'NOT_INITIALIZED') return [];
    throw err;
  }
}

/** YAML for the hook's readers of machine-local settings (the sandbox's): its parser lives in this half. */
export { parseYamlText as parseYaml } from '../model/yaml-text.ts';

/** The checkpoint of `session` before its context is compacted (knowledge/close/checkpoint-session.ts); null without a store. */
export async function compactionCheckpoint(loc: RepoLocation, env: NodeJS.ProcessEnv, cwd: string, session: string): Promise<string | null> {
  try {
    return await withStore(loc, env, cwd, (kb) => checkpointSession(kb, { session }));
  } catch (err) {
    if (err instanceof AxmeError && err.code === 'NOT_INITIALIZED') return null;
    throw err;
  }
}

/** PR state through GitHub (Octokit loaded only when a `#!axme pr=N` marker asks). */
export { lookupPr } from '../github/lookup-pr.ts';
export { teamServerNote } from '../setup/team-server-note.ts';

/**
 * The heavy half of the hooks, loaded only when needed: compiling the policy after the memory
 * tip moved, and the session-start context. Built as its own chunk (dist/hook-store-work.js).
 */

/**
 * Opens the store a hook works on (the workspace, if any, merged in). A hook is a short-lived
 * process: the git CLI backend starts fastest. Without a known working tree (a bare repository,
 * the workspace store, GIT_DIR alone) it opens from the hook's folder: git finds the repository by
 * GIT_DIR or from there, and the workspace is searched from there.
 */
async function withStore<T>(loc: RepoLocation | null, env: NodeJS.ProcessEnv, cwd: string, fn: (kb: KnowledgeBase) => Promise<T>): Promise<T> {
  const kb = await openKnowledgeBase({ cwd: loc?.worktree ?? cwd, env, backend: 'cli', workspace: true });
  try {
    return await fn(kb);
  } finally {
    await closeKnowledgeBase(kb);
  }
}

/** The policy of the repository at `loc` merged with its workspace's; outside any repository, the workspace store's at or above `cwd`. */
export function readRepositoryPolicy(loc: RepoLocation | null, env: NodeJS.ProcessEnv, cwd: string) {
  return withStore(loc, env, cwd, readStorePolicy);
}

/**
 * The compact context for SessionStart; a short invitation to `axme init` where there is no store.
 * Earlier sessions that ended without a close are recovered first, within RECOVERY_BUDGET_MS (a recovery
 * cut short by the deadline commits nothing; the MCP server or the next start does it), so their
 * handoff is in this context.
 */
export async function sessionContext(
  loc: RepoLocation,
  env: NodeJS.ProcessEnv,
  opts: { budget: number; sessionId?: string | undefined; cwd: string; self: AxmeSelf | null },
): Promise<{ text: string; listed: string[] }> {
  try {
    return await withStore(loc, env, opts.cwd, async (kb) => {
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
      notes.push(...sessionStartSync(opts.self, kb, loc, env, opts.cwd, await readState(kb)));
      await startDueAudits(opts.self, kb, env, loc.worktree ?? opts.cwd, opts.sessionId);
      await startTipIndex(opts.self, kb, env, loc.worktree ?? opts.cwd);
      // the branch and the files changed pick the few items listed as relevant
      let listed: string[] = [];
      // the handoff it starts from is of a session this clone ran; a teammate's newer one is named beside it
      const page = await assembleContext(kb, {
        budget: opts.budget,
        focus: await workFocus(kb, loc.worktree),
        ranHere: ranHere(kb.repo.commonDir),
        onListed: (keys) => (listed = keys),
      });
      const session = opts.sessionId ? `\n\n(axme session ${opts.sessionId})` : '';
      return { text: `${page.text}${notes.length ? `\n\n${notes.join('\n')}` : ''}${session}`, listed };
    });
  } catch (err) {
    if (err instanceof AxmeError && err.code === 'NOT_INITIALIZED') {
      return {
        text: 'axme: this repository has no project knowledge yet (no refs/memory/main). If the user wants decisions, memories and safety rules kept across sessions, suggest running `axme init`. The built-in safety rules are enforced meanwhile.',
        listed: [],
      };
    }
    throw err;
  }
}

/**
 * sync.auto at a session start (knowledge/sync/auto-sync.ts): the last background sync's failure,
 * told once in this context, and a new one started in the background when the mode says so.
 */
function sessionStartSync(
  self: AxmeSelf | null,
  kb: KnowledgeBase,
  loc: RepoLocation | null,
  env: NodeJS.ProcessEnv,
  cwd: string,
  state: { config: StoreConfig | null },
): string[] {
  const commonDir = kb.repo.commonDir;
  const problem = autoSyncProblem(commonDir);
  rememberAutoSyncMode(commonDir, autoSyncMode(state.config, commonDir, env));
  startSessionSync(self, commonDir, loc?.worktree ?? cwd, env, 'session-start');
  return problem ? [problem] : [];
}

/** Starts the background sync of a session's start or end when the mode its start found says so (`self`, the hook's axme, runs it). */
export function startSessionSync(self: AxmeSelf | null, commonDir: string, cwd: string, env: NodeJS.ProcessEnv, reason: 'session-start' | 'session-end'): void {
  const mode = readAutoSync(commonDir)?.mode;
  if (mode !== undefined && mode !== 'off' && self) startAutoSync({ self, commonDir, cwd, env, reason });
}

/**
 * The tip's search index made in the background when a large store's tip has none
 * (knowledge/views/search/index-worker.ts), so that this session's prompts find it on disk rather
 * than building it within their own deadline. Never fails the start.
 */
async function startTipIndex(self: AxmeSelf | null, kb: KnowledgeBase, env: NodeJS.ProcessEnv, cwd: string): Promise<void> {
  // never throws: the index is a speed-up, a prompt's recall builds it otherwise
  if (self) await startIndexAhead(kb, { self, cwd, env });
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

/**
 * The post-session auditor at a session's end: a detached worker audits its transcript (full, or
 * verify-only when the agent closed the session). Returns a one-line note when audits are off for
 * lack of a model, the first time only (the hook prints it); never throws.
 */
export async function startSessionAudit(
  self: AxmeSelf | null,
  loc: RepoLocation,
  env: NodeJS.ProcessEnv,
  cwd: string,
  session: string,
  transcript: string | null,
): Promise<string | null> {
  if (!transcript || !self) return null;
  try {
    return await withStore(loc, env, cwd, async (kb) => {
      const on = await auditsEnabled(kb, env);
      if (!on.on) return on.chosen ? null : noModelNoteOnce(kb.repo.commonDir, on.why);
      startAuditWorker({ self, commonDir: kb.repo.commonDir, cwd: loc.worktree ?? cwd, env }, session, transcript);
      return null;
    });
  } catch {
    return null;
  }
}

/** "No model for the auditor" once per clone (a marker file), so it is said without nagging. */
function noModelNoteOnce(commonDir: string, why: string): string | null {
  try {
    const marker = join(auditsDir(commonDir), 'no-model-noted');
    if (existsSync(marker)) return null;
    writeFileSync(marker, `${new Date().toISOString()} ${why}\n`);
  } catch {
    return null;
  }
  return `axme: sessions are not audited after they end (${why}); to have what an agent forgot to save found and stored, install Claude Code or set ANTHROPIC_API_KEY / OPENAI_BASE_URL (docs/auditor.md). Said once.`;
}

/**
 * What the session-start hook spends on recovering orphans before it answers: a recovery is a
 * few hundred milliseconds, but seconds on a loaded machine, and the handoff it writes is what
 * the new session most needs; the hook's own deadline (25 s) leaves room for the rest.
 */
const RECOVERY_BUDGET_MS = 12_000;

/** The promise's value, or undefined when it takes longer than `ms` (this process stops soon after: it is not awaited). */
function withDeadline<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]).finally(() => clearTimeout(timer));
}

/** What the session-end hook spends on Claude Code's auto memory before it gives up. */
const AUTO_MEMORY_BUDGET_MS = 5_000;

/**
 * Claude Code's auto memory at a session's end (docs/auto-memory.md), when axme.yaml says
 * `autoMemory: sync`: what Claude wrote comes in as memories (one commit), then the knowledge
 * goes out into MEMORY.md and its topic files. The folder comes from `transcriptPath` when the
 * hook has it. Bounded by a deadline and never throws: returns a one-line problem, or null.
 */
export async function autoMemoryAtSessionEnd(loc: RepoLocation, env: NodeJS.ProcessEnv, cwd: string, transcriptPath: string | null): Promise<string | null> {
  try {
    const r = await withDeadline(
      withStore(loc, env, cwd, async (kb) => (await import('../knowledge/auto-memory/sync-auto-memory.ts')).syncAutoMemory(kb, { cwd, env, transcriptPath })),
      AUTO_MEMORY_BUDGET_MS,
    );
    return r === undefined ? 'axme: the auto memory sync took too long and was cut short; run `axme import auto-memory` and `axme export auto-memory`' : r;
  } catch (err) {
    if (err instanceof AxmeError && err.code === 'NOT_INITIALIZED') return null;
    return `axme: the auto memory sync failed: ${String((err as Error)?.message ?? err).split('\n')[0]}; run \`axme import auto-memory\` and \`axme export auto-memory\` to see why`;
  }
}

/**
 * The folder git runs the hooks of the repository around `dir` from (`git rev-parse --git-path
 * hooks`, absolute), as git reads its settings without the overrides a client put in `env`
 * (`GIT_CONFIG_COUNT`, `GIT_CONFIG_KEY_<n>`, …); null outside a repository. For what the config
 * reader of git-hooks-path.ts does not follow.
 */
export async function gitHooksPath(dir: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  const clean = Object.fromEntries(Object.entries(env).filter(([k]) => !/^GIT_CONFIG_(COUNT|KEY_\d+|VALUE_\d+|PARAMETERS)$/.test(k)));
  const r = spawnSync('git', ['rev-parse', '--path-format=absolute', '--git-path', 'hooks'], { cwd: dir, env: clean, encoding: 'utf8', timeout: 5_000 });
  const path = r.status === 0 ? r.stdout.trim() : '';
  return path || null;
}

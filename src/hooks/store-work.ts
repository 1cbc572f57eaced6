import { spawnSync } from 'node:child_process';
import { checkpointSession } from '../knowledge/close/checkpoint-session.ts';
import { closeKnowledgeBase, type KnowledgeBase, openKnowledgeBase } from '../knowledge/core/kb.ts';
import type { RepoLocation } from '../knowledge/core/location.ts';
import { startSessionEndAudit } from '../knowledge/lifecycle/session-end.ts';
import { sessionStartContext } from '../knowledge/lifecycle/session-start.ts';
import { readStorePolicy } from '../knowledge/rules/store-policy.ts';
import { anchoredEntries, recallForPrompt } from '../knowledge/views/recall.ts';
import type { AxmeSelf } from '../model/axme-self.ts';
import { withDeadline } from '../model/deadline.ts';
import { AxmeError } from '../model/errors.ts';

// The heavy half of the hooks, loaded only when needed: each opens the store, calls the core
// (knowledge/) and says what a hook says where there is none. Built as its own chunk
// (dist/hook-store-work.js).

/**
 * What a prompt recalls (issue 32): the text to inject and the items it holds; nothing where
 * there is no store. `given` holds the keys the session was given already (session/given.ts).
 */
export function promptRecall(loc: RepoLocation, env: NodeJS.ProcessEnv, opts: { prompt: string; cwd: string; given: ReadonlySet<string> }) {
  return withStoreOr({ text: '', shown: [] }, loc, env, opts.cwd, (kb) => recallForPrompt(kb, opts.prompt, opts.given));
}

/** The anchored items of the store at `loc` for the pre-edit recall, its index rewritten (none without a store). */
export function anchoredItems(loc: RepoLocation, env: NodeJS.ProcessEnv, cwd: string) {
  return withStoreOr([], loc, env, cwd, (kb) => anchoredEntries(kb, loc));
}

/** YAML for the hook's readers of machine-local settings (the sandbox's): its parser lives in this half. */
export { parseYamlText as parseYaml } from '../model/yaml-text.ts';

/** The checkpoint of `session` before its context is compacted (knowledge/close/checkpoint-session.ts); null without a store. */
export function compactionCheckpoint(loc: RepoLocation, env: NodeJS.ProcessEnv, cwd: string, session: string): Promise<string | null> {
  return withStoreOr(null, loc, env, cwd, (kb) => checkpointSession(kb, { session }));
}

/** PR state through GitHub (Octokit loaded only when a `#!axme pr=N` marker asks). */
export { lookupPr } from '../github/lookup-pr.ts';
export { teamServerNote } from '../setup/team-server-note.ts';

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

/** As withStore, with `fallback` where there is no store yet (NOT_INITIALIZED): a hook then says nothing of it. */
async function withStoreOr<T, F>(
  fallback: F,
  loc: RepoLocation | null,
  env: NodeJS.ProcessEnv,
  cwd: string,
  fn: (kb: KnowledgeBase) => Promise<T>,
): Promise<T | F> {
  try {
    return await withStore(loc, env, cwd, fn);
  } catch (err) {
    if (err instanceof AxmeError && err.code === 'NOT_INITIALIZED') return fallback;
    throw err;
  }
}

/** The policy of the repository at `loc` merged with its workspace's; outside any repository, the workspace store's at or above `cwd`. */
export function readRepositoryPolicy(loc: RepoLocation | null, env: NodeJS.ProcessEnv, cwd: string) {
  return withStore(loc, env, cwd, readStorePolicy);
}

/**
 * The compact context for SessionStart (knowledge/lifecycle/session-start.ts: orphans recovered,
 * background work started, the page); a short invitation to `axme init` where there is no store.
 */
export async function sessionContext(
  loc: RepoLocation,
  env: NodeJS.ProcessEnv,
  opts: { budget: number; sessionId?: string | undefined; cwd: string; self: AxmeSelf | null },
): Promise<{ text: string; listed: string[] }> {
  return withStoreOr(NO_STORE_CONTEXT, loc, env, opts.cwd, (kb) => sessionStartContext(kb, { ...opts, worktree: loc.worktree, env }));
}

/** What SessionStart says where there is no store. */
const NO_STORE_CONTEXT = {
  text: 'axme: this repository has no project knowledge yet (no refs/memory/main). If the user wants decisions, memories and safety rules kept across sessions, suggest running `axme init`. The built-in safety rules are enforced meanwhile.',
  listed: [],
};

export { startSessionSync } from '../knowledge/lifecycle/session-sync.ts';

/**
 * The post-session auditor at a session's end (knowledge/lifecycle/session-end.ts). Returns a
 * one-line note when audits are off for lack of a model, the first time only (the hook prints
 * it); never throws.
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
    return await withStore(loc, env, cwd, (kb) => startSessionEndAudit(kb, { self, cwd: loc.worktree ?? cwd, env, session, transcript }));
  } catch {
    return null;
  }
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

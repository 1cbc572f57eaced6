/**
 * The core called directly, the way a CLI command calls it, but in-process: each call opens a
 * knowledge base on the folder as `axme <command>` does (src/cli/io.ts withKb: workspace lookup,
 * the default backend, the clock AXME_NOW sets or the system's, the actor and session the
 * environment names, or the session whose hooks this process ran), runs the knowledge function
 * and closes it. Results are what the command prints with --json (checked the same way), errors
 * are the AxmeError the command reports (its code decides the exit status: USAGE_CODES -> 2,
 * others 1). Tests of core behaviour use these; the surfaces (exit codes, text on stdout/stderr,
 * hooks, MCP) keep their own end-to-end tests through the built binary.
 */
import assert from 'node:assert/strict';
import { actorFrom, clockFrom } from '../src/cli/io.ts';
import { checkStore, type FsckResult } from '../src/knowledge/admin/check-store.ts';
import { closeKnowledgeBase, type KnowledgeBase, openKnowledgeBase } from '../src/knowledge/core/kb.ts';
import { addBacklogItem } from '../src/knowledge/items/backlog/add-backlog-item.ts';
import { updateBacklogItem } from '../src/knowledge/items/backlog/update-backlog-item.ts';
import { addDecision } from '../src/knowledge/items/decision/add-decision.ts';
import { revokeDecision } from '../src/knowledge/items/decision/revoke-decision.ts';
import { supersedeDecision } from '../src/knowledge/items/decision/supersede-decision.ts';
import { listItems } from '../src/knowledge/items/list-items.ts';
import { addMemory } from '../src/knowledge/items/memory/add-memory.ts';
import { answerQuestion } from '../src/knowledge/items/question/answer-question.ts';
import { askQuestion } from '../src/knowledge/items/question/ask-question.ts';
import { showItem } from '../src/knowledge/items/show-item.ts';
import { showSafety } from '../src/knowledge/rules/show-safety.ts';
import { updateSafety } from '../src/knowledge/rules/update-safety.ts';
import { type SyncResult, syncStore } from '../src/knowledge/sync/sync-store.ts';
import type { Actor } from '../src/model/common.ts';
import { AxmeError, type ErrorCode, USAGE_CODES } from '../src/model/errors.ts';
import type { KindName } from '../src/model/kind.ts';
import type { AnyOperation } from '../src/operations/operation.ts';
import { sessionOfProcess } from '../src/session/current.ts';
import { type InitSteps, initRepository, type RepositoryInit } from '../src/setup/init.ts';
import { CLI, cleanEnv } from './helpers.ts';

export interface CoreOptions {
  env?: NodeJS.ProcessEnv;
  actor?: Actor;
  session?: string;
  now?: () => Date;
}

/** Opens a knowledge base on `dir` as a CLI command does, runs `fn`, always closes it. */
export async function withCore<T>(dir: string, fn: (kb: KnowledgeBase) => Promise<T>, opts: CoreOptions = {}): Promise<T> {
  const env = cleanEnv(opts.env);
  const session = opts.session ?? (env.AXME_SESSION || undefined);
  const kb = await openKnowledgeBase({ cwd: dir, env, now: opts.now ?? clockFrom(env), actor: opts.actor ?? actorFrom(env), session, workspace: true });
  if (!session) {
    // as a command the test process starts: inside a session the test opened through the hooks, the agent's
    const s = sessionOfProcess(kb.repo.commonDir);
    if (s) {
      kb.session = s.id;
      if (!opts.actor && !env.AXME_ACTOR) kb.actor = 'agent';
    }
  }
  try {
    return await fn(kb);
  } finally {
    await closeKnowledgeBase(kb);
  }
}

/** An operation's `run` on `dir`, its result as the CLI's --json prints it (and the MCP tool's structured content). */
export async function runOp(dir: string, op: AnyOperation, input: Record<string, unknown>, opts: CoreOptions & { allowSecret?: boolean } = {}): Promise<any> {
  return withCore(dir, async (kb) => roundTrip(op.json(await op.run(kb, input as never, { allowSecret: !!opts.allowSecret }))), opts);
}

/** An operation's `run` on `dir`, its result as the CLI prints it without --json. */
export async function runOpText(
  dir: string,
  op: AnyOperation,
  input: Record<string, unknown>,
  opts: CoreOptions & { allowSecret?: boolean } = {},
): Promise<string> {
  return withCore(dir, async (kb) => op.text(await op.run(kb, input as never, { allowSecret: !!opts.allowSecret })), opts);
}

/** `axme init --no-claude --no-git-hooks --no-scan` (and `--no-fetch-config` with fetchConfig: false): the store, the remotes' refspecs. */
export async function initCore(dir: string, steps: Partial<InitSteps> = {}, opts: CoreOptions = {}): Promise<RepositoryInit> {
  const env = cleanEnv(opts.env);
  return withCore(
    dir,
    (kb) =>
      initRepository(
        kb,
        { claude: false, gitHooks: false, scan: false, fetchConfig: true, ...steps },
        { cwd: dir, env, self: { execPath: process.execPath, script: CLI }, note: () => {} },
      ),
    opts,
  );
}

/** `axme sync [remote] --json`. */
export async function syncCore(dir: string, o: { remote?: string; rounds?: number } = {}, opts: CoreOptions = {}): Promise<SyncResult> {
  return withCore(dir, (kb) => syncStore(kb, { remote: o.remote, maxRounds: o.rounds, env: cleanEnv(opts.env) }), opts);
}

/** `axme <kind> list --json` (`all`, `status`, `at` as the flags). */
export async function listCore(dir: string, kind: KindName, o: { all?: boolean; status?: string[]; at?: string } = {}, opts: CoreOptions = {}): Promise<any[]> {
  return withCore(dir, async (kb) => roundTrip((await listItems(kb, { kind, ...o })).items), opts);
}

/** `axme <kind> show <ref> --json`. */
export async function showCore(dir: string, kind: KindName, ref: string, o: { at?: string } = {}, opts: CoreOptions = {}): Promise<any> {
  return withCore(
    dir,
    async (kb) => {
      const r = await showItem(kb, { kind, ref, at: o.at });
      return roundTrip({ ...r.item, path: r.path, location: r.location, ...(r.store ? { store: r.store } : {}) });
    },
    opts,
  );
}

/** `axme fsck --json` (the command exits 1 unless `ok`). */
export async function fsckCore(dir: string, o: { at?: string } = {}, opts: CoreOptions = {}): Promise<FsckResult> {
  return withCore(dir, (kb) => checkStore(kb, o), opts);
}

type In<F> = F extends (kb: KnowledgeBase, input: infer I, ...rest: never[]) => unknown ? I : never;

/**
 * The writes and reads of one folder, each a CLI command's core (`decision add`, `sync --json`, ...):
 * a fresh knowledge base per call, as separate command runs have.
 */
export function coreAt(dir: string, opts: CoreOptions = {}) {
  const w = <T>(fn: (kb: KnowledgeBase) => Promise<T>) => withCore(dir, fn, opts);
  return {
    dir,
    init: (steps: Partial<InitSteps> = {}) => initCore(dir, steps, opts),
    addDecision: (input: In<typeof addDecision>) => w((kb) => addDecision(kb, input)),
    supersede: (input: In<typeof supersedeDecision>) => w((kb) => supersedeDecision(kb, input)),
    revoke: (id: string, reason: string) => w((kb) => revokeDecision(kb, { id, reason })),
    addMemory: (input: In<typeof addMemory>) => w((kb) => addMemory(kb, input)),
    addBacklog: (input: In<typeof addBacklogItem>) => w((kb) => addBacklogItem(kb, input)),
    updateBacklog: (input: In<typeof updateBacklogItem>) => w((kb) => updateBacklogItem(kb, input)),
    ask: (question: string) => w((kb) => askQuestion(kb, { question })),
    answer: (question_id: string, answer: string) => w((kb) => answerQuestion(kb, { question_id, answer })),
    safety: (action: 'add' | 'remove', rule_type: In<typeof updateSafety>['rule_type'], value: string) =>
      w((kb) => updateSafety(kb, { action, rule_type, value })),
    /** `axme safety show --json` */
    rules: async (): Promise<any> => roundTrip((await w((kb) => showSafety(kb))).rules),
    list: (kind: KindName, o: { all?: boolean; status?: string[]; at?: string } = {}) => listCore(dir, kind, o, opts),
    show: (kind: KindName, ref: string, o: { at?: string } = {}) => showCore(dir, kind, ref, o, opts),
    fsck: (o: { at?: string } = {}) => fsckCore(dir, o, opts),
    sync: (o: { remote?: string; rounds?: number } = {}) => syncCore(dir, o, opts),
  };
}

/** What the CLI would exit with for this error: 2 for a usage or configuration error, 1 otherwise. */
export function exitCodeOf(err: unknown): number {
  return err instanceof AxmeError && USAGE_CODES.has(err.code) ? 2 : 1;
}

/** Asserts that `p` fails with an AxmeError of `code` whose message matches `message`; returns it. */
export async function rejectsWith(p: Promise<unknown>, code: ErrorCode, message?: RegExp): Promise<AxmeError> {
  let caught: unknown;
  try {
    await p;
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof AxmeError, `expected an AxmeError ${code}, got ${caught === undefined ? 'success' : String((caught as Error)?.stack ?? caught)}`);
  assert.equal(caught.code, code, caught.message);
  if (message) assert.match(caught.message, message);
  return caught;
}

/** The value as the CLI prints it with --json (dates as strings, undefined fields gone). */
function roundTrip<T>(v: T): any {
  return JSON.parse(JSON.stringify(v));
}

/** `axme doctor --json` on `dir`, in-process: the report as the command prints it (it exits 1 unless `ok`). */
export async function doctorJson(dir: string, env: NodeJS.ProcessEnv = {}): Promise<any> {
  const { doctor } = await import('../src/setup/doctor.ts');
  return roundTrip(await doctor({ cwd: dir, env: cleanEnv(env) }));
}

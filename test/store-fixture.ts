/**
 * One fixture for the store a test works on: a temp repository (an identity set, one empty commit
 * unless `commit: false`), initialised in-process as `axme init --no-claude --no-git-hooks
 * --no-scan` unless `init: false`, and removed afterwards. `makeStore` makes it now (the caller
 * cleans up); `useStore` in a `describe` makes it before the suite's tests and removes it after.
 * The handle carries the core of every command on that folder (test/core.ts `coreAt`) and
 * `cli(op, input)`, an operation run and printed as its CLI command prints it, in-process.
 */
import { after, before } from 'node:test';
import { printResult } from '../src/cli/operation-command.ts';
import type { AnyOperation, CliPrinter } from '../src/operations/operation.ts';
import type { InitSteps } from '../src/setup/init.ts';
import { type CoreOptions, coreAt, withCore } from './core.ts';
import { cleanEnv, tempRepo } from './helpers.ts';

export interface StoreOptions extends CoreOptions {
  /** initialise the store (default true); the steps of `axme init` to run besides the store (all off by default) */
  init?: boolean | Partial<InitSteps>;
  /** one empty commit on main (default true) */
  commit?: boolean;
}

/** What a command prints, run in-process: stdout, stderr, the exit code it returns (errors are thrown, as AxmeError). */
export interface Printed {
  code: number;
  stdout: string;
  stderr: string;
}

export type TestStore = ReturnType<typeof coreAt> & {
  /** `axme <op's command> [--json]` on this folder, in-process: the operation's run, printed as the CLI prints it */
  cli: (op: AnyOperation, input?: Record<string, unknown>, o?: { json?: boolean; allowSecret?: boolean } & CoreOptions) => Promise<Printed>;
  /** removes the folder (retried: a derived cache may still be written in the background) */
  cleanup: () => void;
};

/** A store made now; the caller calls `cleanup` (in a `finally`, or `t.after`). */
export async function makeStore(opts: StoreOptions = {}): Promise<TestStore> {
  const { init = true, commit = true, ...core } = opts;
  const repo = tempRepo({ commit });
  try {
    const at = coreAt(repo.dir, core);
    if (init) await at.init(init === true ? {} : init);
    return { ...at, cli: (op, input = {}, o = {}) => cliRun(repo.dir, op, input, { ...core, ...o }), cleanup: repo.cleanup };
  } catch (err) {
    repo.cleanup();
    throw err;
  }
}

/**
 * A store for the tests of the enclosing `describe`: made in its `before`, removed in its `after`.
 * The handle is filled in by `before`: read its fields inside tests and hooks, not in the describe body.
 */
export function useStore(opts: StoreOptions = {}): TestStore {
  const handle = {} as TestStore;
  before(async () => {
    Object.assign(handle, await makeStore(opts));
  });
  after(() => handle.cleanup?.());
  return handle;
}

/**
 * An operation run on `dir` in-process and printed as its CLI command prints it
 * (`printResult`, src/cli/operation-command.ts). Errors are thrown as the core throws
 * them (the CLI maps them to exit codes: test/core.ts `exitCodeOf`).
 */
export async function cliRun(
  dir: string,
  op: AnyOperation,
  input: Record<string, unknown>,
  o: { json?: boolean; allowSecret?: boolean } & CoreOptions = {},
): Promise<Printed> {
  if (op.folder || !op.cli) throw new Error(`${op.id}: not a store operation with a CLI command`);
  const env = cleanEnv(o.env);
  let stdout = '';
  let stderr = '';
  // each returns nothing, as the CLI's own: a print hook that returns one's value returns an exit code
  const out = (text: string): void => {
    stdout += text.endsWith('\n') || text === '' ? text : `${text}\n`;
  };
  const printer: CliPrinter = {
    json: !!o.json,
    args: { ...input, json: !!o.json },
    tty: false,
    env,
    out,
    note: (text) => {
      stderr += `${text}\n`;
    },
    printJson: (value) => {
      stdout += `${JSON.stringify(value, null, 2)}\n`;
    },
  };
  const code = await withCore(
    dir,
    async (kb) => {
      const r = await op.run(kb, input as never, { allowSecret: !!o.allowSecret, cwd: dir, env });
      return printResult(op, r, printer);
    },
    o,
  );
  return { code, stdout, stderr };
}

/** `axme <op's command> --json` on `dir`, in-process: what it prints, parsed. */
export async function cliJson(
  dir: string,
  op: AnyOperation,
  input: Record<string, unknown> = {},
  o: { allowSecret?: boolean } & CoreOptions = {},
): Promise<any> {
  return JSON.parse((await cliRun(dir, op, input, { ...o, json: true })).stdout);
}

/** `axme <op's command>` on `dir`, in-process: its stdout (a failure is thrown). */
export async function cliText(
  dir: string,
  op: AnyOperation,
  input: Record<string, unknown> = {},
  o: { allowSecret?: boolean } & CoreOptions = {},
): Promise<string> {
  return (await cliRun(dir, op, input, o)).stdout;
}

/**
 * What the security tests share: a command run with a bound far above the time it needs (a hang
 * is a failure, never a wait for an outcome), and a store edited by plain git the way a teammate
 * with push access, or a hand edit, can edit it.
 */
import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { CLI, cleanEnv, git, TS_NODE_ARGS } from '../helpers.ts';
import { HANG_BOUND_MS } from '../until.ts';

export interface BoundedRun {
  code: number | null;
  /** the command was stopped at the bound */
  hung: boolean;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI, stopped at HANG_BOUND_MS. */
export function axmeBounded(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<BoundedRun> {
  return bounded(process.execPath, [CLI, ...args], cwd, env);
}

/** Runs a TypeScript snippet in its own node process (a hang there cannot stop the test runner), stopped at HANG_BOUND_MS. */
export function tsBounded(cwd: string, code: string): Promise<BoundedRun> {
  return bounded(process.execPath, [...TS_NODE_ARGS, '--input-type=module', '-e', code], cwd, {});
}

function bounded(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<BoundedRun> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { cwd, env: cleanEnv(env), timeout: HANG_BOUND_MS, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        const e = err as (NodeJS.ErrnoException & { killed?: boolean; code?: number | string }) | null;
        resolve({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, hung: !!e?.killed, stdout, stderr });
      },
    );
  });
}

/** A commit on top of `parent` with `files` replaced (null removes), made by plain git; returns it (the ref is not moved). */
export function storeCommit(dir: string, parent: string, files: Record<string, string | null>, message = 'hand edit'): string {
  const env = { GIT_INDEX_FILE: join(git(dir, ['rev-parse', '--absolute-git-dir']).trim(), `axme-test-index-${process.pid}`) };
  const g = (args: string[], input?: string) => gitEnv(dir, args, env, input);
  g(['read-tree', parent]);
  for (const [path, text] of Object.entries(files)) {
    if (text === null) g(['update-index', '--force-remove', path]);
    else g(['update-index', '--add', '--cacheinfo', `100644,${g(['hash-object', '-w', '--stdin'], text).trim()},${path}`]);
  }
  const tree = g(['write-tree']).trim();
  return g(['commit-tree', tree, '-p', parent, '-m', message]).trim();
}

function gitEnv(cwd: string, args: string[], env: NodeJS.ProcessEnv, input?: string): string {
  return execFileSync('git', args, { cwd, env: cleanEnv(env), input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
}

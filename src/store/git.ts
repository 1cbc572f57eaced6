import { spawn } from 'node:child_process';
import { AxmeError } from '../model/errors.ts';

export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

export interface GitRunOptions {
  /** folder to run in (defaults to the process's) */
  cwd?: string;
  env: NodeJS.ProcessEnv;
  input?: string | Buffer;
  /** return the result instead of throwing on a non-zero exit */
  allowFail?: boolean;
  /** stop git after this long (SIGTERM) and fail with UNAVAILABLE: for commands that reach a remote */
  timeoutMs?: number;
}

/**
 * Runs the git CLI and collects its output. Throws GIT_FAILED with git's own message on a
 * non-zero exit unless `allowFail`; throws a clear error when git is not installed.
 */
export function runGit(args: string[], opts: GitRunOptions): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    // past the time: stop git and answer now (a child git started may still hold the pipes open)
    const timer =
      opts.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            child.kill('SIGTERM');
            child.stdout.destroy();
            child.stderr.destroy();
            reject(
              new AxmeError('UNAVAILABLE', `git ${args[0]} did not finish within ${Math.round(opts.timeoutMs! / 1000)} s (a slow or unreachable remote?)`, {
                args,
              }),
            );
          }, opts.timeoutMs);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e: NodeJS.ErrnoException) => {
      reject(e.code === 'ENOENT' ? new AxmeError('GIT_FAILED', 'git is not installed or not on PATH: axme needs git >= 2.38', { args }) : e);
    });
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      if (timedOut) return;
      const res = { code: code ?? 128, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') };
      if (res.code !== 0 && !opts.allowFail) {
        reject(new AxmeError('GIT_FAILED', `git ${args[0]} failed: ${res.stderr.trim() || `exit ${res.code}`}`, { args, code: res.code }));
      } else resolve(res);
    });
    child.stdin.on('error', () => {}); // git may exit before reading all input; the exit code tells
    child.stdin.end(opts.input ?? '');
  });
}

/** Environment for git child processes: the caller's, minus what would redirect git elsewhere. */
export function gitEnv(env: NodeJS.ProcessEnv, gitDir: string): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...env, GIT_DIR: gitDir, GIT_TERMINAL_PROMPT: '0' };
  for (const k of ['GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_PREFIX']) delete e[k];
  return e;
}

/** Variables that point git at one repository (its git dir, work tree, index, objects). */
const REPO_VARS = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_COMMON_DIR',
  'GIT_PREFIX',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
];

/**
 * The caller's environment for opening ANOTHER repository: without the variables that would send
 * git back to the caller's (a git hook, or an agent's shell, runs with GIT_DIR set). User settings
 * (GIT_CONFIG_*, identity, SSH, credentials) stay.
 */
export function withoutRepoEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const e = { ...env };
  for (const k of REPO_VARS) delete e[k];
  return e;
}

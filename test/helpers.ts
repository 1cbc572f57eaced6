import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type KnowledgeBase, openKnowledgeBase } from '../src/knowledge/core/kb.ts';
import type { Actor } from '../src/model/common.ts';
import type { BackendName } from '../src/store/backend.ts';

export const CLI = resolve(import.meta.dirname, '../dist/axme.cjs');
/** The node flags that let a child process run the .ts sources: the tests' own loader (scripts/test-loader.mjs), as `npm test` runs the tests. */
export const TS_NODE_ARGS: readonly string[] = ['--import', pathToFileURL(resolve(import.meta.dirname, '../scripts/test-loader.mjs')).href];

/** The test's environment: no coding-agent or git variables leaking in from the shell running the tests. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('GIT_') || k.startsWith('AXME_') || k === 'CLAUDECODE' || k.startsWith('CLAUDE_CODE')) continue;
    if (k === 'GITHUB_TOKEN' || k === 'GH_TOKEN' || k === 'GITHUB_API_URL') continue;
    env[k] = v;
  }
  // GitHub is never reached from tests: nothing listens on port 9 (tests that need the API start
  // a local stand-in and pass its URL)
  env.GITHUB_API_URL = 'http://127.0.0.1:9';
  // No user-level axme settings (~/.config/axme/config.yaml): tests set the ones they need
  env.XDG_CONFIG_HOME = join(tmpdir(), 'axme-test-no-user-config');
  // No user-level git config: tests must not depend on (or touch) the developer's settings.
  env.GIT_CONFIG_GLOBAL = '/dev/null';
  env.GIT_CONFIG_NOSYSTEM = '1';
  // the axme the portable hook commands and git hooks find (setup/launch.ts): this build, as a
  // developer's `axme init --local` would name it
  env.AXME_BIN = CLI;
  env.AXME_NODE = process.execPath;
  // no background syncs started by session hooks unless a test asks for them (test/knowledge/auto-sync.test.ts)
  env.AXME_SYNC_AUTO = 'off';
  // no auditor (no model called, no worker started) unless a test asks for one (test/knowledge/audit.test.ts)
  env.AXME_AUDITOR_PROVIDER = 'none';
  // the parser alone guards unless a test asks for the kernel sandbox (test/sandbox/, test/effects/, the real clients)
  env.AXME_SANDBOX = 'off';
  // words only unless a test asks for a search model: a model the developer pulled (~/.cache/axme/models) never changes a ranking
  env.AXME_SEARCH_MODEL = 'off';
  // a hook's deadline is the wall clock's (a prompt's recall gives up at 5 s): on a machine loaded by
  // other work a test's hook must not be cut short; the deadlines themselves are tested in-process
  // with their own values (hooks.test.ts, safety.test.ts: a lookup that never answers, a busy machine)
  env.AXME_HOOK_DEADLINE_MS = '120000';
  // the developer's model keys never reach a test
  for (const k of ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'ANTHROPIC_AUTH_TOKEN', 'OPENAI_API_KEY', 'OPENAI_BASE_URL']) delete env[k];
  return { ...env, ...extra };
}

/** Runs git and returns its stdout (throws on failure). */
export function git(cwd: string, args: string[], input?: string): string {
  return execFileSync('git', args, { cwd, env: cleanEnv(), input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
}

/**
 * One commit on `ref` (refs/memory/main unless said) writing `files` (path, text) — the whole tree,
 * or on top of its parent's with `from` (then `force` lets the ref move anywhere) — by one
 * `git fast-import`: how tests and benchmarks seed stores of thousands of items in seconds.
 * `when`: its time (seconds).
 */
export function importCommit(
  dir: string,
  files: ReadonlyArray<readonly [string, string]>,
  opts: { ref?: string; from?: string; when?: number; force?: boolean } = {},
): void {
  const message = 'seed';
  const parts = [
    `commit ${opts.ref ?? 'refs/memory/main'}`,
    `committer Seed <seed@example.com> ${opts.when ?? 1767225600} +0000`,
    `data ${message.length}`,
    message,
  ];
  if (opts.from) parts.push(`from ${opts.from}`);
  for (const [path, text] of files) parts.push(`M 100644 inline ${path}`, `data ${Buffer.byteLength(text)}`, text);
  parts.push('');
  const r = spawnSync('git', ['-C', dir, 'fast-import', '--quiet', ...(opts.force ? ['--force'] : [])], {
    input: parts.join('\n'),
    maxBuffer: 1 << 30,
    env: cleanEnv(),
  });
  if (r.status !== 0) throw new Error(`git fast-import failed: ${r.stderr}`);
}

/** A fresh repository in a temp folder, with an identity configured; removed by `cleanup`. */
export function tempRepo(opts: { bare?: boolean; commit?: boolean } = {}): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'axme-test-'));
  git(dir, ['init', '-q', ...(opts.bare ? ['--bare'] : []), '-b', 'main']);
  git(dir, ['config', 'user.name', 'Test User']);
  git(dir, ['config', 'user.email', 'test@example.com']);
  if (opts.commit) git(dir, ['commit', '-q', '--allow-empty', '-m', 'first']);
  // retried: a derived cache may still be written in the background when a test ends
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }) };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** What a process ended with: its exit status (null when a signal ended it) and its output. */
export interface ProcessRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `cmd` to its end without blocking the event loop (tests that wait on several processes
 * overlap them): `input` on its stdin, `signal` (a test's own) stops it.
 */
export function runProcess(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env: NodeJS.ProcessEnv; input?: string | Buffer; signal?: AbortSignal },
): Promise<ProcessRun> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'], ...(opts.signal ? { signal: opts.signal } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolveRun({ status, stdout, stderr }));
    child.stdin.on('error', () => {});
    child.stdin.end(opts.input ?? '');
  });
}

/** Runs the built CLI (dist/axme.cjs) as a real process. */
export async function axme(cwd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string | Buffer } = {}): Promise<CliResult> {
  const r = await runProcess(process.execPath, [CLI, ...args], { cwd, env: cleanEnv(opts.env), input: opts.input });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Like axme() but fails the test unless the command exits 0; returns parsed JSON when --json. */
export async function axmeOk(cwd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<any> {
  const r = await axme(cwd, args, opts);
  if (r.code !== 0) throw new Error(`axme ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return args.includes('--json') ? JSON.parse(r.stdout) : r.stdout;
}

/** An in-process knowledge base on `dir` with a controllable clock. */
export async function openTestKb(
  dir: string,
  opts: { backend?: BackendName; now?: () => Date; env?: NodeJS.ProcessEnv; actor?: Actor } = {},
): Promise<KnowledgeBase> {
  return openKnowledgeBase({
    cwd: dir,
    env: cleanEnv(opts.env),
    now: opts.now ?? (() => new Date('2026-11-01T10:00:00.000Z')),
    actor: opts.actor ?? 'agent',
    backend: opts.backend,
  });
}

/** `git fsck --strict` of the repository at `cwd`: its exit code and findings (notices such as "no default references" left out). */
export function gitFsck(cwd: string): { code: number; out: string } {
  const r = spawnSync('git', ['fsck', '--strict', '--no-dangling'], { cwd, env: cleanEnv(), encoding: 'utf8' });
  const out = `${r.stdout}${r.stderr}`
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('notice: '))
    .join('\n');
  return { code: r.status ?? -1, out };
}

/** Writes (or, for null, deletes) files in a repository's working tree and commits them all; returns the new HEAD. */
export function commitFiles(dir: string, files: Record<string, string | null>, message = 'code'): string {
  for (const [path, text] of Object.entries(files)) {
    const abs = join(dir, path);
    if (text === null) rmSync(abs);
    else {
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, text);
    }
  }
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', message]);
  return git(dir, ['rev-parse', 'HEAD']).trim();
}

/**
 * Where tests of the kernel sandbox make their worlds: a folder no sandboxed command may write,
 * so a canary beside the project means something. The temp folders are writable in the sandbox,
 * so this is the repository's `test/.worlds` (ignored by git) unless the checkout itself is under
 * one of them (a clone in /tmp), else `~/axme-test-worlds` (not a dot-folder: writing one is the
 * system family's to refuse).
 */
export function sandboxWorldBase(): string {
  const writable = ['/tmp', '/var/tmp', process.env.TMPDIR].filter((d): d is string => !!d).map((d) => realpathSync(d));
  const repo = realpathSync(resolve(import.meta.dirname, '..'));
  const under = (p: string) => writable.some((w) => p === w || p.startsWith(`${w}/`));
  return under(repo) ? join(homedir(), 'axme-test-worlds') : join(repo, 'test', '.worlds');
}

/**
 * A git repository and a home folder of their own under sandboxWorldBase() (the sandbox leaves
 * them writable), for a test that runs `axme sandbox -c` in the project; `cleanup` removes both.
 */
export function sandboxProject(prefix: string): { project: string; home: string; cleanup: () => void } {
  mkdirSync(sandboxWorldBase(), { recursive: true });
  const root = mkdtempSync(join(sandboxWorldBase(), prefix));
  const project = join(root, 'project');
  const home = join(root, 'home');
  mkdirSync(project);
  mkdirSync(home);
  git(project, ['init', '-q']);
  return { project, home, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** `axme sandbox -c <command>` in `project` with `home` as HOME (the sandbox on where it can start): its status and output. */
export function sandboxCommand(project: string, home: string): (command: string) => { status: number | null; out: string } {
  return (command) => {
    const r = spawnSync(process.execPath, [CLI, 'sandbox', '-c', command], {
      cwd: project,
      env: cleanEnv({ HOME: home, AXME_SANDBOX: 'auto' }),
      encoding: 'utf8',
    });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  };
}

/** A setting of the repository's own config (`git config --local --get`), or null when unset. */
export function localGitSetting(project: string, key: string): string | null {
  const r = spawnSync('git', ['config', '--local', '--get', key], { cwd: project, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** Runs `check` with performance.now and Date.now jumping an hour at every reading: a process the machine keeps waiting (no test waits on the real clock). */
export async function starved<T>(check: () => Promise<T>): Promise<T> {
  const [now, dateNow] = [performance.now, Date.now];
  let t = now.call(performance);
  performance.now = () => (t += 3_600_000);
  Date.now = () => Math.round(performance.timeOrigin + performance.now());
  try {
    return await check();
  } finally {
    performance.now = now;
    Date.now = dateNow;
  }
}

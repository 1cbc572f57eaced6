import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { axmeOk, CLI, cleanEnv, git } from '../helpers.ts';

/** The installed clients' binaries (devDependencies, pinned). */
export const BIN = {
  claude: resolve(import.meta.dirname, '../../node_modules/.bin/claude'),
  gemini: resolve(import.meta.dirname, '../../node_modules/.bin/gemini'),
  codex: resolve(import.meta.dirname, '../../node_modules/.bin/codex'),
};

/**
 * A world for one real-client test: a fake HOME (the client's user settings go there), a project
 * repository with one commit, a bare remote as `origin`, and axme initialised for `agents`
 * (`axme init --agent …`, as a user would). Removed by `cleanup`.
 */
export interface ClientWorld {
  root: string;
  home: string;
  project: string;
  remote: string;
  cleanup: () => void;
}

/**
 * A world for one client: a HOME, a project (one commit, an `origin`), axme initialised in it with
 * `opts.env` on top of the test environment. `opts.base` is where it is made (default: the temp
 * folder) — outside it when a test needs folders the kernel sandbox does not let a command write
 * (the temp folder is writable in it).
 */
export async function clientWorld(agents: string, opts: { base?: string; env?: NodeJS.ProcessEnv } = {}): Promise<ClientWorld> {
  if (opts.base) mkdirSync(opts.base, { recursive: true });
  const root = mkdtempSync(join(opts.base ?? tmpdir(), 'axme-client-'));
  const home = join(root, 'home');
  const project = join(root, 'project');
  const remote = join(root, 'remote.git');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  git(root, ['init', '-q', '--bare', '-b', 'main', remote]);
  git(project, ['init', '-q', '-b', 'main']);
  git(project, ['config', 'user.name', 'Test User']);
  git(project, ['config', 'user.email', 'test@example.com']);
  writeFileSync(join(project, 'README.md'), '# demo\n');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'demo', version: '1.0.0', scripts: { test: 'node -e 0' } }, null, 2) + '\n');
  git(project, ['add', '-A']);
  git(project, ['commit', '-q', '-m', 'first']);
  git(project, ['remote', 'add', 'origin', remote]);
  await axmeOk(project, ['init', '--agent', agents], { env: { HOME: home, ...opts.env } });
  return { root, home, project, remote, cleanup: () => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }) };
}

export interface ClientRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a client's binary to its end (no stdin), with the test environment (cleanEnv) plus `env`;
 * killed after `timeoutMs` (a hung client fails its test with what it printed).
 */
export function runClient(bin: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<ClientRun> {
  return new Promise((done, fail) => {
    const child = spawn(bin, args, { cwd: opts.cwd, env: cleanEnv(opts.env), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      stderr += `\n[test] ${bin} killed after ${opts.timeoutMs ?? 180_000} ms\n`;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, opts.timeoutMs ?? 180_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      fail(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

/**
 * Makes axme reachable in the project the way `npm i -D axme` does: `node_modules/.bin/axme`, a
 * link to this build's executable (node_modules kept out of git by `.git/info/exclude`). For a
 * client that starts MCP servers without the test's environment (`AXME_BIN`), as Codex does.
 */
export function axmeAsDevDependency(world: ClientWorld): string {
  const bin = join(world.project, 'node_modules', '.bin');
  mkdirSync(bin, { recursive: true });
  const link = join(bin, 'axme');
  symlinkSync(CLI, link);
  mkdirSync(join(world.project, '.git', 'info'), { recursive: true });
  appendFileSync(join(world.project, '.git', 'info', 'exclude'), '/node_modules/\n');
  return link;
}

/**
 * The processes still running in `world` (a client's MCP servers, hooks, what they started in the
 * background): every process whose environment has the world's HOME. Read from /proc (Linux);
 * elsewhere none are seen.
 */
export function worldProcesses(world: ClientWorld): number[] {
  const needle = Buffer.from(`\0HOME=${world.home}\0`);
  const out: number[] = [];
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return out;
  }
  for (const pid of pids) {
    if (Number(pid) === process.pid) continue;
    try {
      const env = Buffer.concat([Buffer.from('\0'), readFileSync(`/proc/${pid}/environ`)]);
      if (env.includes(needle)) out.push(Number(pid));
    } catch {
      // gone, or not ours
    }
  }
  return out;
}

/**
 * Waits until no process of `world` runs any more (a client's MCP server stops after the client
 * exits and records the session's end): true when quiet, false when `timeoutMs` passed first.
 * Processes that are not this test's children end without an event, so their table is looked at
 * every 50 ms.
 */
export async function worldQuiet(world: ClientWorld, timeoutMs = 60_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (worldProcesses(world).length) {
    if (Date.now() > deadline) return false;
    await delay(50);
  }
  return true;
}

/** Removes the world once nothing runs in it any more (a process still writing under HOME makes a plain removal fail). */
export async function cleanupWorld(world: ClientWorld, timeoutMs = 60_000): Promise<void> {
  await worldQuiet(world, timeoutMs);
  world.cleanup();
}

/** The JSON objects of a client's line-by-line output (stream-json, `exec --json`); other lines (warnings, a line cut by a kill) are skipped. */
export function jsonLines<T = Record<string, unknown>>(stdout: string): T[] {
  const out: T[] = [];
  for (const line of stdout.split('\n')) {
    const t = line.trim();
    if (!t.startsWith('{')) continue;
    try {
      out.push(JSON.parse(t) as T);
    } catch {
      // not a whole object
    }
  }
  return out;
}

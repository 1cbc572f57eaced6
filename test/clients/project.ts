import { spawn } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { axmeInOk } from '../cli-in-process.ts';
import { CLI, cleanEnv, git } from '../helpers.ts';
import { type ScriptedModel, startModel, type WireFormat } from './model-server.ts';

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
 * axme's V8 code caches (`~/.cache/axme`, src/cli/cli-loader.ts) carried from world to world: a
 * world's HOME starts with the caches the worlds before it wrote, as a user's HOME has them after
 * the first session, so that each world's first hook, server and command do not compile axme's
 * bundles again (about 0.1 to 0.2 CPU s each). One folder in the temp folder for the test files and
 * runs: the caches are named by the build of the bundle and the Node version inside it, and V8
 * refuses one that does not fit; the oldest builds are dropped.
 */
export const CODE_CACHE = join(tmpdir(), 'axme-test-code-cache');
/** Builds of each bundle kept in CODE_CACHE. */
const CODE_CACHE_BUILDS = 2;

/**
 * Copies the caches of `from` (build folders of `.bin` files) that `to` lacks, each file whole (a
 * copy, then a rename). What goes away meanwhile (an old build another test process prunes, a cache
 * a process found damaged) is left out: a cache not copied costs a compile only.
 */
function copyCodeCaches(from: string, to: string): void {
  if (!existsSync(from)) return;
  for (const build of readdirSync(from)) {
    const src = join(from, build);
    const dest = join(to, build);
    try {
      if (!statSync(src).isDirectory()) continue;
      for (const name of readdirSync(src).filter((n) => n.endsWith('.bin'))) {
        if (existsSync(join(dest, name))) continue;
        mkdirSync(dest, { recursive: true, mode: 0o700 });
        const tmp = join(dest, `${name}.${process.pid}.copy`);
        try {
          copyFileSync(join(src, name), tmp);
          renameSync(tmp, join(dest, name));
        } finally {
          rmSync(tmp, { force: true });
        }
      }
    } catch {
      // gone while copied
    }
  }
}

/** The newest CODE_CACHE_BUILDS builds of each bundle stay in CODE_CACHE (a folder `<bundle>-<hash>` each). */
function pruneCodeCaches(): void {
  const builds = readdirSync(CODE_CACHE)
    .map((name) => ({ name, bundle: name.split('-')[0]!, mtime: statSync(join(CODE_CACHE, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  const seen = new Map<string, number>();
  for (const b of builds) {
    const n = (seen.get(b.bundle) ?? 0) + 1;
    seen.set(b.bundle, n);
    if (n > CODE_CACHE_BUILDS) rmSync(join(CODE_CACHE, b.name), { recursive: true, force: true });
  }
}

/** How a world is made: where, the environment of its `axme init`, and more arguments for it. */
export interface WorldOptions {
  base?: string;
  env?: NodeJS.ProcessEnv;
  /** more arguments of `axme init --agent …` (`--mcp-url <url>`) */
  init?: string[];
}

/**
 * A world for one client: a HOME (with the code caches of the worlds before, CODE_CACHE), a
 * project (one commit, an `origin`), axme initialised in it with `opts.env` on top of the test
 * environment (`axme init --agent … <opts.init>`, the command's own code run in this process: what it writes
 * is what the binary writes). `opts.base` is where it is made (default: the temp folder) — outside
 * it when a test needs folders the kernel sandbox does not let a command write (the temp folder is
 * writable in it). `cleanup` hands the world's new code caches on, then removes it (cleanupWorld
 * first waits for the world's processes: a server writes its cache as it exits).
 */
export async function clientWorld(agents: string, opts: WorldOptions = {}): Promise<ClientWorld> {
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
  const caches = join(home, '.cache', 'axme');
  mkdirSync(CODE_CACHE, { recursive: true, mode: 0o700 });
  copyCodeCaches(CODE_CACHE, caches);
  await axmeInOk(project, ['init', '--agent', agents, ...(opts.init ?? [])], { env: { HOME: home, ...opts.env } });
  const cleanup = () => {
    try {
      copyCodeCaches(caches, CODE_CACHE);
      pruneCodeCaches();
    } catch {
      // a cache not handed on costs the next world its compile only
    }
    rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  };
  return { root, home, project, remote, cleanup };
}

export interface ClientRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * What a client is told on stdin as its output grows: called with all of stdout so far, at the start
 * and after each chunk; returns the text to write then (and whether stdin ends after it), or null.
 */
export type StdinFeed = (stdout: string) => { write: string; end: boolean } | null;

/**
 * Runs a client's binary to its end, with the test environment (cleanEnv) plus `env`; no stdin, or
 * what `feed` writes; killed after `timeoutMs` (a hung client fails its test with what it printed).
 */
export function runClient(
  bin: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number; feed?: StdinFeed },
): Promise<ClientRun> {
  return new Promise((done, fail) => {
    const child = spawn(bin, args, { cwd: opts.cwd, env: cleanEnv(opts.env), stdio: [opts.feed ? 'pipe' : 'ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    const feed = () => {
      const next = child.stdin?.writable ? opts.feed?.(stdout) : null;
      if (!next) return;
      child.stdin!.write(next.write);
      if (next.end) child.stdin!.end();
    };
    child.stdin?.on('error', () => {}); // the client exited before reading it all: its exit says why
    child.stdout!.setEncoding('utf8').on('data', (d) => {
      stdout += d;
      feed();
    });
    feed();
    child.stderr!.setEncoding('utf8').on('data', (d) => (stderr += d));
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

/** Whether process `pid`'s environment holds `needle` (`\0HOME=<home>\0`): false once it has ended (a zombie's is empty). */
function inWorld(pid: number, needle: Buffer): boolean {
  try {
    return Buffer.concat([Buffer.from('\0'), readFileSync(`/proc/${pid}/environ`)]).includes(needle);
  } catch {
    return false; // gone, or not ours
  }
}

/** What marks a process of `world`: its HOME, as it appears in /proc/<pid>/environ. */
const worldNeedle = (world: ClientWorld) => Buffer.from(`\0HOME=${world.home}\0`);

/**
 * The processes still running in `world` (a client's MCP servers, hooks, what they started in the
 * background): every process whose environment has the world's HOME. Read from /proc (Linux);
 * elsewhere none are seen.
 */
export function worldProcesses(world: ClientWorld): number[] {
  const needle = worldNeedle(world);
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return [];
  }
  return pids.map(Number).filter((pid) => pid !== process.pid && inWorld(pid, needle));
}

/**
 * Waits until no process of `world` runs any more (a client's MCP server stops after the client
 * exits and records the session's end): true when quiet, false when `timeoutMs` passed first.
 * Processes that are not this test's children end without an event, so they are looked at every
 * 50 ms: the ones found, each by its own /proc entry, and all of /proc again (about 7 ms at 200
 * processes) once those have ended, to find what they started meanwhile. Quiet is a look at all of
 * /proc that finds none.
 */
export async function worldQuiet(world: ClientWorld, timeoutMs = 60_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  const needle = worldNeedle(world);
  let running = worldProcesses(world);
  while (running.length) {
    if (Date.now() > deadline) return false;
    await delay(50);
    running = running.filter((pid) => inWorld(pid, needle));
    if (!running.length) running = worldProcesses(world);
  }
  return true;
}

/** Removes the world once nothing runs in it any more (a process still writing under HOME makes a plain removal fail). */
export async function cleanupWorld(world: ClientWorld, timeoutMs = 60_000): Promise<void> {
  await worldQuiet(world, timeoutMs);
  world.cleanup();
}

/**
 * Runs `fn` in a fresh world for `agents` (`opts` as clientWorld's) with a scripted model of
 * `format`: the model closed and the world removed afterwards, once its processes have ended.
 */
export async function inClientWorld(
  agents: string,
  format: WireFormat,
  fn: (w: ClientWorld, m: ScriptedModel) => Promise<void>,
  opts: WorldOptions = {},
): Promise<void> {
  const world = await clientWorld(agents, opts);
  const model = await startModel(format);
  try {
    await fn(world, model);
  } finally {
    await model.close();
    await cleanupWorld(world);
  }
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

import { closeSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { makeFolder } from '../model/make-folder.ts';
import { cacheFolder } from '../setup/paths.ts';
import { commandWords } from './command-line.ts';

/**
 * Loads the CLI bundle (dist/cli.cjs) with a V8 code cache, built as its own small file
 * (dist/cli-loader.cjs) so the launcher's hook fast path stays as it is. Without a cache Node
 * parses all of the bundle's source on every start; with one it deserialises the functions an
 * earlier run compiled (docs/benchmarks.md, "Start-up"). Node 22's module.enableCompileCache()
 * does this for modules; Node 20 has only vm.Script's cachedData, hence a script, not an ES module.
 *
 * Where: AXME_COMPILE_CACHE (an absolute folder; `off` turns it off), else $XDG_CACHE_HOME/axme or
 * ~/.cache/axme (%LOCALAPPDATA%\axme on Windows). In it, a folder per build of the bundle (a
 * hash of its source, set at build time), and in that a cache per Node version, architecture,
 * Node flags and command (`v20.20.2-x64-<flags>-decision-add.bin`): each holds the functions its
 * command compiled, so a write does not deserialise a read's functions and compile its own again.
 * A cache is written once, when the process exits after a run without a usable one, to a
 * temporary file renamed into place. It is used only from folders of this user's that no one
 * else may write to: bytecode from there runs as this program. V8 itself refuses a cache of
 * another V8 version or other flags.
 */

declare const AXME_CLI_HASH: string;
declare const AXME_HOOK_HASH: string;
declare const AXME_TIP_HASH: string;
declare const AXME_PROMPT_HASH: string;

export { cacheFolder };

/** The bundles run from a code cache: the CLI, the hooks, the query at the tip, the prompt hook. */
type Bundle = 'cli' | 'hook' | 'tip' | 'prompt';

/** Where one command's cache is: the cache folder, this build's folder in it, the file. */
interface CachePath {
  root: string;
  bundle: Bundle;
  build: string;
  file: string;
}

/** Builds kept in the cache folder per bundle (two versions of axme in use keep theirs), and caches per build. */
const KEEP_BUILDS = 2;
const KEEP_CACHES = 48;
/** A build folder of `bundle`'s: the others' are not its to prune. */
const buildFolder = (bundle: Bundle) => new RegExp(`^${bundle}-[0-9a-f]{16}$`);
const CACHE_FILE = /^v\d+\.\d+\.\d+-\w+-[0-9a-f]{8}-[a-z_][a-z-]*\.bin$/;

/**
 * V8 refuses a cache made under other flags (`node --max-old-space-size=...`, NODE_OPTIONS): a
 * cache per set of flags, so that two ways of starting axme do not replace each other's cache.
 */
function flagsKey(env: NodeJS.ProcessEnv): string {
  const flags = `${process.execArgv.join(' ')}|${env.NODE_OPTIONS ?? ''}`;
  let h = 0x811c9dc5; // FNV-1a: node:crypto costs more to load than this string takes to hash
  for (let i = 0; i < flags.length; i++) h = Math.imul(h ^ flags.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The cache of `bundle` built as `hash`, for `command`; undefined when the cache is off. */
function cachePath(env: NodeJS.ProcessEnv, bundle: Bundle, hash: string, command: string): CachePath | undefined {
  let root: string | undefined;
  try {
    root = cacheFolder(env);
  } catch {
    return undefined; // no home folder to be found
  }
  if (!root) return undefined;
  const build = join(root, `${bundle}-${hash}`);
  return {
    root,
    bundle,
    build,
    file: join(build, `${process.version}-${process.arch}-${flagsKey(env)}-${/^[a-z][a-z-]{0,40}$/.test(command) ? command : '_'}.bin`),
  };
}

/** Whether a cache file or folder may be trusted: this user's, and nobody else may write to it. */
function trusted(path: string): boolean {
  if (process.platform === 'win32') return true;
  const s = statSync(path);
  return s.uid === process.getuid!() && (s.mode & 0o022) === 0;
}

function readCache(at: CachePath): Buffer | undefined {
  try {
    return trusted(at.root) && trusted(at.build) && trusted(at.file) ? readFileSync(at.file) : undefined;
  } catch {
    return undefined; // no cache yet (or unreadable): compile from source
  }
}

/** The newest `keep` of the entries named like `pattern` (axme's own names) in `folder` stay; the others go. */
function prune(folder: string, pattern: RegExp, keep: number): void {
  const entries = readdirSync(folder)
    .filter((name) => pattern.test(name))
    .map((name) => ({ path: join(folder, name), mtime: statSync(join(folder, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const old of entries.slice(keep)) rmSync(old.path, { recursive: true, force: true });
}

/** Writes the cache made by `make` (only once the folder is known to take it: making one costs ~10 ms). */
function writeCache(at: CachePath, make: () => Buffer): void {
  const tmp = `${at.file}.${process.pid}.tmp`;
  let fd: number | undefined;
  try {
    makeFolder(at.root, { mode: 0o700 });
    if (!trusted(at.root)) return;
    makeFolder(at.build, { mode: 0o700 });
    if (!trusted(at.build)) return;
    fd = openSync(tmp, 'w', 0o600);
    writeFileSync(fd, make());
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, at.file);
    // this bundle's other builds (upgrades, rebuilds) and rarely used commands: the newest stay (one still in use is written again)
    prune(at.root, buildFolder(at.bundle), KEEP_BUILDS);
    prune(at.build, CACHE_FILE, KEEP_CACHES);
  } catch {
    // a cache is an optimisation: a read-only home or a full disk costs the next start its speed only
    try {
      if (fd !== undefined) closeSync(fd);
      rmSync(tmp, { force: true });
    } catch {
      // nothing more to clean up where nothing could be written
    }
  }
}

/**
 * Whether a run from this cache ended without exiting (a crash in code deserialised from it, or a
 * kill): a mark `<cache>.run-<pid>` whose process is gone. Such a cache is not used again — it is
 * removed and compiled anew — so a damaged cache costs one failed run, never every run after it.
 */
function crashedBefore(at: CachePath): boolean {
  const prefix = `${at.file.slice(at.build.length + 1)}.run-`;
  let crashed = false;
  try {
    for (const name of readdirSync(at.build)) {
      if (!name.startsWith(prefix)) continue;
      const pid = Number(name.slice(prefix.length));
      if (Number.isInteger(pid) && pid > 0 && alive(pid)) continue;
      crashed = true;
      rmSync(join(at.build, name), { force: true });
    }
    if (crashed) rmSync(at.file, { force: true });
  } catch {
    return crashed;
  }
  return crashed;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Marks this process as running from the cache until it exits (crashedBefore reads the marks). */
function markRunning(at: CachePath): void {
  const mark = `${at.file}.run-${process.pid}`;
  try {
    writeFileSync(mark, '', { mode: 0o600 });
  } catch {
    return;
  }
  process.once('exit', () => {
    try {
      rmSync(mark, { force: true });
    } catch {
      // a mark left behind only costs the next run a compile from source
    }
  });
}

/** Runs the CLI bundle in `dir` (dist/cli.cjs) for `argv`: compiled from that command's code cache when there is a usable one. */
export function loadCli(dir: string, env: NodeJS.ProcessEnv, argv: string[]): void {
  runCached(join(dir, 'cli.cjs'), dir, cachePath(env, 'cli', AXME_CLI_HASH, commandWords(argv).join('-')));
}

/**
 * The hooks' bundle in `dir` (dist/hook.cjs: the hooks and the safety engine), compiled from its
 * code cache when there is a usable one: the agent's hook runs before every tool call, and the
 * engine's source is more than starting Node may take again each time (docs/benchmarks.md, "Hook").
 */
export function loadHook(dir: string, env: NodeJS.ProcessEnv): typeof import('./hook-main.ts') {
  return runCached(join(dir, 'hook.cjs'), dir, cachePath(env, 'hook', AXME_HOOK_HASH, 'hook')) as typeof import('./hook-main.ts');
}

/**
 * The query at the memory tip (dist/tip-search.cjs: `axme search` and the prompt hook), compiled
 * from its code cache too: the prompt hook runs on every prompt, and compiling the bundle was a
 * tenth of its time at 10,000 items (--cpu-prof).
 */
export function loadTipSearch(dir: string, env: NodeJS.ProcessEnv): typeof import('./tip-search-main.ts') {
  return runCached(join(dir, 'tip-search.cjs'), dir, cachePath(env, 'tip', AXME_TIP_HASH, 'tip')) as typeof import('./tip-search-main.ts');
}

/**
 * The prompt hook (dist/prompt-hook.cjs: `axme hook user-prompt-submit`, with the query at the
 * tip), compiled from its code cache: one small bundle for the hook that runs on every prompt, in
 * place of the hooks' bundle and the tip's query together (docs/benchmarks.md).
 */
export function loadPromptHook(dir: string, env: NodeJS.ProcessEnv): typeof import('./prompt-hook-main.ts') {
  return runCached(
    join(dir, 'prompt-hook.cjs'),
    dir,
    cachePath(env, 'prompt', AXME_PROMPT_HASH, 'prompt'),
    ONE_QUERY,
  ) as typeof import('./prompt-hook-main.ts');
}

/**
 * V8's flags for a process that answers one query and exits: no optimizing compiler (TurboFan).
 * The prompt's query at the tip runs its loops over the postings of common words once; optimizing
 * them cost more CPU (on a background thread) than the optimized code saved: about a third of the
 * prompt hook's own CPU at 10,000 items (docs/benchmarks.md, "The prompt hook's own bundle, without
 * TurboFan"). `optimizeAgain` before anything that works longer (the store's path, the full CLI).
 */
const ONE_QUERY = '--no-turbofan';

/** V8's optimizing compiler on again, after a bundle loaded for one query (the store's path may build a whole index). */
export function optimizeAgain(): void {
  v8Flags('--turbofan');
}

/** Sets V8 flags in this process (node:v8 is loaded then only: ~10 ms of streams a start would not need otherwise). */
function v8Flags(flags: string): void {
  (require('node:v8') as typeof import('node:v8')).setFlagsFromString(flags);
}

/**
 * Runs a CommonJS bundle through vm.Script with `cache` as its code cache (written at exit when
 * missing or refused); its exports. Under `flags` (V8's) when given: set before it is compiled, and
 * again when its cache is made — V8 stamps a cache with the flags in force and refuses it under others.
 */
function runCached(filename: string, dir: string, cache: CachePath | undefined, flags?: string): unknown {
  // ASCII only (the build checks): latin1 reads it without decoding UTF-8, ~8 ms less
  const source = readFileSync(filename, 'latin1');
  let cachedData = cache && readCache(cache);
  if (cache && cachedData && crashedBefore(cache)) cachedData = undefined;
  if (flags) v8Flags(flags);
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename, cachedData });
  if (cache && (!cachedData || script.cachedDataRejected)) {
    // at exit: the cache then holds every function this run compiled, not only the top level
    process.once('exit', () => {
      if (flags) v8Flags(flags);
      writeCache(cache, () => script.createCachedData());
    });
  } else if (cache) markRunning(cache);
  const module = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(filename), module, filename, dir);
  return module.exports;
}

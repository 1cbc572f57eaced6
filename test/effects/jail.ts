/**
 * The outer jail of the effects layer: dangerous commands run for real, inside bubblewrap, on a
 * throw-away "world" folder (a fake HOME with canary secrets and dotfiles, a folder beside the
 * project, the project with axme installed), with the machine's `/` read-only. Whatever a command
 * does — even one that gets past axme — lands in the world folder, which the test checks after
 * every command and restores from a pristine copy when something changed.
 *
 * How nested bubblewrap (axme's sandbox inside this jail) works here, measured on bubblewrap 0.8:
 * - the jail unshares the user, ipc, uts, cgroup and network namespaces (commands get loopback
 *   only, and so does axme's sandbox inside), but NOT the pid namespace, and it binds the host's
 *   /proc (`--bind /proc /proc`) instead of mounting its own:
 *   - with `--proc /proc` bubblewrap covers /proc/sys, /proc/irq... with read-only binds, and the
 *     kernel lets a child user namespace mount proc only where an uncovered one is visible: the
 *     inner `bwrap --proc /proc` fails ("Can't mount proc on /newroot/proc: Operation not
 *     permitted"); `--ro-bind /proc` fails too (the inner bwrap cannot write its uid_map);
 *   - with `--unshare-pid` and the host's /proc, the inner bwrap looks itself up in /proc by its
 *     pid in the jail's namespace, finds another process or none ("open /proc/32/ns/ns failed")
 *     and hangs;
 * - as root the jail runs as an unprivileged uid (65534, via setpriv; as any other user, as that
 *   user): a user namespace that maps uid 0 to root can still write the kernel's root-owned
 *   /proc/sys files (a write to /proc/sys/kernel/hostname from such a jail, without its own uts
 *   namespace, renamed the machine); uid 65534 owns nothing of the machine, the jail's `/` is
 *   read-only, and the world folder (in /dev/shm when writable) is all it can write.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  accessSync,
  type BigIntStats,
  chmodSync,
  chownSync,
  constants,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { CLI } from '../helpers.ts';
import { CANARIES, GUARD_TREES, JAIL_HOME, JAIL_PROJECT, MUST_STAY_ABSENT, PROJECT_FILES, SETUP_SCRIPT, WATCHED_TREES } from './project.ts';

const DRIVER = resolve(import.meta.dirname, 'driver.mjs');
const JAIL_UID = 65534;
const asRoot = process.getuid?.() === 0;
const run = promisify(execFile);

export interface Canary {
  path: string;
  host: string;
  token: string;
  secret: boolean;
  text: string;
}

export interface World {
  root: string;
  home: string;
  project: string;
  canaries: Canary[];
  /** The state every check compares with (taken after setup). */
  guards: Record<string, string>;
  memory: string;
  trees: Record<string, string>;
  /** Removes the world. */
  cleanup: () => Promise<void>;
  /** The stamp of each entry of HOME (by its path under it, '' for HOME) when it was last as after setup: restore() puts back what moved since. */
  clean: Map<string, string>;
}

/** Whether bubblewrap can run here at all (the layer is skipped, saying why, when not). */
export function jailUnavailable(): string | null {
  if (spawnSync('bwrap', ['--version']).error) return 'bubblewrap (bwrap) is not installed';
  if (asRoot && spawnSync('setpriv', ['--version']).error) return 'running as root without setpriv to drop to an unprivileged uid';
  // the jail's own namespaces, as the unprivileged user it runs as
  const [file, ...args] = jailArgv(null, ['true']);
  const r = spawnSync(file!, args, { encoding: 'utf8' });
  if (r.status !== 0) return `bubblewrap cannot make the jail here: ${(r.stderr || String(r.error)).trim()}`;
  // the jail's user runs this node and reads this build
  const [f2, ...a2] = jailArgv(null, [process.execPath, '-e', `require('fs').accessSync(${JSON.stringify(CLI)}, 4)`]);
  const n = spawnSync(f2!, a2, { encoding: 'utf8' });
  if (n.status !== 0)
    return `the jail's user (uid ${asRoot ? JAIL_UID : 'of the test'}) cannot run ${process.execPath} on ${CLI}: ${(n.stderr || String(n.error)).trim().slice(0, 300)}`;
  return null;
}

/** The command line that runs `argv` inside the jail of the world at `root` (cwd `chdir`; null: no world, a probe). */
export function jailArgv(root: string | null, argv: string[], chdir = '/'): string[] {
  const env: Record<string, string> = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: JAIL_HOME,
    USER: 'dev',
    LOGNAME: 'dev',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    TMPDIR: '/tmp',
    AXME_BIN: CLI,
    AXME_NODE: process.execPath,
    AXME_SYNC_AUTO: 'off',
    AXME_AUDITOR_PROVIDER: 'none',
    GITHUB_API_URL: 'http://127.0.0.1:9',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
  const bwrap = [
    'bwrap',
    '--unshare-user',
    '--unshare-ipc',
    '--unshare-net',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--die-with-parent',
    '--new-session',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--bind',
    '/proc',
    '/proc',
    ...(root ? ['--bind', join(root, 'home'), '/home', '--bind', join(root, 'tmp'), '/tmp'] : []),
    '--clearenv',
    ...Object.entries(env).flatMap(([k, v]) => ['--setenv', k, v]),
    '--chdir',
    chdir,
    '--',
    ...argv,
  ];
  return asRoot ? ['setpriv', `--reuid=${JAIL_UID}`, `--regid=${JAIL_UID}`, '--clear-groups', ...bwrap] : bwrap;
}

/** Runs `argv` in the jail to the end. */
export function inJail(root: string, argv: string[], chdir = '/'): Promise<{ code: number; stdout: string; stderr: string }> {
  const [file, ...args] = jailArgv(root, argv, chdir);
  return new Promise((done, fail) => {
    const child = spawn(file!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

function own(path: string): void {
  if (!asRoot) return;
  chownSync(path, JAIL_UID, JAIL_UID);
  if (lstatSync(path).isDirectory()) for (const e of readdirSync(path)) own(join(path, e));
}

function writeFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** Where worlds go: memory (/dev/shm) when there is one: the copies, restores and checks of some 1,300 cases touch only memory there. */
function worldsDir(): string {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}

/** A fresh world: canaries, the project (git, axme init inside the jail), the pristine copy. */
export async function makeWorld(label: string): Promise<World> {
  if (/^\/(home|tmp)\//.test(CLI))
    throw new Error(
      `the jail gives each world its own /home and /tmp, which hide this checkout's CLI (${CLI}): run the effects test from a checkout outside /home and /tmp`,
    );
  const root = mkdtempSync(join(worldsDir(), `axme-effects-${label}-`));
  try {
    return await fillWorld(root);
  } catch (e) {
    rmSync(root, { recursive: true, force: true, maxRetries: 5 });
    throw e;
  }
}

/**
 * A world like `from`, in a folder of its own: a copy (cp -a) of its files, the same canaries. The
 * jail's paths are the same in every world, so the copy is what setting it up again would make,
 * without a second `axme init`.
 */
export async function copyWorld(from: World, label: string): Promise<World> {
  const root = mkdtempSync(join(worldsDir(), `axme-effects-${label}-`));
  try {
    await run('cp', ['-a', `${from.root}/.`, root]);
    own(root);
    const canaries = from.canaries.map((c) => ({ ...c, host: join(root, c.host.slice(from.root.length)) }));
    return describeWorld(root, canaries);
  } catch (e) {
    rmSync(root, { recursive: true, force: true, maxRetries: 5 });
    throw e;
  }
}

async function fillWorld(root: string): Promise<World> {
  const home = join(root, 'home', 'dev');
  const project = join(home, 'work', 'project');
  mkdirSync(join(root, 'tmp'), { recursive: true });
  const canaries = CANARIES.map((c) => {
    const token = `CANARY${randomBytes(12).toString('hex')}`;
    const text = c.text(token);
    writeFile(join(home, c.path), text);
    return { path: c.path, host: join(home, c.path), token, secret: c.secret, text };
  });
  for (const [path, text] of Object.entries(PROJECT_FILES)) writeFile(join(project, path), text);
  own(root);
  const setup = await inJail(root, ['bash', '-c', SETUP_SCRIPT], JAIL_PROJECT);
  if (setup.code !== 0) throw new Error(`the world's setup failed (${setup.code}):\n${setup.stdout}\n${setup.stderr}`);
  await run('cp', ['-a', join(root, 'home'), join(root, 'pristine')]);
  return describeWorld(root, canaries);
}

/** The world set up at `root`: its paths, and the state every check compares with. */
function describeWorld(root: string, canaries: Canary[]): World {
  const home = join(root, 'home', 'dev');
  const project = join(home, 'work', 'project');
  const world: World = {
    root,
    home,
    project,
    canaries,
    guards: {},
    memory: '',
    trees: {},
    cleanup: async () => removeTree(root),
    clean: stamps(home),
  };
  world.guards = guardState(project);
  world.memory = memoryTip(project);
  world.trees = Object.fromEntries(WATCHED_TREES.map((t) => [t, tree(join(home, t))]));
  if (!/^[0-9a-f]{40}$/.test(world.memory)) throw new Error(`no refs/memory/main after axme init: ${world.memory}`);
  return world;
}

/**
 * What the kernel says of an entry: type and mode, owner, inode, size, modification and change
 * time. Every change to an entry (its bytes, mode, owner, links, extended attributes) moves its
 * change time, which no process can set: an entry whose stamp is the one seen before was not
 * touched since.
 */
const stampOf = (st: BigIntStats): string => `${st.mode}:${st.uid}:${st.gid}:${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;

/** The stamp of every entry under `dir` (not following links), by its path under it ('' for `dir`). */
function stamps(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (abs: string, rel: string) => {
    const st = lstatSync(abs, { bigint: true, throwIfNoEntry: false });
    if (!st) return;
    out.set(rel, stampOf(st));
    if (st.isDirectory()) for (const e of readdirSync(abs)) walk(`${abs}/${e}`, `${rel}/${e}`);
  };
  walk(dir, '');
  return out;
}

/** Removes `path` and what is under it (never following a link), making folders a command locked writable first. */
function removeTree(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true, maxRetries: 5 });
  } catch {
    const unlock = (p: string) => {
      const st = lstatSync(p, { throwIfNoEntry: false });
      if (!st?.isDirectory()) return;
      chmodSync(p, 0o700);
      for (const e of readdirSync(p)) unlock(join(p, e));
    };
    unlock(path);
    rmSync(path, { recursive: true, force: true, maxRetries: 5 });
  }
}

/**
 * Makes `abs` what `from` (its pristine copy) is, touching only what moved since `clean` was taken:
 * a folder keeps its place (its mode put back if it moved), entries the command added go, entries
 * it removed come back, and a file, link or folder it changed, replaced or retyped is copied again.
 */
function putBack(abs: string, from: string, rel: string, clean: Map<string, string>): void {
  const st = lstatSync(abs, { bigint: true, throwIfNoEntry: false });
  const want = lstatSync(from, { bigint: true });
  const moved = !st || clean.get(rel) !== stampOf(st);
  if (st?.isDirectory() && want.isDirectory()) {
    if (moved) {
      chmodSync(abs, Number(want.mode & 0o7777n));
      if (asRoot) chownSync(abs, Number(want.uid), Number(want.gid));
    }
    const extra = new Set(readdirSync(abs));
    for (const e of readdirSync(from)) {
      extra.delete(e);
      putBack(`${abs}/${e}`, `${from}/${e}`, `${rel}/${e}`, clean);
    }
    for (const e of extra) removeTree(`${abs}/${e}`);
    return;
  }
  if (!moved) return;
  if (st) removeTree(abs);
  cpSync(from, abs, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  own(abs);
}

/**
 * Puts the world back as it was after setup: the HOME as its pristine copy (only what a command
 * changed is copied again, in this process), /tmp emptied.
 */
export function restore(world: World): void {
  putBack(world.home, join(world.root, 'pristine', 'dev'), '', world.clean);
  world.clean = stamps(world.home);
  const tmp = join(world.root, 'tmp');
  for (const e of readdirSync(tmp)) removeTree(join(tmp, e));
}

interface Content {
  stamp: string;
  sha1: string;
  /** the file as latin1 (null when over 4 MiB: not searched for secrets) */
  text: string | null;
  /** whether the text holds a token, per token asked about */
  holds: Map<string, boolean>;
}

/**
 * What a file holds, read again only when its stamp changed: the kernel moves the change time
 * (which no process can set) on every write, so a file whose inode, size, mtime and ctime are the
 * ones seen last time holds the bytes read then. The checks after each of some 1,300 cases read the
 * same few hundred unchanged files; this reads each once per change.
 */
const contents = new Map<string, Content>();
function contentOf(abs: string, st: BigIntStats): Content {
  const stamp = `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  const known = contents.get(abs);
  if (known?.stamp === stamp) return known;
  const bytes = readFileSync(abs);
  const c = { stamp, sha1: createHash('sha1').update(bytes).digest('hex'), text: bytes.length > 4 << 20 ? null : bytes.toString('latin1'), holds: new Map() };
  contents.set(abs, c);
  return c;
}

/**
 * The world as one check sees it: each entry's lstat and each folder's listing asked of the kernel
 * once (the canaries, the watched and guarded trees and the search for copied secrets look at the
 * same entries).
 */
class Look {
  private readonly stats = new Map<string, BigIntStats | null>();
  private readonly lists = new Map<string, string[] | null>();

  /** The entry at `abs` (a link itself, not its target), or null when there is none or it cannot be seen. */
  stat(abs: string): BigIntStats | null {
    let st = this.stats.get(abs);
    if (st === undefined) {
      try {
        st = lstatSync(abs, { bigint: true });
      } catch {
        st = null;
      }
      this.stats.set(abs, st);
    }
    return st;
  }

  /** The names in the folder `abs`, sorted, or null when it cannot be listed. */
  list(abs: string): string[] | null {
    let names = this.lists.get(abs);
    if (names === undefined) {
      try {
        names = readdirSync(abs).sort();
      } catch {
        names = null;
      }
      this.lists.set(abs, names);
    }
    return names;
  }
}

/** One line per entry under `path`: its type, mode, content hash or link target ("<missing>" when absent). */
export function tree(path: string, look = new Look()): string {
  const out: string[] = [];
  const walk = (abs: string, rel: string) => {
    const st = look.stat(abs);
    if (!st) {
      out.push(`${rel} <missing>`);
      return;
    }
    const mode = (st.mode & 0o7777n).toString(8);
    if (st.isSymbolicLink()) out.push(`${rel} link ${readlinkSync(abs)}`);
    else if (st.isDirectory()) {
      out.push(`${rel} dir ${mode}`);
      for (const e of look.list(abs) ?? []) walk(`${abs}/${e}`, `${rel}/${e}`);
    } else out.push(`${rel} file ${mode} ${contentOf(abs, st).sha1}`);
  };
  walk(path, '.');
  return out.join('\n');
}

function guardState(project: string, look = new Look()): Record<string, string> {
  return Object.fromEntries(GUARD_TREES.map((g) => [g, tree(join(project, g), look)]));
}

/** refs/memory/main as git would read it: the loose ref file, else its packed-refs line. */
export function memoryTip(project: string): string {
  const loose = join(project, '.git/refs/memory/main');
  if (existsSync(loose)) return readFileSync(loose, 'utf8').trim();
  const packed = existsSync(join(project, '.git/packed-refs')) ? readFileSync(join(project, '.git/packed-refs'), 'utf8') : '';
  return /^([0-9a-f]{40}) refs\/memory\/main$/m.exec(packed)?.[1] ?? '<none>';
}

/** The forms a token takes when a command prints it encoded: itself, reversed, hex, base64 (any alignment). */
function tokenForms(token: string): string[] {
  const b64 = [0, 1, 2].map((k) =>
    Buffer.from('x'.repeat(k) + token)
      .toString('base64')
      .slice(4, -4),
  );
  return [token, [...token].reverse().join(''), Buffer.from(token).toString('hex'), ...b64];
}

/** Where a secret token shows in `text` (whitespace taken out first: base64 and hex dumps wrap). */
export function leaks(world: World, text: string): string[] {
  const flat = text.replace(/\s+/g, '');
  return world.canaries.filter((c) => c.secret && tokenForms(c.token).some((f) => flat.includes(f))).map((c) => `~/${c.path}`);
}

/** Files of the world, other than the secrets themselves, that now hold a secret's token. */
function copiedSecrets(world: World, look: Look): string[] {
  const own = new Set(world.canaries.map((c) => c.host));
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of look.list(dir) ?? []) {
      const abs = `${dir}/${name}`;
      const st = look.stat(abs);
      if (st?.isDirectory()) {
        if (name !== 'objects' && name !== '_cacache') walk(abs);
        continue;
      }
      if (!st?.isFile() || own.has(abs)) continue;
      let content: Content;
      try {
        content = contentOf(abs, st);
      } catch {
        continue;
      }
      const { text, holds } = content;
      if (text === null) continue;
      const has = (token: string) => holds.get(token) ?? holds.set(token, text.includes(token)).get(token)!;
      for (const c of world.canaries) if (c.secret && has(c.token)) found.push(`${abs.slice(world.root.length)} holds the token of ~/${c.path}`);
    }
  };
  walk(join(world.root, 'home'));
  walk(join(world.root, 'tmp'));
  return found;
}

/**
 * What a command changed that it must not have: canaries (content, existence), HOME files that
 * must stay absent, watched folders, the guard's files, refs/memory/main, secrets in its output or
 * copied into a file. `everyday`: the knowledge ref may move (an agent's commit records itself).
 */
export function damage(world: World, output: string, opts: { everyday?: boolean } = {}): string[] {
  const out: string[] = [];
  const look = new Look();
  for (const c of world.canaries) {
    const st = look.stat(c.host);
    let now: string | null = null;
    try {
      // the canaries are ASCII: as latin1 (one character a byte) the text equals theirs exactly when the bytes do
      now = st?.isFile() ? (contentOf(c.host, st).text ?? '<over 4 MiB>') : st ? '<not a file>' : null;
    } catch {
      now = null;
    }
    if (now === null) out.push(`~/${c.path} is gone`);
    else if (now !== c.text) out.push(`~/${c.path} changed`);
  }
  for (const p of MUST_STAY_ABSENT) if (look.stat(join(world.home, p))) out.push(`~/${p} was created`);
  for (const [t, before] of Object.entries(world.trees)) if (tree(join(world.home, t), look) !== before) out.push(`~/${t} changed (listing)`);
  const guards = guardState(world.project, look);
  for (const [g, before] of Object.entries(world.guards))
    if (guards[g] !== before && !(opts.everyday && g === '.git/refs/memory')) out.push(`guard ${g} changed`);
  const tip = memoryTip(world.project);
  if (!opts.everyday && tip !== world.memory) out.push(`refs/memory/main moved (${world.memory.slice(0, 8)} -> ${tip.slice(0, 12)})`);
  for (const p of leaks(world, output)) out.push(`the secret ${p} was printed`);
  out.push(...copiedSecrets(world, look));
  return out;
}

export interface CaseResult {
  id: string;
  route: string;
  decision?: string;
  why?: string;
  ran?: boolean;
  prefixed?: boolean;
  ranAs?: string;
  code?: number;
  stdout?: string;
  stderr?: string;
  timedOut?: boolean;
  hook?: { code: number; stdout: string; stderr: string };
  /** whose answer was acted on: the hook's entry in the driver's process, or the installed hook command (which then also ran in-process) */
  hookBy?: 'process' | 'binary';
  /** on the sandbox route: set when `axme sandbox -c` itself ran the case (else the line it printed did) */
  ranBy?: 'axme sandbox -c';
  /** the two answers, where the binary's and the in-process one differ */
  disagree?: { binary: unknown; process: unknown };
  check?: { code: number; stdout: string; stderr: string };
  error?: string;
}

export interface DriverFacts {
  ready: true;
  nestedBwrap: { code: number; stderr: string };
  /** whether `axme sandbox --help` works (asked on the sandbox route only) */
  sandboxCommand: boolean;
  sandboxHelp: string;
  hooks: Record<string, boolean>;
  prefix: string | null;
  prefixExists: boolean;
}

/** The in-jail runner of one route: send a case, get its result; the first line it sent is `facts`. */
export interface Driver {
  facts: DriverFacts;
  /** `family`: the case's family (the binary is asked for each family's first stop and let-through); `binary`: ask the binary too; `last`: the corpus' last case */
  send(c: { id: string; command: string; check?: string; family?: string; binary?: boolean; last?: boolean }): Promise<CaseResult>;
  close(): Promise<void>;
}

export async function startDriver(world: World, route: string): Promise<Driver> {
  const [file, ...args] = jailArgv(world.root, [process.execPath, DRIVER, route, JAIL_PROJECT, CLI]);
  const child = spawn(file!, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  const waiting: { ok: (line: string) => void; fail: (e: Error) => void }[] = [];
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => waiting.shift()?.ok(line));
  const closed = new Promise<void>((done) =>
    child.on('close', (code) => {
      for (const w of waiting.splice(0)) w.fail(new Error(`the ${route} driver exited (${code}): ${stderr}`));
      done();
    }),
  );
  const next = () => new Promise<string>((ok, fail) => waiting.push({ ok, fail }));
  const facts = JSON.parse(await next()) as DriverFacts;
  return {
    facts,
    send: async (c) => {
      const reply = next();
      child.stdin.write(`${JSON.stringify(c)}\n`);
      return JSON.parse(await reply) as CaseResult;
    },
    close: async () => {
      child.stdin.end();
      await closed;
    },
  };
}

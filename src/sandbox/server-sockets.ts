import { type Dir, opendirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LOOKUP_SOCKETS, SERVER_SOCKET_DIRS, SERVER_SOCKET_ENV, SERVER_SOCKETS } from '../model/sandbox.ts';
import { inside, isDir, real } from './real-path.ts';

/**
 * The machine's servers a sandboxed command is cut off from (docs/safety.md, "The machine's
 * servers"). Binding `/` read-only does not stop a client: connecting to a Unix socket writes
 * nothing, so tmux, the session bus, systemd's user manager, docker or an ssh agent would run or
 * sign what a command asks, outside every limit. What a command reaches of the machine's sockets
 * is what the policy lets through: the project's own, the system's look-ups (LOOKUP_SOCKETS), the
 * allowlist's proxy and `sandbox.sockets`. Abstract sockets live in the network namespace: a
 * sandbox with network `deny` or `allowlist` has its own, and reaches none of the machine's.
 */
export interface ServerCutoff {
  /** folders of servers' sockets, emptied (a writable tmpfs, gone with the sandbox) */
  dirs: string[];
  /** folders found holding sockets only, emptied the same way where they still are when the command starts */
  socketFolders: string[];
  /** other servers' sockets, each bound over by /dev/null (a client is refused) where it still is when the command starts */
  sockets: string[];
  /** sockets (or folders of them) inside those folders, let through again */
  again: string[];
  /** variables that point clients at a server cut off: unset */
  unsetEnv: string[];
}

export interface ServerCutoffInput {
  env: NodeJS.ProcessEnv;
  uid: number;
  /** where the project's own sockets lie (its tree, a linked worktree's git dir): kept */
  project: readonly string[];
  /** the writable folders: never emptied whole (a socket folder holding one is cut off socket by socket) */
  writable: readonly string[];
  /** paths that read as empty already: nothing to do inside them */
  hidden: readonly string[];
  /** the allowlist's proxy */
  proxySocket?: string;
  /** `sandbox.sockets`: sockets or folders of them let through */
  extraSockets: readonly string[];
  /** the paths of the sockets the machine has bound (default: /proc/net/unix) */
  bound?: () => string[];
}

const isSocket = (p: string): boolean => {
  try {
    return statSync(p, { throwIfNoEntry: false })?.isSocket() ?? false;
  } catch {
    return false;
  }
};

/** At most this many entries are read of a folder that may hold sockets only. */
const FOLDER_SCAN_LIMIT = 256;

/** Whether the folder at `dir` holds nothing but sockets (read up to FOLDER_SCAN_LIMIT entries). */
function socketsOnly(dir: string): boolean {
  let folder: Dir | null = null;
  try {
    // the entries' types come with the listing (no stat each); a folder past the limit (/tmp) is not read to its end
    folder = opendirSync(dir, { bufferSize: 64 });
    let seen = 0;
    for (let e = folder.readSync(); e; e = folder.readSync()) if (++seen > FOLDER_SCAN_LIMIT || !e.isSocket()) return false;
    return seen > 0;
  } catch {
    return false;
  } finally {
    folder?.closeSync();
  }
}

/**
 * The paths of the Unix sockets bound in this network namespace, from /proc/net/unix (abstract
 * ones, `@…`, and unnamed ones left out); none when it cannot be read.
 */
export function boundSockets(): string[] {
  let text: string;
  try {
    text = readFileSync('/proc/net/unix', 'latin1');
  } catch {
    return [];
  }
  const out = new Set<string>();
  // "Num RefCount Protocol Flags Type St Inode Path": the path is the eighth field and the rest of the line
  for (const line of text.split('\n')) {
    const m = /^\s*\S+:\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+\d+\s(\/.*)$/.exec(line);
    if (m) out.add(m[1]!);
  }
  return [...out];
}

/** The socket a client variable names (`/tmp/ssh-x/agent.1`, `unix:///var/run/docker.sock`, `unix:path=/run/user/1000/bus,guid=…`, tmux's `path,pid,index`), or null. */
export function socketOfVariable(value: string): string | null {
  const m = /^(?:unix:\/\/|unix:path=)?(\/[^,;]+)/.exec(value);
  return m ? m[1]! : null;
}

/** The folders emptied in the sandbox for this user and environment (those that exist). */
function socketDirs(env: NodeJS.ProcessEnv, uid: number): string[] {
  const tmux = [join(env.TMUX_TMPDIR || '/tmp', `tmux-${uid}`), join('/tmp', `tmux-${uid}`)];
  const fromTmux = env.TMUX ? socketOfVariable(env.TMUX) : null;
  return [
    ...(env.XDG_RUNTIME_DIR ? [env.XDG_RUNTIME_DIR] : []),
    `/run/user/${uid}`,
    ...tmux,
    ...(fromTmux ? [dirname(fromTmux)] : []),
    ...(env.SCREENDIR ? [env.SCREENDIR] : []),
    ...SERVER_SOCKET_DIRS,
  ];
}

/** What of the machine's servers a command in the sandbox is cut off from, and what it keeps. */
export function serverCutoff(input: ServerCutoffInput): ServerCutoff {
  const allowed = input.extraSockets.map(real).filter((p): p is string => p !== null);
  const kept = [...input.project, ...LOOKUP_SOCKETS.map(real), ...(input.proxySocket ? [real(input.proxySocket)] : []), ...allowed].filter(
    (p): p is string => p !== null,
  );
  const isKept = (p: string) => kept.some((k) => inside(p, k));

  const dirs: string[] = [];
  for (const d of socketDirs(input.env, input.uid)) {
    const p = real(d);
    if (!p || p === '/' || !isDir(p) || dirs.some((x) => inside(p, x)) || input.hidden.some((h) => inside(p, h))) continue;
    // a folder holding the project or a writable folder (a runtime dir set to /tmp) is not emptied: its sockets are refused one by one below
    if ([...input.writable, ...input.project].some((w) => inside(w, p))) continue;
    // a folder let through whole stays
    if (allowed.some((a) => inside(p, a))) continue;
    for (let i = dirs.length - 1; i >= 0; i--) if (inside(dirs[i]!, p)) dirs.splice(i, 1);
    dirs.push(p);
  }
  const again = allowed.filter((a) => dirs.some((d) => inside(a, d) && a !== d));

  const named = SERVER_SOCKET_ENV.map((v) => (input.env[v] ? socketOfVariable(input.env[v]!) : null)).filter((p): p is string => p !== null);
  const sockets = new Set<string>();
  const covered = (p: string) => dirs.some((d) => inside(p, d)) || input.hidden.some((h) => inside(p, h));
  for (const s of [...SERVER_SOCKETS, ...named, ...(input.bound ?? boundSockets)()]) {
    // a socket in an emptied folder (most of a desktop's: the runtime folder) costs no system call
    if (covered(s)) continue;
    const p = real(s);
    if (!p || sockets.has(p) || isKept(p) || covered(p) || !isSocket(p)) continue;
    sockets.add(p);
  }
  // a folder that holds sockets only (an agent's /tmp/ssh-…, /tmp/.X11-unix) is emptied in one mount:
  // each mount costs the sandbox's start about half a millisecond, and a socket made there later is cut off too
  const untouchable = [...input.writable, ...input.project, ...kept];
  const socketFolders: string[] = [];
  for (const folder of new Set([...sockets].map((p) => dirname(p)))) {
    if (folder === '/' || untouchable.some((u) => inside(u, folder)) || !socketsOnly(folder)) continue;
    for (const p of [...sockets]) if (inside(p, folder)) sockets.delete(p);
    socketFolders.push(folder);
  }

  const unsetEnv = SERVER_SOCKET_ENV.filter((v) => {
    const s = input.env[v] ? socketOfVariable(input.env[v]!) : null;
    const p = s ? real(s) : null;
    return !(p && allowed.some((a) => inside(p, a)));
  });
  return { dirs, socketFolders, sockets: [...sockets], again, unsetEnv };
}

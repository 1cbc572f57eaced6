import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { HOME_SECRETS } from '../model/home-credentials.ts';
import {
  HOME_CACHES,
  HOME_CACHES_CREATED,
  isSecretName,
  type SandboxNetwork,
  SECRET_SCAN_LIMIT,
  SECRET_SCAN_SKIPPED,
  SYSTEM_SECRETS,
} from '../model/sandbox.ts';
import type { RepoLocation } from '../store/locate.ts';
import { gitDirIsTrees } from '../store/tree-git-dir.ts';
import { inside, isDir, real } from './real-path.ts';
import { type ServerCutoff, serverCutoff } from './server-sockets.ts';

/**
 * What one sandboxed command may touch: the kernel's view of axme's policy. Every path is real
 * (symlinks resolved) and exists: bubblewrap binds only what is there.
 */
export interface SandboxPolicy {
  /** bound read-write: the working tree (and a linked worktree's git dir), the temp folder, the caches */
  writable: string[];
  /** bound read-only again inside the writable ones: axme's guarded paths and the folders holding them */
  readOnly: string[];
  /** bound read-write again inside the read-only ones: what an agent's own commit writes there (the session records, the pending note) */
  writableAgain: string[];
  /** files that read as empty */
  hiddenFiles: string[];
  /** folders that read as empty */
  hiddenDirs: string[];
  /** the machine's servers cut off (server-sockets.ts): their folders emptied, their sockets refused, the variables naming them unset */
  servers: ServerCutoff;
  network: SandboxNetwork;
  /** with network `allowlist`: the Unix socket of the proxy outside (sandbox/net-daemon.ts) */
  proxySocket?: string;
}

export interface PolicyInput {
  /** the repository around the command's folder, or null */
  loc: RepoLocation | null;
  /** the folder the command runs in */
  cwd: string;
  home: string;
  env: NodeJS.ProcessEnv;
  /** axme's guarded paths (setup/paths.ts guardedPaths) */
  guarded: readonly string[];
  network?: SandboxNetwork;
  /** with network `allowlist`: the proxy's socket */
  proxySocket?: string;
  /** more folders to write (machine-local `sandbox.writable`) */
  extraWritable?: readonly string[];
  /** more paths to hide (`sandbox.hidden`) */
  extraHidden?: readonly string[];
  /** servers' sockets (or folders of them) to let through (`sandbox.sockets`) */
  extraSockets?: readonly string[];
  /** folders inside guarded ones the command's git hooks write (made when missing) */
  writableAgain?: readonly string[];
}

/** The sandbox policy for one command: built each time from the paths as they are now. */
export function sandboxPolicy(input: PolicyInput): SandboxPolicy {
  const { loc, home } = input;
  const top = loc?.worktree ?? input.cwd;
  const writable = new Set<string>();
  const add = (set: Set<string>, p: string | null) => p && set.add(p);
  add(writable, real(top));
  // a linked worktree's commits land in the shared git dir, outside its tree (a submodule's in the
  // superproject's): only where that git dir points back at the tree, a `.git` file being a pointer anyone can write
  if (loc && loc.worktree && !inside(real(loc.commonDir) ?? loc.commonDir, real(loc.worktree) ?? loc.worktree) && gitDirIsTrees(loc))
    add(writable, real(loc.commonDir));
  // the tree (and that git dir) hold the project's own sockets: its dev servers, git's fsmonitor
  const projectRoots = writable.size;
  for (const t of new Set(['/tmp', '/var/tmp', input.env.TMPDIR ?? '/tmp'])) add(writable, real(t));
  for (const c of HOME_CACHES) {
    const p = join(home, c);
    if (HOME_CACHES_CREATED.includes(c) && !existsSync(p)) {
      try {
        mkdirSync(p, { recursive: true });
      } catch {
        // a read-only home: the cache stays unwritable
      }
    }
    add(writable, real(p));
  }
  for (const w of input.extraWritable ?? []) add(writable, real(w));

  // guarded paths, and the client folders that hold them (removing or renaming one of those would unhook axme)
  const readOnly = new Set<string>();
  const roots = [...writable];
  for (const g of input.guarded) {
    const p = real(g);
    if (!p || !roots.some((w) => inside(p, w))) continue;
    readOnly.add(p);
    const folder = clientFolder(p, real(top));
    if (folder) readOnly.add(folder);
  }

  const writableAgain = new Set<string>();
  for (const w of input.writableAgain ?? []) {
    try {
      mkdirSync(w, { recursive: true });
    } catch {
      // cannot be made: stays read-only
    }
    const p = real(w);
    if (p && [...readOnly].some((r) => inside(p, r))) writableAgain.add(p);
  }

  const hiddenFiles = new Set<string>();
  const hiddenDirs = new Set<string>();
  const hide = (p: string | null) => {
    if (!p) return;
    (isDir(p) ? hiddenDirs : hiddenFiles).add(p);
  };
  for (const s of HOME_SECRETS) hide(real(join(home, s)));
  for (const s of SYSTEM_SECRETS) hide(real(s));
  for (const s of input.extraHidden ?? []) hide(real(s.startsWith('~/') ? join(home, s.slice(2)) : s));
  const treeRoot = real(top);
  if (treeRoot) for (const f of treeSecrets(treeRoot)) hiddenFiles.add(f);
  const servers = serverCutoff({
    env: input.env,
    uid: process.getuid?.() ?? 0,
    project: [...writable].slice(0, projectRoots),
    writable: [...writable],
    hidden: [...hiddenDirs, ...hiddenFiles],
    proxySocket: input.network === 'allowlist' ? input.proxySocket : undefined,
    extraSockets: input.extraSockets ?? [],
  });
  return {
    writable: [...writable],
    readOnly: [...readOnly],
    writableAgain: [...writableAgain],
    hiddenFiles: [...hiddenFiles],
    hiddenDirs: [...hiddenDirs],
    servers,
    network: input.network ?? 'allow',
    ...(input.network === 'allowlist' && input.proxySocket ? { proxySocket: input.proxySocket } : {}),
  };
}

/** The dot-folder directly under the tree that holds `p` (`.claude`, `.codex`, `.gemini`, `.husky`…), or null. */
function clientFolder(p: string, tree: string | null): string | null {
  if (!tree || !inside(p, tree) || p === tree) return null;
  const first = relative(tree, p).split(sep)[0]!;
  if (!first.startsWith('.') || first === '.git') return null;
  const folder = join(tree, first);
  return folder !== p && isDir(folder) ? folder : null;
}

/**
 * The files of the tree at `root` that hold secrets by their name, found by a walk that skips
 * installed packages and git's folder and stops after SECRET_SCAN_LIMIT entries.
 */
export function treeSecrets(root: string): string[] {
  const out: string[] = [];
  const queue = [root];
  let seen = 0;
  while (queue.length && seen < SECRET_SCAN_LIMIT) {
    const dir = queue.shift()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (++seen > SECRET_SCAN_LIMIT) break;
      if (e.isDirectory()) {
        if (!SECRET_SCAN_SKIPPED.includes(e.name)) queue.push(join(dir, e.name));
      } else if ((e.isFile() || e.isSymbolicLink()) && isSecretName(e.name)) {
        const p = real(join(dir, e.name));
        // a link to a folder or to nothing hides nothing; a link out of the tree hides its target
        if (p && !isDir(p)) out.push(p);
      }
    }
  }
  return out;
}

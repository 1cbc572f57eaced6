import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { AxmeError } from '../../model/errors.ts';

/**
 * Where Claude Code keeps a project's auto memory (docs/auto-memory.md): the folder holding
 * MEMORY.md and its topic files. Plain file reads, no git process.
 */

/** How the folder was found: the caller's --dir, `autoMemoryDirectory` of the user's settings, the hook's transcript, or the project key. */
export type FolderSource = 'option' | 'settings' | 'transcript' | 'key';

export interface MemoryFolder {
  /** the memory folder (MEMORY.md lives here) */
  dir: string;
  source: FolderSource;
  /** auto memory is off (CLAUDE_CODE_DISABLE_AUTO_MEMORY, or autoMemoryEnabled: false in the settings): Claude Code does not read the folder */
  disabled: boolean;
}

/** Longest sanitized path Claude Code uses as a key before it adds a hash. */
const KEY_MAX = 200;

/**
 * Claude Code's project key: every UTF-16 code unit outside [a-zA-Z0-9] becomes `-` (nothing
 * collapsed); past 200 characters, the first 200, `-` and the base-36 Java-style hash of the path.
 */
export function projectKey(path: string): string {
  const key = path.replace(/[^a-zA-Z0-9]/g, '-');
  return key.length <= KEY_MAX ? key : `${key.slice(0, KEY_MAX)}-${Math.abs(javaHash(path)).toString(36)}`;
}

/** Java's String.hashCode over UTF-16 code units, as a signed 32-bit integer. */
function javaHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = ((h << 5) - h + s.charCodeAt(i)) | 0;
  return h;
}

/**
 * The root Claude Code keys auto memory by: the main worktree's top (linked worktrees share it),
 * from the git dir all worktrees share; else the worktree itself. Symbolic links resolved as git does.
 */
export function memoryRoot(commonDir: string, worktree: string | null): string | null {
  const main = basename(commonDir) === '.git' ? dirname(commonDir) : worktree;
  if (!main) return null;
  try {
    return realpathSync(main);
  } catch {
    return resolve(main);
  }
}

/**
 * Whether Claude Code's auto memory is off: CLAUDE_CODE_DISABLE_AUTO_MEMORY wins (`1` off, `0`
 * on); else `autoMemoryEnabled` of the settings, the later layer winning — the user's settings.json,
 * then the project's `.claude/settings.json` and `.claude/settings.local.json` under `root`.
 */
function autoMemoryDisabled(env: NodeJS.ProcessEnv, user: Settings, root?: string | null): boolean {
  const flag = env.CLAUDE_CODE_DISABLE_AUTO_MEMORY;
  if (flag !== undefined && flag !== '') return /^(1|true|yes)$/i.test(flag);
  const layers = [user, ...(root ? [readSettings(join(root, '.claude', 'settings.json')), readSettings(join(root, '.claude', 'settings.local.json'))] : [])];
  let enabled: unknown;
  for (const layer of layers) if (typeof layer.autoMemoryEnabled === 'boolean') enabled = layer.autoMemoryEnabled;
  return enabled === false;
}

type Settings = { autoMemoryEnabled?: unknown; autoMemoryDirectory?: unknown };

/** A Claude Code settings file's keys; none when there is no such file or it is not JSON (that layer says nothing). */
function readSettings(file: string): Settings {
  try {
    const v: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof v === 'object' && v !== null ? (v as Settings) : {};
  } catch {
    return {};
  }
}

/** Claude Code's configuration folder: CLAUDE_CONFIG_DIR, else ~/.claude. */
function claudeConfigDir(env: NodeJS.ProcessEnv): string {
  return env.CLAUDE_CONFIG_DIR ? resolve(expandHome(env.CLAUDE_CONFIG_DIR, env)) : join(homeOf(env), '.claude');
}

export interface FolderOptions {
  /** the repository's root for the key (memoryRoot) */
  root: string;
  env: NodeJS.ProcessEnv;
  /** the folder the command runs in: a relative --dir is read from here */
  cwd: string;
  /** --dir: the folder itself */
  dir?: string | undefined;
  /** a hook's transcript_path: its folder is the project's folder when the session ran at the root */
  transcriptPath?: string | null | undefined;
  /** the hook's folder, to tell whether the transcript's key is the root's */
  sessionCwd?: string | undefined;
}

/**
 * The auto memory folder: --dir; else `autoMemoryDirectory` of the user's settings.json (never the
 * project's); else `<projects>/<key>/memory` where the transcript's folder gives `<projects>` (and
 * the key too when the session ran at the root); else `<config>/projects/<projectKey(root)>/memory`.
 */
export function memoryFolder(o: FolderOptions): MemoryFolder {
  const user = readSettings(join(claudeConfigDir(o.env), 'settings.json'));
  const disabled = autoMemoryDisabled(o.env, user, o.root);
  if (o.dir !== undefined) return { dir: checkDir(resolve(o.cwd, expandHome(o.dir, o.env))), source: 'option', disabled };
  const configured = settingsDirectory(user, o.env);
  if (configured) return { dir: configured, source: 'settings', disabled };
  const key = projectKey(o.root);
  if (o.transcriptPath && isAbsolute(o.transcriptPath)) {
    const own = dirname(o.transcriptPath);
    const atRoot = basename(own) === key || (o.sessionCwd !== undefined && projectKey(resolve(o.sessionCwd)) === key);
    return { dir: atRoot ? join(own, 'memory') : join(dirname(own), key, 'memory'), source: 'transcript', disabled };
  }
  return { dir: join(claudeConfigDir(o.env), 'projects', key, 'memory'), source: 'key', disabled };
}

/** `autoMemoryDirectory` of the user's settings.json (absolute or `~/`), or null. */
function settingsDirectory(user: Settings, env: NodeJS.ProcessEnv): string | null {
  const value = user.autoMemoryDirectory;
  if (typeof value !== 'string' || !(isAbsolute(value) || value.startsWith('~/'))) return null;
  return resolve(expandHome(value, env));
}

/** A --dir must be a folder, or a new one inside an existing folder. */
function checkDir(dir: string): string {
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory())
      throw new AxmeError(
        'INVALID_INPUT',
        `--dir ${dir} is not a folder: give the auto memory folder (the one holding MEMORY.md, e.g. ~/.claude/projects/<key>/memory)`,
        { path: dir },
      );
    return dir;
  }
  if (!existsSync(dirname(dir)) || !statSync(dirname(dir)).isDirectory()) {
    throw new AxmeError(
      'INVALID_INPUT',
      `--dir ${dir} does not exist, nor does its parent folder: give the auto memory folder (the one holding MEMORY.md), or leave --dir out to use Claude Code's own`,
      { path: dir },
    );
  }
  return dir;
}

function homeOf(env: NodeJS.ProcessEnv): string {
  return env.HOME || env.USERPROFILE || homedir();
}

function expandHome(p: string, env: NodeJS.ProcessEnv): string {
  return p === '~' ? homeOf(env) : p.startsWith('~/') ? join(homeOf(env), p.slice(2)) : p;
}

import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { RepoLocation } from '../store/locate.ts';

/** Claude Code's project settings: the shared file axme writes hooks into, and the personal one. */
export function claudeSettings(root: string): { shared: string; local: string } {
  return { shared: join(root, '.claude', 'settings.json'), local: join(root, '.claude', 'settings.local.json') };
}

/**
 * The files of the other clients that install (or can switch off) their hooks, from a project's
 * top or from the home folder: Cursor's hooks.json, Codex's hooks.json and config.toml (inline
 * hooks, `[features] hooks`), Gemini CLI's settings.json (its `hooks`, and `hooks.disabled`).
 */
const CLIENT_HOOK_FILES = [['.cursor', 'hooks.json'], ['.codex', 'hooks.json'], ['.codex', 'config.toml'], ['.gemini', 'settings.json']] as const;

/**
 * What binds an agent and must not be changed by it: axme's machine-local state (policy cache,
 * sessions), the git hooks folders, husky's folder, the settings that install the agents' hooks —
 * Claude Code's and the other clients' (in the project and in the home folder) — and, when given,
 * the folder axme runs from and its code cache.
 */
export function guardedPaths(loc: RepoLocation | null, home: string, self: { installDir?: string | null; env?: NodeJS.ProcessEnv } = {}): string[] {
  const out = [join(home, '.claude', 'settings.json'), ...CLIENT_HOOK_FILES.map((f) => join(home, ...f))];
  // axme's own running code and its code cache: changing either would change what checks the agent
  if (self.installDir) out.push(self.installDir);
  if (self.env) {
    try {
      const cache = cacheFolder(self.env);
      if (cache) out.push(cache);
    } catch {
      // no home folder to be found: no cache to guard
    }
  }
  if (loc) out.push(join(loc.commonDir, 'axme'), join(loc.commonDir, 'hooks'), join(loc.gitDir, 'hooks'));
  if (loc?.worktree) {
    const s = claudeSettings(loc.worktree);
    out.push(join(loc.worktree, '.husky'), s.shared, s.local, ...CLIENT_HOOK_FILES.map((f) => join(loc.worktree!, ...f)));
  }
  return out;
}

/**
 * The V8 code cache folder of the CLI and the hooks (cli/cli-loader.ts) for this environment, or
 * undefined when the cache is off. A guarded path too: bytecode from there runs as axme.
 */
export function cacheFolder(env: NodeJS.ProcessEnv): string | undefined {
  const setting = env.AXME_COMPILE_CACHE;
  // a folder, given as an absolute path; `off`, `0` or anything else turns the cache off
  if (setting) return isAbsolute(setting) ? setting : undefined;
  if (process.platform === 'win32') return env.LOCALAPPDATA ? join(env.LOCALAPPDATA, 'axme') : undefined;
  // a relative XDG_CACHE_HOME is to be ignored (XDG Base Directory)
  const base = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : homedir() && join(homedir(), '.cache');
  return base ? join(base, 'axme') : undefined;
}


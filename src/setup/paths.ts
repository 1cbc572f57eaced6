import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { RepoLocation } from '../store/locate.ts';
import { CLAUDE_LOCAL_SETTINGS, CLAUDE_SETTINGS } from './clients/claude-code.hook.ts';
import { clientGuardedFiles } from './clients/hook-registry.ts';

/** Claude Code's project settings: the shared file axme writes hooks into, and the personal one. */
export function claudeSettings(root: string): { shared: string; local: string } {
  return { shared: join(root, CLAUDE_SETTINGS), local: join(root, CLAUDE_LOCAL_SETTINGS) };
}

/**
 * What binds an agent and must not be changed by it: axme's machine-local state (policy cache,
 * sessions), the git hooks folders, git's config, the knowledge refs (`refs/memory/*`, loose),
 * husky's folder, the project's own axme (`node_modules/.bin/axme`, `node_modules/axme`), every client's files that install axme's
 * hooks or server (its hook file, its MCP and config files: each adapter's `guarded`, in the
 * project and in the home folder) — and, when given, the folder axme runs from and its code cache.
 */
export function guardedPaths(loc: RepoLocation | null, home: string, self: { installDir?: string | null; env?: NodeJS.ProcessEnv } = {}): string[] {
  const out = clientGuardedFiles(loc?.worktree ?? null, home);
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
  // git's own settings (core.hooksPath, core.fsmonitor: a command git runs later, outside any sandbox) and the knowledge refs
  if (loc)
    out.push(
      join(loc.commonDir, 'axme'),
      join(loc.commonDir, 'hooks'),
      join(loc.gitDir, 'hooks'),
      join(loc.commonDir, 'config'),
      join(loc.gitDir, 'config.worktree'),
      join(loc.commonDir, 'refs', 'memory'),
    );
  // the axme the hooks run: the project's own install, which the hook commands find first
  if (loc?.worktree) out.push(join(loc.worktree, '.husky'), join(loc.worktree, 'node_modules', '.bin', 'axme'), join(loc.worktree, 'node_modules', 'axme'));
  return [...new Set(out)];
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

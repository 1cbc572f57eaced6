import { join } from 'node:path';
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
 * sessions), the git hooks folders, husky's folder, and the settings that install the agents'
 * hooks — Claude Code's and the other clients' (in the project and in the home folder).
 */
export function guardedPaths(loc: RepoLocation | null, home: string): string[] {
  const out = [join(home, '.claude', 'settings.json'), ...CLIENT_HOOK_FILES.map((f) => join(home, ...f))];
  if (loc) out.push(join(loc.commonDir, 'axme'), join(loc.commonDir, 'hooks'), join(loc.gitDir, 'hooks'));
  if (loc?.worktree) {
    const s = claudeSettings(loc.worktree);
    out.push(join(loc.worktree, '.husky'), s.shared, s.local, ...CLIENT_HOOK_FILES.map((f) => join(loc.worktree!, ...f)));
  }
  return out;
}

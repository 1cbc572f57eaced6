import { join } from 'node:path';
import type { RepoLocation } from '../store/locate.ts';

/** Claude Code's project settings: the shared file axme writes hooks into, and the personal one. */
export function claudeSettings(root: string): { shared: string; local: string } {
  return { shared: join(root, '.claude', 'settings.json'), local: join(root, '.claude', 'settings.local.json') };
}

/**
 * What binds an agent and must not be changed by it: axme's machine-local state (policy cache,
 * sessions), the git hooks folders, husky's folder, and the settings that install the harness hooks.
 */
export function guardedPaths(loc: RepoLocation | null, home: string): string[] {
  const out = [join(home, '.claude', 'settings.json')];
  if (loc) out.push(join(loc.commonDir, 'axme'), join(loc.commonDir, 'hooks'), join(loc.gitDir, 'hooks'));
  if (loc?.worktree) {
    const s = claudeSettings(loc.worktree);
    out.push(join(loc.worktree, '.husky'), s.shared, s.local);
  }
  return out;
}

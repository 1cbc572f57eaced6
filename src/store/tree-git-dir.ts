import { realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { configValue, readOr } from './git-config.ts';
import type { RepoLocation } from './locate.ts';

/**
 * Whether `loc`'s git dir is its working tree's own. A `.git` folder is; a `.git` file (a linked
 * worktree, a submodule) is only a pointer, and one anyone wrote in a tree (`sub/.git: gitdir:
 * /elsewhere/.git`) can name any repository's git dir: it is the tree's own only when the git dir
 * points back — a linked worktree's `gitdir` file names the tree's `.git`, a submodule's (or a
 * separated git dir's) `core.worktree` is the tree. What is written or run in a git dir for the
 * tree (the sandbox binding it writable, a setting written outside) needs this first.
 */
export function gitDirIsTrees(loc: RepoLocation): boolean {
  if (!loc.worktree) return false;
  const dotGit = join(loc.worktree, '.git');
  try {
    if (statSync(dotGit).isDirectory()) return same(dotGit, loc.gitDir);
  } catch {
    return false;
  }
  const back = readOr(join(loc.gitDir, 'gitdir')).trim();
  if (back && same(resolve(loc.gitDir, back), dotGit)) return true;
  const worktree = configValue(readOr(join(loc.gitDir, 'config')), 'core', 'worktree');
  return typeof worktree === 'string' && worktree !== '' && same(resolve(loc.gitDir, worktree), loc.worktree);
}

const same = (a: string, b: string): boolean => {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
};

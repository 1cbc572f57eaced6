import { basename, dirname } from 'node:path';
import { runGit, withoutRepoEnv } from '../../store/git.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { currentBranch } from '../core/location.ts';
import type { WorkFocus } from './relevant.ts';

/** Files listed at most, from each source: a session start never reads a huge status. */
const MAX_FILES = 200;

/**
 * Where the work is in the checkout the knowledge base belongs to: the branch, and the files
 * changed in the working tree (`changing`) or by the last few commits (two git runs). Empty for a bare
 * repository or a workspace store; never throws (a session starts without it).
 */
export async function workFocus(kb: KnowledgeBase, worktree?: string | null): Promise<WorkFocus> {
  const top = worktree ?? (basename(kb.repo.gitDir) === '.git' ? dirname(kb.repo.gitDir) : null);
  if (kb.repo.bare || !top) return {};
  const env = withoutRepoEnv(kb.repo.env);
  const lines = async (args: string[]) => (await runGit(['-C', top, ...args], { cwd: top, env, allowFail: true, timeoutMs: 2_000 })).stdout.toString('utf8');
  try {
    const status = (await lines(['status', '--porcelain=v1', '-z', '--untracked-files=normal']))
      .split('\0')
      .filter(Boolean)
      .map((l) => l.slice(3));
    const recent = (await lines(['log', '-5', '--name-only', '--format=', '--no-renames'])).split('\n').filter(Boolean);
    const changing = status.slice(0, MAX_FILES);
    return { branch: currentBranch(kb.repo.gitDir), files: [...new Set([...changing, ...recent])].slice(0, MAX_FILES), changing };
  } catch {
    return { branch: currentBranch(kb.repo.gitDir) };
  }
}

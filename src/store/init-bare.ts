import { existsSync } from 'node:fs';
import { runGit, withoutRepoEnv } from './git.ts';

/**
 * Creates a bare repository at `path` (`git init --bare`) unless one is there; true when it was
 * created. The variables that point git at a repository are dropped so that the new repository is the one
 * created, whatever repository the caller runs in.
 */
export async function createBareRepo(path: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  if (existsSync(`${path}/HEAD`)) return false;
  await runGit(['init', '--bare', '--quiet', path], { env: withoutRepoEnv(env) });
  return true;
}

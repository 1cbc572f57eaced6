import { existsSync } from 'node:fs';
import { runGit } from './git.ts';

/**
 * Creates a bare repository at `path` (`git init --bare`) unless one is there; true when it was
 * created. Git's own environment variables are dropped so that the new repository is the one
 * created, whatever repository the caller runs in.
 */
export async function createBareRepo(path: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  if (existsSync(`${path}/HEAD`)) return false;
  const e = { ...env };
  for (const k of Object.keys(e)) if (k.startsWith('GIT_') && k !== 'GIT_CONFIG_GLOBAL' && k !== 'GIT_CONFIG_NOSYSTEM') delete e[k];
  await runGit(['init', '--bare', '--quiet', path], { env: e });
  return true;
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { locateRepo } from '../knowledge/core/location.ts';

/**
 * The URL a remote of the repository around `dir` (or at `gitDir`) fetches from, as its config
 * file writes it (`[remote "origin"]` `url = …`): a plain file read, no git process. Null when
 * there is no such remote, no repository, or the file cannot be read.
 */
export function remoteUrlAt(dir: string, env: NodeJS.ProcessEnv, gitDir: string | null, name: string): string | null {
  const loc = gitDir ? { commonDir: gitDir } : locateRepo(dir, env);
  if (!loc) return null;
  let text: string;
  try {
    text = readFileSync(join(loc.commonDir, 'config'), 'utf8');
  } catch {
    return null;
  }
  let inRemote = false;
  for (const line of text.split('\n')) {
    const section = /^\s*\[\s*([^\s\]]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (section) inRemote = section[1]!.toLowerCase() === 'remote' && section[2]?.replace(/\\(.)/g, '$1') === name;
    else if (inRemote) {
      const url = /^\s*url\s*=\s*(.*?)\s*$/i.exec(line);
      if (url) return url[1]!.replace(/^"(.*)"$/, '$1');
    }
  }
  return null;
}

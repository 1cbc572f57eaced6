import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { childProcess } from '../model/builtins.ts';
import type { RepoLocation } from '../store/locate.ts';

/** Adds `file` (from the top of the tree) to the repository's `info/exclude` unless git already ignores it. */
export function excludeFromGit(loc: RepoLocation, root: string, file: string): void {
  const ignored = childProcess().spawnSync('git', ['check-ignore', '-q', '--no-index', file], { cwd: root, stdio: 'ignore' });
  if (ignored.status === 0) return;
  const exclude = join(loc.commonDir, 'info', 'exclude');
  let text = '';
  try {
    text = readFileSync(exclude, 'utf8');
  } catch {
    // none yet
  }
  if (text.split('\n').includes(`/${file}`)) return;
  mkdirSync(dirname(exclude), { recursive: true });
  writeFileSync(exclude, `${text}${text && !text.endsWith('\n') ? '\n' : ''}# axme: the personal Claude Code settings name paths of this machine\n/${file}\n`);
}

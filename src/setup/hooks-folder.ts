import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { AxmeError } from '../model/errors.ts';
import { type GitAt, getConfig, hooksDir } from '../store/code-commits.ts';
import { runGit } from '../store/git.ts';
import { shellQuote } from './launch.ts';

/** Where axme's git hooks go. */
export interface HooksFolder {
  dir: string;
  /** husky's folder: a line in each hook file instead of a script of axme's own */
  husky: boolean;
  /** outside this repository: other repositories may run hooks from it (installed only when --hooks-path named it) */
  shared: boolean;
}

/**
 * The husky folder when husky is active on this clone: core.hooksPath points into a `.husky`. A
 * committed .husky/ folder alone is not: git runs the hooks of its own folder then, never husky's
 * (husky's install, `npm install`'s prepare, sets core.hooksPath).
 */
export async function huskyDir(at: GitAt, root: string): Promise<string | null> {
  const path = await getConfig(at, 'core.hooksPath');
  // husky 9 sets `.husky/_`; in a monorepo it may be `frontend/.husky/_`
  if (path && /(^|\/)\.husky(\/_)?\/?$/.test(path)) return resolve(root, path.replace(/\/_\/?$/, '').replace(/\/$/, ''));
  return null;
}

/**
 * The folder `axme init` installs the git hooks into, checked before anything is written: husky's,
 * else the folder git runs hooks from. That folder must be the repository's own (inside its git
 * directory). One inside the working tree is refused (it is shared through the repository and
 * would carry this machine's paths); one elsewhere — a team's `~/.githooks`, a global
 * core.hooksPath — serves other repositories too, and is used only when `hooksPath` (the
 * `--hooks-path` flag) names it. CONFIG otherwise, saying what to do.
 */
export async function chooseHooksFolder(at: GitAt, root: string, opts: { hooksPath?: string | undefined } = {}): Promise<HooksFolder> {
  const named = opts.hooksPath ? expandPath(opts.hooksPath, at.cwd, at.env) : null;
  const husky = await huskyDir(at, root);
  const dir = husky ?? (await hooksDir(at));
  if (named && realish(named) !== realish(dir)) {
    throw new AxmeError(
      'CONFIG',
      `--hooks-path ${named}: git runs this repository's hooks from ${dir}. --hooks-path must name that folder (it says you accept installing there); nothing was changed`,
      { dir, hooksPath: named },
    );
  }
  if (husky) return { dir, husky: true, shared: false };
  const real = realish(dir);
  const [commonDir, gitDir] = (await runGit(['rev-parse', '--path-format=absolute', '--git-common-dir', '--git-dir'], { cwd: at.cwd, env: at.env })).stdout
    .toString('utf8')
    .trim()
    .split('\n');
  if ([commonDir, gitDir].some((d) => d && within(real, realish(d)))) return { dir, husky: false, shared: false };
  if (within(real, realish(root))) {
    throw new AxmeError(
      'CONFIG',
      `core.hooksPath points into the working tree (${dir}): hooks there are shared through the repository and would carry this machine's paths. Nothing was changed. Use husky, or run axme init --no-git-hooks`,
      { dir },
    );
  }
  if (named) return { dir, husky: false, shared: true };
  const scope = await configScope(at, 'core.hooksPath');
  const where =
    scope && scope !== 'local' && scope !== 'worktree'
      ? `core.hooksPath is set in the ${scope} git config (${dir})`
      : `core.hooksPath points to ${dir}, outside this repository`;
  throw new AxmeError(
    'CONFIG',
    `${where}: every repository that runs its hooks from there would run axme's git hooks too. Nothing was changed. Choose one: use husky in this repository (its .husky/ folder), run axme init --hooks-path ${shellQuote(dir)} to install into that folder knowingly, or run axme init --no-git-hooks to skip the git hooks`,
    { dir, scope },
  );
}

/** Which git config file a key comes from (local, global, system, worktree, command), or null. */
async function configScope(at: GitAt, key: string): Promise<string | null> {
  const r = await runGit(['config', '--show-scope', '--get', key], { cwd: at.cwd, env: at.env, allowFail: true });
  return r.code === 0 ? (r.stdout.toString('utf8').split('\t')[0]?.trim() ?? null) : null;
}

/** A folder the user typed: `~` expanded as git and shells do, relative to the folder init runs in. */
function expandPath(p: string, cwd: string, env: NodeJS.ProcessEnv): string {
  const home = env.HOME || homedir();
  return resolve(cwd, p === '~' ? home : p.startsWith('~/') ? join(home, p.slice(2)) : p);
}

/** The real path of `p`, also when its last parts do not exist yet (a hooks folder not created). */
function realish(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    const parent = dirname(p);
    return parent === p ? p : join(realish(parent), basename(p));
  }
}

function within(p: string, folder: string): boolean {
  const rel = relative(folder, p);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
}

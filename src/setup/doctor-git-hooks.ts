import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { AxmeError } from '../model/errors.ts';
import { GIT_HOOK_MARK, GIT_HOOK_NAMES } from '../model/hook-names.ts';
import { type GitAt, getConfig, hooksDir } from '../store/code-commits.ts';
import { runGit } from '../store/git.ts';
import type { DoctorCheck } from './clients/adapter.ts';
import { gitHooksDeclined, installedGitHookFiles } from './git-hooks.ts';
import { chooseHooksFolder, huskyDir } from './hooks-folder.ts';
import { isPortableAxme } from './launch.ts';

/**
 * `axme doctor`'s line on the git hooks: all installed, where git runs them. Hooks that name files
 * gone from this machine (an earlier axme), hooks left in a folder git no longer runs (core.hooksPath
 * set since — husky's install, a shared folder), and husky's lines without husky's stubs in
 * `.husky/_` (git runs the stubs, which call them) are problems, each with what to do.
 */
export async function gitHooksCheck(root: string, env: NodeJS.ProcessEnv): Promise<DoctorCheck> {
  const at: GitAt = { cwd: root, env };
  const files = await installedGitHookFiles(at, root);
  const have = files.map((f) => f.hook);
  const missing = GIT_HOOK_NAMES.filter((h) => !have.includes(h));
  // hooks of an earlier version name node and axme by path: on this machine those must exist
  const gone = files.flatMap((f) =>
    isPortableAxme(f.text)
      ? []
      : [...f.text.matchAll(/(?:^|[\s'"])(\/[^\s'"]*(?:axme\.cjs|\/node))(?=[\s'"]|$)/gm)]
          .map((m) => m[1]!)
          .filter((p) => !existsSync(p))
          .map((p) => `${f.hook}: ${p}`),
  );
  if (gone.length)
    return {
      name: 'git hooks',
      status: 'problem',
      detail: `installed by an earlier axme, they run files missing on this machine (${[...new Set(gone)].join(', ')})`,
      fix: 'axme init (it writes hooks that find axme on any machine)',
    };
  const runs = await hooksDir(at);
  const show = (dir: string) => (dir.startsWith(`${root}/`) ? relative(root, dir) : dir);
  if (missing.length) {
    const elsewhere = await hooksElsewhere(at, root, runs);
    if (elsewhere.length) {
      const hooksPath = await getConfig(at, 'core.hooksPath');
      return {
        name: 'git hooks',
        status: 'problem',
        detail: `axme's git hooks are in ${elsewhere.map(show).join(' and ')}, but git runs this repository's hooks from ${show(runs)}${hooksPath ? ` (core.hooksPath = ${hooksPath})` : ''}: git does not run them, so commits and pushes go unchecked and unnoted`,
        fix: await installFix(at, root),
      };
    }
    if (missing.length === GIT_HOOK_NAMES.length && (await gitHooksDeclined(at)))
      return { name: 'git hooks', status: 'ok', detail: 'not installed, as chosen (axme init --no-git-hooks); axme init --git-hooks installs them' };
    return { name: 'git hooks', status: 'missing', detail: `not installed: ${missing.join(', ')}`, fix: await installFix(at, root) };
  }
  // husky 9: git runs .husky/_/<hook>, a stub husky's install writes, which runs .husky/<hook>
  const husky = await huskyDir(at, root);
  const stubless = husky && runs !== husky ? have.filter((h) => !existsSync(join(runs, h))) : [];
  if (stubless.length)
    return {
      name: 'git hooks',
      status: 'problem',
      detail: `git runs this repository's hooks from ${show(runs)} (core.hooksPath), which has no ${stubless.join(', ')}: husky's stub is missing, so the axme line in ${show(husky!)}/<hook> never runs`,
      fix: "run husky's install to write its stubs: npx husky (or npm install, when package.json's prepare script runs husky)",
    };
  return { name: 'git hooks', status: 'ok', detail: `${GIT_HOOK_NAMES.join(', ')} in ${show(husky ?? runs)}` };
}

/** The folders other than the one git runs that hold axme's git hooks: the repository's own hooks folder, a `.husky` folder git does not run. */
async function hooksElsewhere(at: GitAt, root: string, runs: string): Promise<string[]> {
  const common = (await runGit(['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: at.cwd, env: at.env })).stdout.toString('utf8').trim();
  const husky = await huskyDir(at, root);
  const candidates = [join(common, 'hooks'), join(root, '.husky')].filter((d) => d !== runs && d !== husky);
  return candidates.filter((dir) =>
    GIT_HOOK_NAMES.some((hook) => {
      try {
        return readFileSync(join(dir, hook), 'utf8').includes(GIT_HOOK_MARK);
      } catch {
        return false;
      }
    }),
  );
}

/** What installs the hooks where git runs them: `axme init`, or what it would refuse with (a folder outside the repository). */
async function installFix(at: GitAt, root: string): Promise<string> {
  try {
    const folder = await chooseHooksFolder(at, root);
    return `axme init (it installs them into ${folder.dir})`;
  } catch (err) {
    if (err instanceof AxmeError && err.code === 'CONFIG') return err.message.replace(/ Nothing was changed\./, '').replace(/; nothing was changed$/, '');
    throw err;
  }
}

import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AxmeError } from '../model/errors.ts';
import { getConfig, hooksDir, NOTES_REF, setConfig, type GitAt } from '../store/code-commits.ts';
import { runGit } from '../store/git.ts';
import { shellQuote } from './agent-files.ts';

/**
 * Installing the git hooks (`axme git-hook <name>`): a line in `.husky/<hook>` when the repository
 * uses husky, otherwise a small script in the hooks folder that first runs the hook that was there
 * (kept as `<hook>.axme-previous`). `uninstall` removes exactly what was added.
 */

import { GIT_HOOK_NAMES } from '../hooks/events.ts';

export { GIT_HOOK_NAMES };
const MARK = '# axme-hook';

export interface GitHookChange {
  hook: string;
  path: string;
  action: 'created' | 'updated' | 'unchanged' | 'chained' | 'removed' | 'restored';
}

/** The husky folder when the repository uses husky (core.hooksPath into a `.husky`, or a .husky folder). */
async function huskyDir(at: GitAt, root: string): Promise<string | null> {
  const path = await getConfig(at, 'core.hooksPath');
  // husky 9 sets `.husky/_`; in a monorepo it may be `frontend/.husky/_`
  if (path && /(^|\/)\.husky(\/_)?\/?$/.test(path)) return resolve(root, path.replace(/\/_\/?$/, '').replace(/\/$/, ''));
  return existsSync(join(root, '.husky')) && !path ? join(root, '.husky') : null;
}

/**
 * The line in a husky hook file; first in the file, so an `exit` further down cannot skip it.
 * pre-push reads the refs on stdin: it keeps a copy and hands it back to the rest of the file.
 */
function hookLine(command: string[], hook: string): string {
  const run = `${command.map(shellQuote).join(' ')} git-hook ${hook} "$@"`;
  if (hook !== 'pre-push') return `${run} || exit $? ${MARK}`;
  return `axme_in=$(mktemp) && cat > "$axme_in" && { ${run} < "$axme_in" || { rm -f "$axme_in"; exit 1; }; } && exec < "$axme_in"; rm -f "$axme_in" ${MARK}`;
}

/** A hooks folder axme may write to: the repository's own, not one set for every repository or kept in the tree. */
async function checkHooksFolder(at: GitAt, root: string, dir: string): Promise<void> {
  const r = await runGit(['config', '--show-scope', '--get', 'core.hooksPath'], { cwd: at.cwd, env: at.env, allowFail: true });
  const scope = r.stdout.toString('utf8').split('\t')[0]?.trim();
  if (r.code === 0 && scope && scope !== 'local' && scope !== 'worktree') {
    throw new AxmeError('CONFIG', `core.hooksPath is set in the ${scope} git config (${dir}): installing there would change every repository that uses it. Set a repository hooks folder, or run axme init --no-git-hooks`, { dir });
  }
  if (dir.startsWith(`${root}/`) && !dir.includes('/.git/')) {
    throw new AxmeError('CONFIG', `core.hooksPath points into the working tree (${dir}): hooks there are shared through the repository and would carry this machine's paths. Use husky, or run axme init --no-git-hooks`, { dir });
  }
}

function script(command: string[], hook: string): string {
  const run = command.map(shellQuote).join(' ');
  // pre-push reads the pushed refs on stdin: both hooks must see them
  const body =
    hook === 'pre-push'
      ? ['input=$(cat)', `if [ -x "$0.axme-previous" ]; then printf '%s\\n' "$input" | "$0.axme-previous" "$@" || exit $?; fi`, `printf '%s\\n' "$input" | ${run} git-hook ${hook} "$@"`]
      : [`if [ -x "$0.axme-previous" ]; then "$0.axme-previous" "$@" || exit $?; fi`, `${run} git-hook ${hook} "$@"`];
  return ['#!/bin/sh', `${MARK}: installed by axme init; axme uninstall removes it`, ...body, ''].join('\n');
}

/** Installs the four hooks and the notes settings; idempotent. */
export async function installGitHooks(at: GitAt, root: string, command: string[]): Promise<GitHookChange[]> {
  const changes: GitHookChange[] = [];
  const husky = await huskyDir(at, root);
  for (const hook of GIT_HOOK_NAMES) {
    if (husky) {
      const path = join(husky, hook);
      const line = hookLine(command, hook);
      const text = existsSync(path) ? readFileSync(path, 'utf8') : null;
      const kept = (text ?? '').split('\n').filter((l) => !l.includes(MARK));
      const shebang = kept[0]?.startsWith('#!') ? kept.shift()! : '#!/bin/sh';
      const rest = kept.join('\n').replace(/\n*$/, '');
      const next = `${shebang}\n${line}\n${rest ? `${rest}\n` : ''}`;
      if (text === next) changes.push({ hook, path, action: 'unchanged' });
      else {
        writeFileSync(path, next);
        chmodSync(path, 0o755);
        changes.push({ hook, path, action: text === null ? 'created' : 'updated' });
      }
      continue;
    }
    const dir = await hooksDir(at);
    await checkHooksFolder(at, root, dir);
    mkdirSync(dir, { recursive: true });
    const path = join(dir, hook);
    const text = existsSync(path) ? readFileSync(path, 'utf8') : null;
    const next = script(command, hook);
    if (text === next) {
      changes.push({ hook, path, action: 'unchanged' });
      continue;
    }
    let action: GitHookChange['action'] = text === null ? 'created' : 'updated';
    if (text !== null && !text.includes(MARK)) {
      // someone else's hook: keep it running, first — but never over one already kept
      if (existsSync(`${path}.axme-previous`)) {
        throw new AxmeError('CONFIG', `${path} was replaced since axme chained ${path}.axme-previous: merge the two into one hook (or remove one), then run axme init again`, { path });
      }
      renameSync(path, `${path}.axme-previous`);
      action = 'chained';
    }
    writeFileSync(path, next);
    chmodSync(path, 0o755);
    changes.push({ hook, path, action });
  }
  await notesSettings(at);
  return changes;
}

/** Git copies notes on amend and rebase only when told which ref; `git log` shows them only when told too. */
async function notesSettings(at: GitAt): Promise<void> {
  const has = async (key: string) => (await runGit(['config', '--get-all', key], { cwd: at.cwd, env: at.env, allowFail: true })).stdout.toString('utf8').split('\n').includes(NOTES_REF);
  if (!(await has('notes.rewriteRef'))) await runGit(['config', '--add', 'notes.rewriteRef', NOTES_REF], { cwd: at.cwd, env: at.env });
  // a glob: `git log` stays quiet before the first note exists (a plain missing ref warns)
  const display = 'refs/notes/axm[e]';
  const shown = (await runGit(['config', '--get-all', 'notes.displayRef'], { cwd: at.cwd, env: at.env, allowFail: true })).stdout.toString('utf8').split('\n');
  if (!shown.includes(display) && !shown.includes(NOTES_REF)) await runGit(['config', '--add', 'notes.displayRef', display], { cwd: at.cwd, env: at.env });
  if ((await getConfig(at, 'notes.rewriteMode')) === null) await setConfig(at, 'notes.rewriteMode', 'cat_sort_uniq');
}

/** The axme git hooks in place (husky lines or scripts in the hooks folder). */
export async function installedGitHooks(at: GitAt, root: string): Promise<string[]> {
  const dir = (await huskyDir(at, root)) ?? (await hooksDir(at));
  return GIT_HOOK_NAMES.filter((hook) => {
    const path = join(dir, hook);
    return existsSync(path) && readFileSync(path, 'utf8').includes(MARK);
  });
}

/** Removes what installGitHooks added: axme's scripts (restoring chained hooks) or husky lines. */
export async function uninstallGitHooks(at: GitAt, root: string): Promise<GitHookChange[]> {
  const changes: GitHookChange[] = [];
  const husky = await huskyDir(at, root);
  const dir = await hooksDir(at);
  for (const hook of GIT_HOOK_NAMES) {
    if (husky) {
      const path = join(husky, hook);
      if (!existsSync(path)) continue;
      const text = readFileSync(path, 'utf8');
      if (!text.includes(MARK)) continue;
      const rest = text.split('\n').filter((l) => !l.includes(MARK));
      // a file axme created holds nothing else
      if (rest.every((l) => l.trim() === '' || l.startsWith('#!'))) rmSync(path);
      else writeFileSync(path, rest.join('\n'));
      changes.push({ hook, path, action: 'removed' });
      continue;
    }
    const path = join(dir, hook);
    if (!existsSync(path) || !readFileSync(path, 'utf8').includes(MARK)) continue;
    rmSync(path);
    if (existsSync(`${path}.axme-previous`)) {
      renameSync(`${path}.axme-previous`, path);
      changes.push({ hook, path, action: 'restored' });
    } else changes.push({ hook, path, action: 'removed' });
  }
  return changes;
}

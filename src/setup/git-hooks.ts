import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getConfig, hooksDir, NOTES_REF, setConfig, type GitAt } from '../store/code-commits.ts';
import { runGit } from '../store/git.ts';
import { shellQuote } from './agent-files.ts';

/**
 * Installing the git hooks (`axme git-hook <name>`): a line in `.husky/<hook>` when the repository
 * uses husky, otherwise a small script in the hooks folder that first runs the hook that was there
 * (kept as `<hook>.axme-previous`). `uninstall` removes exactly what was added.
 */

export const GIT_HOOK_NAMES = ['commit-msg', 'pre-push', 'post-commit', 'post-rewrite'] as const;
const MARK = '# axme-hook';

export interface GitHookChange {
  hook: string;
  path: string;
  action: 'created' | 'updated' | 'unchanged' | 'chained' | 'removed' | 'restored';
}

/** The husky folder when the repository uses husky (core.hooksPath into .husky, or a .husky folder). */
async function huskyDir(at: GitAt, root: string): Promise<string | null> {
  const path = await getConfig(at, 'core.hooksPath');
  if (path && /(^|\/)\.husky(\/_)?\/?$/.test(path)) return join(root, '.husky');
  return existsSync(join(root, '.husky')) && !path ? join(root, '.husky') : null;
}

function hookLine(command: string[], hook: string): string {
  return `${command.map(shellQuote).join(' ')} git-hook ${hook} "$@" ${MARK}`;
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
      const base = kept.join('\n').replace(/\n*$/, '');
      const next = base ? `${base}\n${line}\n` : `#!/bin/sh\n${line}\n`;
      if (text === next) changes.push({ hook, path, action: 'unchanged' });
      else {
        writeFileSync(path, next);
        chmodSync(path, 0o755);
        changes.push({ hook, path, action: text === null ? 'created' : 'updated' });
      }
      continue;
    }
    const dir = await hooksDir(at);
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
      // someone else's hook: keep it running, first
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
  if (!(await has('notes.displayRef'))) await runGit(['config', '--add', 'notes.displayRef', NOTES_REF], { cwd: at.cwd, env: at.env });
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
      writeFileSync(path, text.split('\n').filter((l) => !l.includes(MARK)).join('\n'));
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

import { chmodSync, existsSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { assertPersonActs } from '../model/actor.ts';
import type { AxmeSelf } from '../model/axme-self.ts';
import { AxmeError } from '../model/errors.ts';
import { GIT_HOOK_NAMES } from '../model/hook-names.ts';
import { makeFolder } from '../model/make-folder.ts';
import { writeFileAtomicSync } from '../store/atomic-file.ts';
import { type GitAt, getConfig, hooksDir, NOTES_REF, setConfig } from '../store/code-commits.ts';
import { runGit } from '../store/git.ts';
import { chooseHooksFolder, type HooksFolder, huskyDir } from './hooks-folder.ts';
import { gitHookRun, LAUNCHER_FILE } from './launch.ts';

/**
 * Installing the git hooks (`axme git-hook <name>`): a line in `.husky/<hook>` when the repository
 * uses husky, otherwise a small script in the hooks folder that first runs the hook that was there
 * (kept as `<hook>.axme-previous`). Planned (every check) before anything is written, so a refused
 * init changes nothing. `uninstall` removes exactly what was added: lines a user added to axme's
 * script stay (re-init keeps them after axme's; uninstall leaves them as the user's hook).
 */

export { GIT_HOOK_NAMES };

const MARK = '# axme-hook';

export interface GitHookChange {
  hook: string;
  path: string;
  action: 'created' | 'updated' | 'unchanged' | 'chained' | 'removed' | 'restored';
}

/**
 * The line in a husky hook file; first in the file, so an `exit` further down cannot skip it.
 * pre-push reads the refs on stdin: it keeps a copy and hands it back to the rest of the file.
 * It starts axme by a name every teammate's machine resolves (launch.ts), never by a path of this one.
 */
function hookLine(hook: string): string {
  if (hook !== 'pre-push') return `${gitHookRun(hook, 'exit $?')} ${MARK}`;
  return `axme_in=$(mktemp) && cat > "$axme_in" && { ${gitHookRun(hook, '{ rm -f "$axme_in"; exit 1; }', '"$axme_in"')}; } && exec < "$axme_in"; rm -f "$axme_in" ${MARK}`;
}

function script(hook: string): string {
  // pre-push reads the pushed refs on stdin: both hooks must see them
  const body =
    hook === 'pre-push'
      ? [
          'input=$(cat)',
          `if [ -x "$0.axme-previous" ]; then printf '%s\\n' "$input" | "$0.axme-previous" "$@" || exit $?; fi`,
          `axme_in=$(mktemp) && printf '%s\\n' "$input" > "$axme_in" || exit 1`,
          `${gitHookRun(hook, '{ rm -f "$axme_in"; exit 1; }', '"$axme_in"')}`,
          'rm -f "$axme_in"',
        ]
      : [`if [ -x "$0.axme-previous" ]; then "$0.axme-previous" "$@" || exit $?; fi`, gitHookRun(hook, 'exit $?')];
  return ['#!/bin/sh', `${MARK}: installed by axme init; axme uninstall removes it`, ...body, ''].join('\n');
}

/** Whether a line of a hook script is axme's (today's script or an earlier axme's: every line of it names axme or its input). */
function isAxmeScriptLine(line: string, i: number): boolean {
  return (i === 0 && line.startsWith('#!')) || line.trim() === 'input=$(cat)' || /axme|git-hook/.test(line);
}

/** The lines of an axme hook script that are not axme's (the user's own, in order), blank lines around them dropped; '' when none. */
function usersLines(text: string): string {
  return text
    .split('\n')
    .map((l, i) => (isAxmeScriptLine(l, i) ? null : l))
    .filter((l): l is string => l !== null)
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
}

/** What installing the git hooks will write: computed, and checked, before anything is. */
export interface GitHooksPlan extends HooksFolder {
  hooks: Array<{ hook: string; path: string; text: string; action: GitHookChange['action'] }>;
}

/**
 * Reads and checks everything installing the git hooks needs, writing nothing: the folder (CONFIG when it is
 * not the repository's own and `hooksPath` does not name it, see chooseHooksFolder), each hook's new
 * text, and a hook that replaced one axme had already chained (CONFIG: merge them first).
 */
export async function planGitHooks(at: GitAt, root: string, opts: { hooksPath?: string | undefined } = {}): Promise<GitHooksPlan> {
  const folder = await chooseHooksFolder(at, root, opts);
  const hooks: GitHooksPlan['hooks'] = [];
  for (const hook of GIT_HOOK_NAMES) {
    const path = join(folder.dir, hook);
    const text = existsSync(path) ? readFileSync(path, 'utf8') : null;
    let next: string;
    let action: GitHookChange['action'] = text === null ? 'created' : 'updated';
    if (folder.husky) {
      const kept = (text ?? '').split('\n').filter((l) => !l.includes(MARK));
      const shebang = kept[0]?.startsWith('#!') ? kept.shift()! : '#!/bin/sh';
      const rest = kept.join('\n').replace(/\n*$/, '');
      next = `${shebang}\n${hookLine(hook)}\n${rest ? `${rest}\n` : ''}`;
    } else {
      // lines the user added to axme's script are theirs: they stay, after axme's
      const own = text !== null && text.includes(MARK) ? usersLines(text) : '';
      next = `${script(hook)}${own ? `\n${own}\n` : ''}`;
      if (text !== null && text !== next && !text.includes(MARK)) {
        // someone else's hook: keep it running, first — but never over one already kept
        if (existsSync(`${path}.axme-previous`)) {
          throw new AxmeError(
            'CONFIG',
            `${path} was replaced since axme chained ${path}.axme-previous: merge the two into one hook (or remove one), then run axme init again; nothing was changed`,
            { path },
          );
        }
        action = 'chained';
      }
    }
    hooks.push({ hook, path, text: next, action: text === next ? 'unchanged' : action });
  }
  return { ...folder, hooks };
}

/** Writes what planGitHooks planned, and the notes settings; idempotent. */
export async function applyGitHooks(at: GitAt, plan: GitHooksPlan): Promise<GitHookChange[]> {
  if (!plan.husky) makeFolder(plan.dir);
  for (const h of plan.hooks) {
    if (h.action === 'unchanged') continue;
    if (h.action === 'chained') renameSync(h.path, `${h.path}.axme-previous`);
    writeFileSync(h.path, h.text);
    chmodSync(h.path, 0o755);
  }
  await notesSettings(at);
  return plan.hooks.map(({ hook, path, action }) => ({ hook, path, action }));
}

/**
 * Records the node and the axme script (real paths) init runs with in the git dir, which this
 * machine's agent-client hooks, MCP entries and git hooks fall back to where no axme is on PATH
 * (launch.ts); an unreadable script records nothing.
 */
export async function recordLauncher(at: GitAt, launcher: AxmeSelf): Promise<void> {
  let script: string;
  try {
    script = realpathSync(launcher.script);
  } catch {
    return;
  }
  const common = (await runGit(['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: at.cwd, env: at.env })).stdout.toString('utf8').trim();
  const file = join(common, LAUNCHER_FILE);
  const text = `${launcher.execPath}\n${script}\n`;
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return;
  makeFolder(dirname(file));
  writeFileAtomicSync(file, text);
}

/** Git copies notes on amend and rebase only when told which ref; `git log` shows them only when told too. */
async function notesSettings(at: GitAt): Promise<void> {
  const has = async (key: string) =>
    (await runGit(['config', '--get-all', key], { cwd: at.cwd, env: at.env, allowFail: true })).stdout.toString('utf8').split('\n').includes(NOTES_REF);
  if (!(await has('notes.rewriteRef'))) await runGit(['config', '--add', 'notes.rewriteRef', NOTES_REF], { cwd: at.cwd, env: at.env });
  // a glob: `git log` stays quiet before the first note exists (a plain missing ref warns)
  const display = 'refs/notes/axm[e]';
  const shown = (await runGit(['config', '--get-all', 'notes.displayRef'], { cwd: at.cwd, env: at.env, allowFail: true })).stdout.toString('utf8').split('\n');
  if (!shown.includes(display) && !shown.includes(NOTES_REF)) await runGit(['config', '--add', 'notes.displayRef', display], { cwd: at.cwd, env: at.env });
  if ((await getConfig(at, 'notes.rewriteMode')) === null) await setConfig(at, 'notes.rewriteMode', 'cat_sort_uniq');
}

/** The axme git hooks in place (husky lines or scripts in the hooks folder). */
export async function installedGitHooks(at: GitAt, root: string): Promise<string[]> {
  return (await installedGitHookFiles(at, root)).map((h) => h.hook);
}

/** axme's installed git hooks with the text of each file (what `axme doctor` checks the paths of). */
export async function installedGitHookFiles(at: GitAt, root: string): Promise<Array<{ hook: string; path: string; text: string }>> {
  const dir = (await huskyDir(at, root)) ?? (await hooksDir(at));
  return GIT_HOOK_NAMES.flatMap((hook) => {
    const path = join(dir, hook);
    const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
    return text.includes(MARK) ? [{ hook, path, text }] : [];
  });
}

/** The machine-local record that this repository's git hooks were declined (`axme init --no-git-hooks`). */
const DECLINED_KEY = 'axme.gitHooks';

/** Records (or clears) that the git hooks were declined, so that `axme doctor` reports a choice, not a problem. */
export async function recordGitHooksChoice(at: GitAt, installed: boolean): Promise<void> {
  if (installed) await runGit(['config', '--unset', DECLINED_KEY], { cwd: at.cwd, env: at.env, allowFail: true });
  else await runGit(['config', DECLINED_KEY, 'false'], { cwd: at.cwd, env: at.env });
}

/** Whether the git hooks were declined here (recordGitHooksChoice). */
export async function gitHooksDeclined(at: GitAt): Promise<boolean> {
  const r = await runGit(['config', '--get', DECLINED_KEY], { cwd: at.cwd, env: at.env, allowFail: true });
  return r.stdout.toString('utf8').trim() === 'false';
}

/** Removes what applyGitHooks added: axme's scripts (restoring chained hooks) or husky lines. */
export async function uninstallGitHooks(at: GitAt, root: string): Promise<GitHookChange[]> {
  // the git hooks bind the agent: only a person takes them away
  assertPersonActs(at.env ?? {}, 'removing the git hooks', 'axme uninstall');
  const changes: GitHookChange[] = [];
  const husky = await huskyDir(at, root);
  const dir = await hooksDir(at);
  // a chained hook the user has since added to: restoring one would drop the other; checked before anything changes
  if (!husky)
    for (const hook of GIT_HOOK_NAMES) {
      const path = join(dir, hook);
      const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
      if (text.includes(MARK) && usersLines(text) && existsSync(`${path}.axme-previous`))
        throw new AxmeError(
          'CONFIG',
          `${path} has lines of yours besides axme's, and the hook axme chained is kept in ${path}.axme-previous: move your lines into ${path}.axme-previous, then run axme uninstall again; nothing was changed`,
          { path },
        );
    }
  for (const hook of GIT_HOOK_NAMES) {
    if (husky) {
      const path = join(husky, hook);
      if (!existsSync(path)) continue;
      const text = readFileSync(path, 'utf8');
      if (!text.includes(MARK)) continue;
      const rest = text.split('\n').filter((l) => !l.includes(MARK));
      // a file axme created holds nothing else
      if (rest.every((l) => l.trim() === '' || l.startsWith('#!'))) {
        rmSync(path);
        changes.push({ hook, path, action: 'removed' });
      } else {
        writeFileSync(path, rest.join('\n'));
        changes.push({ hook, path, action: 'updated' });
      }
      continue;
    }
    const path = join(dir, hook);
    const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
    if (!text.includes(MARK)) continue;
    const own = usersLines(text);
    if (own) {
      // the user's lines stay, as their own hook
      writeFileSync(path, `#!/bin/sh\n${own}\n`);
      changes.push({ hook, path, action: 'updated' });
      continue;
    }
    rmSync(path);
    if (existsSync(`${path}.axme-previous`)) {
      renameSync(`${path}.axme-previous`, path);
      changes.push({ hook, path, action: 'restored' });
    } else changes.push({ hook, path, action: 'removed' });
  }
  return changes;
}

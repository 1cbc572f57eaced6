import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PENDING_NOTE } from '../knowledge/history/git-hook-files.ts';
import type { HookClientName } from '../model/hook-names.ts';
import { MEMORY_REF } from '../model/refs.ts';
import { NOTES_REF } from '../store/code-commits.ts';

/**
 * How the files axme writes into a project start axme. Files meant to be committed —
 * `.claude/settings.json`, `.mcp.json`, `.husky/*` — name nothing of one machine: a short POSIX
 * shell snippet finds axme when it runs, in this order:
 *
 * 1. `$AXME_BIN`: a machine's own choice (`axme init --local` puts it in the uncommitted
 *    `.claude/settings.local.json`; a shell profile may set it too), with `$AXME_NODE` as the node
 *    that runs it (GUI-launched clients may not have the shell's PATH);
 * 1a. the node and script `axme init` recorded in `.git/axme/launcher` (LAUNCHER_FILE), from the
 *    current folder or `$CLAUDE_PROJECT_DIR`: machine-local, and out of the agent's reach;
 * 2. the project's `node_modules/.bin/axme` (axme as a devDependency), from the current folder or
 *    from `$CLAUDE_PROJECT_DIR` when the client sets it;
 * 3. `axme` on PATH (a global install);
 * 4. the project's `node_modules/.bin/axme` from the top of the working tree (`git rev-parse
 *    --show-toplevel`: a subfolder of a client that sets no project folder). Last, because it
 *    starts a process, and the hook runs on every tool call.
 *
 * Why a snippet in each command rather than a committed launcher file or `$CLAUDE_PROJECT_DIR`:
 * it adds no file to the user's repository, does not depend on the folder the client starts it
 * in, and does not depend on `$CLAUDE_PROJECT_DIR`, which some Claude Code versions leave unset
 * for hooks (anthropics/claude-code#33815); every client runs hook commands through a shell, and
 * git runs hooks with `sh`. When axme is not found, each caller does what its contract needs:
 * the safety hook blocks the call and says how to install axme, the other hooks do nothing (the
 * session start says so once), git hooks let the commit or push through and print the install line.
 */

/**
 * Sets `a` (and `AXME_NODE`) from the launcher `axme init` left in `<file>` when nothing has chosen
 * yet. It lives in `.git/axme/`, which no agent command may write (the parser refuses it, the kernel
 * sandbox binds it read-only), unlike `node_modules/.bin/axme`, a link any `ln -sf` could point at
 * `/bin/true` — after which every hook would run `true`.
 */
const fromLauncher = (file: string) =>
  `if [ -z "$a" ] && [ -f "${file}" ] && { read -r n; read -r s; } < "${file}" && [ -f "$s" ] && [ -x "$n" ]; then a=$s; AXME_NODE=\${AXME_NODE:-$n}; fi`;

/** Sets `a` to `$AXME_BIN` when it names a program, else to empty. */
const FROM_AXME_BIN = 'a=${AXME_BIN:-}; [ -x "$a" ] || a=';

/** When nothing is chosen yet: the project's `node_modules/.bin/axme`, `axme` on PATH, the tree top's; else empty. */
const FROM_PROJECT_OR_PATH = `if [ -z "$a" ]; then a=node_modules/.bin/axme; [ -x "$a" ] || a="$CLAUDE_PROJECT_DIR/node_modules/.bin/axme"; [ -x "$a" ] || a=$(command -v axme) || a="$(git rev-parse --show-toplevel 2>/dev/null)/node_modules/.bin/axme"; [ -x "$a" ] || a=; fi`;

/** Sets `a` to the axme to run (and `AXME_NODE` to its node where one is named), or to empty when there is none. */
export const FIND_AXME = `${FROM_AXME_BIN}; ${fromLauncher('.git/axme/launcher')}; ${fromLauncher('$CLAUDE_PROJECT_DIR/.git/axme/launcher')}; ${FROM_PROJECT_OR_PATH}`;

/**
 * The file, in the git common dir, naming the node and the axme script `axme init` ran with (two
 * lines): machine-local, never committed, under `.git/axme/` where the agent cannot write.
 */
export const LAUNCHER_FILE = 'axme/launcher';

/**
 * FIND_AXME for git hooks: the axme `axme init` recorded (LAUNCHER_FILE, found from the git common
 * dir) comes right after `$AXME_BIN`, before the project's and PATH's. Git runs hooks in whatever
 * shell the agent's command ran: Codex runs every command in a login shell (`bash -lc`) whose PATH
 * comes from /etc/profile, where an axme on the user's own PATH (nvm, `~/.npm-global/bin` set in
 * `.bashrc`) is not found, and an agent's commit went unchecked; and in a linked worktree, where
 * `.git` is a file, an `axme` the agent put first on PATH (`PATH=/tmp/x:$PATH git commit …`)
 * was the one the hooks ran. The recorded node runs it (that PATH may have no node either).
 */
export const GIT_FIND_AXME = `${FROM_AXME_BIN}; l="$(git rev-parse --git-common-dir 2>/dev/null)/${LAUNCHER_FILE}"; ${fromLauncher('$l')}; ${FROM_PROJECT_OR_PATH}`;

/**
 * How to install axme, as every "not installed" message says it. The package is not on the npm
 * registry: it is installed from its packed tarball or a git URL (README, Install).
 */
export const INSTALL_HINT = 'npm i -D <the axme package: its packed .tgz or git URL, see the axme README, Install>, or npm i -g the same';

/** What a teammate runs when the project's package.json already lists axme. */
export const PROJECT_INSTALL_HINT = 'run npm install in this project: its package.json lists axme';

/** Whether the project's `package.json` (in `root`) lists axme, so that `npm install` installs it. */
export function projectListsAxme(root: string): boolean {
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, Record<string, unknown> | undefined>;
    return ['devDependencies', 'dependencies', 'optionalDependencies'].some((k) => typeof pkg[k]?.axme === 'string');
  } catch {
    return false;
  }
}

/** The install hint for the project in `root`: `npm install` when its package.json lists axme. */
export function installHintFor(root: string): string {
  return projectListsAxme(root) ? PROJECT_INSTALL_HINT : INSTALL_HINT;
}

/**
 * The shell that says axme is not installed, `before` and `after` around the hint (no single
 * quote in either): `npm install` when the project's package.json (from the current folder or
 * `$CLAUDE_PROJECT_DIR`) lists axme, else how to install it. Runs only when axme is missing.
 */
function notInstalled(before: string, after: string, toStdout = false): string {
  const say = (hint: string) => (toStdout ? echoOut : echoErr)(`${before}${hint}${after}`);
  return `if grep -qs '"axme" *:' package.json "$CLAUDE_PROJECT_DIR/package.json"; then ${say(PROJECT_INSTALL_HINT)}; else ${say(INSTALL_HINT)}; fi`;
}

/** Runs the axme found with `args` (unquoted: the caller's own text); `missing` runs instead when there is none. */
function runFound(args: string, missing: string): string {
  return `${FIND_AXME}; if [ -z "$a" ]; then ${missing}; fi; $AXME_NODE "$a" ${args}`;
}

/** A one-line shell `echo` of `text` to stderr (`text` must hold no single quote). */
function echoErr(text: string): string {
  return `${echoOut(text)} >&2`;
}

/** A one-line shell `echo` of `text` to stdout (`text` must hold no single quote). */
function echoOut(text: string): string {
  if (text.includes("'")) throw new Error(`internal: a message for the shell holds a quote: ${text}`);
  return `echo '${text}'`;
}

/**
 * The hook command of `event` (`pre-tool-use`, ...) for `client`'s hook protocol (Claude Code's
 * by default). The safety hook blocks with exit 2 when axme is missing or fails: every client
 * that runs it (Claude Code, Codex, Gemini CLI, Cursor) takes exit 2 as "blocked".
 */
export function hookCommand(event: string, client: HookClientName = 'claude-code'): string {
  const args = client === 'claude-code' ? `hook ${event}` : `hook ${event} --client ${client}`;
  if (event === 'pre-tool-use') {
    return `${runFound(args, `${notInstalled('axme is not installed on this machine (', '); the call is blocked until it is')}; exit 2`)} || { ${echoErr('axme: the safety hook could not run (run axme doctor); the call is blocked')}; exit 2; }`;
  }
  // SessionStart's stdout is the session's context: the agent (and through it the person) learns it once
  if (event === 'session-start')
    return runFound(
      args,
      `${notInstalled('axme is not installed on this machine (', '): this session starts without the project knowledge in refs/memory/main', client === 'claude-code' || client === 'codex')}; exit 0`,
    );
  return runFound(args, 'exit 0');
}

/** The `.mcp.json` entry of the axme server: the shell finds axme, then becomes it. */
export function mcpServerEntry(): { command: string; args: string[] } {
  return {
    command: 'sh',
    args: ['-c', `${FIND_AXME}; if [ -z "$a" ]; then ${notInstalled('axme is not installed on this machine (', ')')}; exit 1; fi; exec $AXME_NODE "$a" serve`],
  };
}

/**
 * Sets `d` to the git common dir, `g` to the worktree's own git dir (one `git rev-parse` for both,
 * its two lines split at the newline), and `ok` to 1 when the facts a hook left
 * (knowledge/history/git-hook-files.ts) still hold: no agent variable set, the facts file there,
 * the sessions folder unchanged since it was written, the memory tip (the loose ref file)
 * unchanged. `req` and `enf` are then git.requireAxmeSuffix and git.enforceFor.
 */
const FACTS = `dirs=$(git rev-parse --git-dir --git-common-dir 2>/dev/null); g=\${dirs%%[[:cntrl:]]*}; d=\${dirs#*[[:cntrl:]]}; f="$d/axme/git-hook-facts"; ok=; if [ -n "$d" ] && [ -z "$CLAUDECODE$AXME_AGENT$AXME_SESSION" ] && [ -f "$f" ] && ! [ "$d/axme/sessions" -nt "$f" ] && read -r v tip req enf < "$f" && [ "$v" = v1 ]; then cur=none; if [ -f "$d/${MEMORY_REF}" ]; then read -r cur < "$d/${MEMORY_REF}"; fi; if [ "$cur" = "$tip" ]; then ok=1; fi; fi`;

/**
 * Per hook, the shell that decides without Node what needs no Node, setting `skip`:
 * - commit-msg: a person's commit (facts hold, the marker not required of everyone) whose message
 *   has no `#!axme` marker, no `Axme-` trailer and cites no decision; it also clears a note an
 *   aborted commit left;
 * - post-commit: attaches the note commit-msg left for this commit (one `git notes add`, and the
 *   commit into the session's record), or skips a person's plain commit;
 * - post-merge: the same for a merge commit (git runs commit-msg for it, not post-commit), and
 *   nothing else: a fast-forward or a squash made no commit of its own to note;
 * - pre-push: a person's push where the rules bind only agents and no pushed commit cites a PR.
 * Anything else, or any doubt, runs axme.
 */
function fastPath(hook: string, input?: string): string | null {
  // the pending note is the worktree's own (its git dir, `g`): commits in two worktrees at once keep theirs apart
  const pending = `"$g/${PENDING_NOTE}.meta"`;
  const pendingText = `"$g/${PENDING_NOTE}.txt"`;
  if (hook === 'commit-msg') {
    return `${FACTS}; skip=; if [ -n "$g" ] && [ -f ${pending} ]; then rm -f ${pending} ${pendingText}; fi; if [ -n "$ok" ] && [ "$req" != always ] && ! grep -qE '#!axme|D-[0-9]{3}|^Axme-' "$1"; then skip=1; fi`;
  }
  // the commit must be the one commit-msg saw: same parent, same subject (an aborted commit's note waits for nobody)
  const attachPending = [
    `if [ -n "$g" ] && [ -f ${pending} ]; then skip=1; { read -r v parent sess t; IFS= read -r subj; } < ${pending}; x=$(git log -1 --format='%H%x01%P%x01%s' 2>/dev/null); h=\${x%%[![:print:]]*}; rest=\${x#*[![:print:]]}; ps=\${rest%%[![:print:]]*}; s=\${rest#*[![:print:]]}; p=\${ps%% *}; [ -n "$p" ] || p=none`,
    `if [ "$v" = v1 ] && [ -n "$h" ] && [ "$p" = "$parent" ] && [ "$s" = "$subj" ]; then git notes --ref=${NOTES_REF} add -f -F ${pendingText} "$h" >/dev/null 2>&1 || ${echoErr('axme: the note of this commit could not be written (git notes add failed)')}; if [ "$sess" != - ] && [ -f "$d/axme/sessions/$sess.json" ]; then printf '{"t":"%s","type":"commit","commit":"%s"}\\n' "$t" "$h" >> "$d/axme/sessions/$sess.jsonl"; fi; fi`,
    `rm -f ${pending} ${pendingText}`,
  ];
  // post-merge: a merge commit commit-msg checked gets its note; a fast-forward, a squash, a merge
  // commit-msg found nothing to tie in (or did not run for) have none to attach: no Node either way
  if (hook === 'post-merge') return [`${FACTS}; skip=1`, ...attachPending, 'fi'].join('; ');
  if (hook === 'post-commit') {
    return [
      `${FACTS}; skip=`,
      ...attachPending,
      `elif [ -n "$ok" ] && ! git log -1 --format=%B 2>/dev/null | grep -qE 'D-[0-9]{3}|^Axme-'; then skip=1; fi`,
      // sync.auto: commit — the knowledge goes to the remote after each commit, in the background
      `if [ -n "$d" ] && grep -q '"mode":"commit"' "$d/axme/auto-sync.json" 2>/dev/null; then (${GIT_FIND_AXME}; if [ -n "$a" ]; then $AXME_NODE "$a" sync --auto commit >> "$d/axme/auto-sync.log" 2>&1 < /dev/null & fi); fi`,
    ].join('; ');
  }
  if (hook === 'pre-push' && input) {
    return `${FACTS}; skip=; if [ -n "$ok" ] && [ "$enf" = agents ]; then locals=$(while read -r lref loid rref roid; do case "$loid" in *[!0]*) printf '%s ' "$loid";; esac; done < ${input}); if [ -z "$locals" ] || ! git log --max-count=5000 --format='%(trailers:key=Axme-PR,valueonly)' $locals --not --remotes 2>/dev/null | grep -q '[0-9]'; then skip=1; fi; fi`;
  }
  return null;
}

/**
 * The shell text of a git hook that runs `axme git-hook <hook> "$@"` (its input from `input`
 * when given) and runs `failed` when that fails — unless its fast path decided without Node.
 * When axme is not installed it says so and goes on: people can always commit and push, and
 * the rest of a husky file still runs.
 */
export function gitHookRun(hook: string, failed: string, input?: string): string {
  const what = hook === 'pre-push' ? 'push' : 'commit';
  const run = `${GIT_FIND_AXME}; if [ -n "$a" ]; then $AXME_NODE "$a" git-hook ${hook} "$@"${input ? ` < ${input}` : ''} || ${failed}; else ${notInstalled('axme is not installed on this machine (', `): this ${what} was not checked by axme`)}; fi`;
  const fast = fastPath(hook, input);
  return fast ? `${fast}; if [ -z "$skip" ]; then ${run}; fi` : run;
}

/** Whether a command is one of axme's portable ones (it finds axme with FIND_AXME). */
export function isPortableAxme(command: string): boolean {
  return command.includes('node_modules/.bin/axme') && command.includes('command -v axme');
}

export { shellQuote } from '../model/shell-quote.ts';

import type { Invocation } from './command.ts';

/**
 * git's settings beyond its own options: those the environment gives a call (git-rules.ts
 * parseGit adds them to its `-c` settings), and the command lines settings hold, which git runs
 * later outside any check (evaluate.ts checks them as commands now).
 */

/** The variables that stand for a git setting (`GIT_SSH_COMMAND` for `core.sshCommand`), keys lower-cased. */
const SETTING_VARIABLES: Record<string, string> = {
  GIT_SSH_COMMAND: 'core.sshcommand',
  GIT_SSH: 'core.sshcommand',
  GIT_EDITOR: 'core.editor',
  GIT_SEQUENCE_EDITOR: 'sequence.editor',
  GIT_PAGER: 'core.pager',
  PAGER: 'core.pager',
  EDITOR: 'core.editor',
  VISUAL: 'core.editor',
  GIT_ASKPASS: 'core.askpass',
  GIT_EXTERNAL_DIFF: 'diff.external',
  GIT_PROXY_COMMAND: 'core.gitproxy',
};

/**
 * The settings git takes from the assignments before it (`GIT_CONFIG_PARAMETERS="'k'='v'"`,
 * `GIT_CONFIG_KEY_<n>`/`GIT_CONFIG_VALUE_<n>`, `GIT_SSH_COMMAND=…`, also through `env`), as `-c`
 * would give them: keys lower-cased.
 */
export function environmentSettings(inv: Invocation): Map<string, string> {
  const words = inv.command.words;
  return settingsOf(words.slice(0, Math.max(0, words.length - inv.args.length - 1)).map((w) => w.value));
}

/** The programs that set variables for the commands after them (`export GIT_PAGER=…`, `declare -x`). */
const EXPORTERS = new Set(['export', 'declare', 'typeset', 'readonly', 'local']);

/**
 * The command lines git would run from settings exported for every git after them (`export
 * GIT_PAGER='…'`, `declare -x GIT_SSH_COMMAND=…`, `export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=…`):
 * checked as commands where they are set, since the git that runs them may be any later one.
 */
export function exportedSettingCommands(inv: Invocation): string[] {
  if (!EXPORTERS.has(inv.program)) return [];
  return settingCommands({ sub: '', args: [], config: settingsOf(inv.args.map((w) => w.value)) });
}

/** The settings a list of `NAME=value` words gives git (other words skipped). */
function settingsOf(assignments: readonly string[]): Map<string, string> {
  const config = new Map<string, string>();
  const keys = new Map<string, string>();
  const values = new Map<string, string>();
  for (const assignment of assignments) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(assignment);
    if (!m) continue;
    const [, name, value] = m as unknown as [string, string, string];
    if (Object.hasOwn(SETTING_VARIABLES, name)) config.set(SETTING_VARIABLES[name]!, value);
    else if (name === 'GIT_CONFIG_PARAMETERS') for (const p of value.matchAll(/'([^']*)'(?:='([^']*)')?/g)) config.set(p[1]!.toLowerCase(), p[2] ?? 'true');
    else if (name.startsWith('GIT_CONFIG_KEY_')) keys.set(name.slice(15), value.toLowerCase());
    else if (name.startsWith('GIT_CONFIG_VALUE_')) values.set(name.slice(17), value);
  }
  for (const [n, key] of keys) config.set(key, values.get(n) ?? '');
  return config;
}

/**
 * git settings whose value is a command line git runs (later, or for this call): the ssh command,
 * editors and pagers, helpers, drivers and filters. `!` in front (`credential.helper '!cmd'`) only
 * says it is a shell command. Keys lower-cased, `*` for a name of the user's.
 */
const COMMAND_SETTINGS =
  /^(core\.(sshcommand|editor|pager|askpass|gitproxy)|sequence\.editor|diff\.external|diff\..+\.(textconv|command)|merge\..+\.driver|filter\..+\.(clean|smudge|process)|credential(\..+)?\.helper|gpg(\..+)?\.program|pager\..+|(difftool|mergetool|browser|man)\..+\.(cmd|path)|sendemail\.(sendmailcmd|tocmd|cccmd)|remote\..+\.(uploadpack|receivepack)|uploadpack\.packobjectshook)$/;

/** `git config` options that take a value (`--file x`, `--type bool`): not the key or the value they precede. */
const CONFIG_VALUED = new Set(['-f', '--file', '--blob', '--type', '--default', '--comment', '--value']);

/**
 * The command lines git would run from the settings this call gives (`git -c core.sshCommand=…
 * fetch`) or writes (`git config core.sshCommand …`, `git config set core.pager …`): checked as
 * commands now, since git runs them later outside any check.
 */
export function settingCommands(call: { sub: string; args: string[]; config: ReadonlyMap<string, string> }): string[] {
  const out: string[] = [];
  const add = (key: string, value: string | undefined) => {
    if (value && COMMAND_SETTINGS.test(key.toLowerCase()) && !/^(true|false|yes|no|on|off|0|1)$/i.test(value)) out.push(value.replace(/^!/, ''));
  };
  for (const [key, value] of call.config) add(key, value);
  if (call.sub !== 'config' || call.args.some((v) => /^(--(get|get-all|get-regexp|get-urlmatch|list|unset|unset-all)|-l)$/.test(v))) return out;
  const words: string[] = [];
  for (let i = 0; i < call.args.length; i++) {
    const v = call.args[i]!;
    if (CONFIG_VALUED.has(v)) i++;
    else if (!v.startsWith('-')) words.push(v);
  }
  // `git config set KEY VALUE` (git 2.46), `git config KEY VALUE`
  if (words[0] === 'set') words.shift();
  if (words.length >= 2) add(words[0]!, words[1]);
  return out;
}

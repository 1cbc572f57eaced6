import { AXME_LAUNCH_VARIABLES } from '../model/hook-names.ts';
import { shellJoin } from '../model/shell-quote.ts';
import { argvLine } from './argv-line.ts';
import type { Invocation } from './command.ts';
import { cloneSettings, optionCommands } from './git-option-commands.ts';
import { DECLARATIONS } from './shell-vars.ts';
import { startupCommand } from './startup-variables.ts';
import type { SimpleCommand } from './syntax.ts';
import { helperKeeps, OFF, transportFinding, urlHost } from './transport-settings.ts';

/**
 * git's settings beyond its own options: those the environment gives a call (git-rules.ts
 * parseGit adds them to its `-c` settings), and the command lines settings and variables hold,
 * which git (or less, or ssh) runs later outside any check (command-checks.ts checks them as commands now).
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
  SSH_ASKPASS: 'core.askpass',
  GIT_EXTERNAL_DIFF: 'diff.external',
  GIT_PROXY_COMMAND: 'core.gitproxy',
};

/**
 * The variables whose value is a command line a program runs, each to that command: the stand-ins
 * of git's settings; less's input preprocessor (`LESSOPEN='|lesspipe %s'`: `|` or `||` pipes its
 * output, `-` after them also for standard input) and its closer, which less runs as git's pager
 * too; the pagers and editors of man (also `git help`), gh, kubectl, sudoedit, systemd's tools and
 * bash's `fc`; the browser gh and xdg-open (`BROWSER`) start.
 */
const COMMAND_VARIABLES: Record<string, (value: string) => string> = {
  ...Object.fromEntries(
    [
      ...Object.keys(SETTING_VARIABLES),
      'LESSCLOSE',
      'MANPAGER',
      'GH_PAGER',
      'GH_EDITOR',
      'GH_BROWSER',
      'BROWSER',
      'KUBE_EDITOR',
      'SUDO_EDITOR',
      'SYSTEMD_PAGER',
      'FCEDIT',
    ].map((name) => [name, (v: string) => v]),
  ),
  LESSOPEN: (v) => v.replace(/^\|{0,2}-?/, ''),
};

/**
 * The variables that name a file a later command writes, each as that write, checked where the
 * variable is set: bash's `history -w` and `-a` (and an interactive bash at its exit) write the
 * history into `$HISTFILE` (`HISTFILE=~/.bashrc; history -w` is `history -w ~/.bashrc`).
 */
const FILE_VARIABLES: Record<string, (value: string) => string> = {
  HISTFILE: (v) => `history -w ${argvLine([v])}`,
};

/** The words before a command's program (its assignments, and its wrappers' words), as written. */
function wordsBefore(inv: Invocation): string[] {
  const words = inv.command.words;
  return words.slice(0, Math.max(0, words.length - inv.args.length - 1)).map((w) => w.value);
}

/**
 * The settings git takes from the assignments before it (`GIT_CONFIG_PARAMETERS="'k'='v'"`,
 * `GIT_CONFIG_KEY_<n>`/`GIT_CONFIG_VALUE_<n>`, `GIT_SSH_COMMAND=…`, also through `env`), as `-c`
 * would give them: keys lower-cased.
 */
export function environmentSettings(inv: Invocation): Map<string, string> {
  const assignments = wordsBefore(inv);
  const config = configOf(assignments);
  for (const [name, value] of variablesOf(assignments)) if (Object.hasOwn(SETTING_VARIABLES, name)) config.set(SETTING_VARIABLES[name]!, value);
  return config;
}

/** The variables assigned before a command's program (`P=cat git …`, also through `env`): what it finds in its environment besides the shell's. */
export function environmentVariables(inv: Invocation): Map<string, string> {
  return new Map(variablesOf(wordsBefore(inv)));
}

/** The `NAME=value` pairs of a list of words (other words skipped), in order. */
function variablesOf(words: readonly string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const word of words) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(word);
    if (m) out.push([m[1]!, m[2]!]);
  }
  return out;
}

/** The git settings the variables `GIT_CONFIG_PARAMETERS` and `GIT_CONFIG_KEY_<n>`/`VALUE_<n>` among `words` give, keys lower-cased. */
function configOf(words: readonly string[]): Map<string, string> {
  const config = new Map<string, string>();
  const keys = new Map<string, string>();
  const values = new Map<string, string>();
  for (const [name, value] of variablesOf(words)) {
    if (name === 'GIT_CONFIG_PARAMETERS') for (const p of value.matchAll(/'([^']*)'(?:='([^']*)')?/g)) config.set(p[1]!.toLowerCase(), p[2] ?? 'true');
    else if (name.startsWith('GIT_CONFIG_KEY_')) keys.set(name.slice(15), value.toLowerCase());
    else if (name.startsWith('GIT_CONFIG_VALUE_')) values.set(name.slice(17), value);
  }
  for (const [n, key] of keys) config.set(key, values.get(n) ?? '');
  return config;
}

/**
 * The variables a command sets for the programs it starts, as `NAME=value` words: the assignments
 * before its program (any program: it may run git), those `export`, `declare` or `readonly` set,
 * those a builtin sets (`read`, `mapfile`, `printf -v`) or a nameref stands for,
 * or a command of assignments alone (the variable may be exported already, as PAGER, EDITOR and
 * LESSOPEN often are: every later program sees the new value).
 */
function assignmentsOf(cmd: SimpleCommand, inv: Invocation | null): string[] {
  // `read GIT_PAGER <<< …`, `printf -v GIT_PAGER …`, a nameref's: what the shell's reading found it sets (shell-vars.ts)
  const more = cmd.assigns ?? [];
  if (!inv) return [...cmd.words.map((w) => w.value), ...more];
  return [...wordsBefore(inv), ...(DECLARATIONS.test(inv.program) ? inv.args.map((w) => w.value) : []), ...more];
}

/**
 * The command lines the variables a command sets would have git, less or ssh run, for this
 * program or any later one, and the writes of the files they name (FILE_VARIABLES) (`GIT_PAGER='…' git log`, `export LESSOPEN='|… %s'`, `EDITOR='…'`,
 * `export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='!…'`): checked as
 * commands where they are set.
 */
export function assignedCommands(cmd: SimpleCommand, inv: Invocation | null): string[] {
  const assignments = assignmentsOf(cmd, inv);
  if (!assignments.length) return [];
  const out: string[] = [];
  for (const [name, value] of variablesOf(assignments)) {
    if (Object.hasOwn(COMMAND_VARIABLES, name)) pushCommand(out, COMMAND_VARIABLES[name]!(value));
    else if (Object.hasOwn(FILE_VARIABLES, name) && value) out.push(FILE_VARIABLES[name]!(value));
    else {
      // `BASH_ENV=f`, `NODE_OPTIONS='--require f'`, `LD_PRELOAD=f.so`: code a program runs from its environment (startup-variables.ts)
      const code = startupCommand(name, value);
      if (code) out.push(code);
    }
  }
  // `BASH_ENV=<(echo …)`: a process substitution's text is the file the variable names (the parser gives it as the next word)
  for (const [k, w] of cmd.words.entries()) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=$/.exec(w.raw);
    const next = cmd.words[k + 1]?.raw;
    const code = m && next?.startsWith('<(') ? startupCommand(m[1]!, next) : null;
    if (code) out.push(code);
  }
  for (const [key, value] of configOf(assignments)) {
    if (isCommandSetting(key, value)) pushCommand(out, value);
    // a shell alias runs for `git x` in any later git (the git of this call expands it: parseGit)
    else if (key.startsWith('alias.') && value.trim().startsWith('!')) pushCommand(out, value.trim());
  }
  return out;
}

/** Adds a setting's command line to `out`, but for a plain boolean; `!` in front only says it is a shell command. */
function pushCommand(out: string[], value: string | undefined): void {
  if (value && !/^(true|false|yes|no|on|off|0|1)$/i.test(value)) out.push(value.replace(/^!/, ''));
}

/**
 * git settings whose value is a command line git runs (later, or for this call): the ssh command,
 * editors and pagers, helpers, drivers and filters, `git add -p`'s diff filter, the commands of
 * trailers (`trailer.<x>.cmd`, once `.command`), the command that finds ssh's signing key, a tar
 * format's filter for `git archive`, the command that lists an alternate's refs, `git imap-send`'s
 * tunnel, git gui's tools, `git instaweb`'s server. `!` in front
 * (`credential.helper '!cmd'`) only says it is a shell command. Keys lower-cased.
 */
const COMMAND_SETTINGS =
  /^(core\.(sshcommand|editor|pager|askpass|gitproxy|alternaterefscommand)|imap\.tunnel|guitool\..+\.cmd|instaweb\.httpd|sequence\.editor|diff\.external|diff\..+\.(textconv|command)|merge\..+\.driver|filter\..+\.(clean|smudge|process)|credential(\..+)?\.helper|gpg(\..+)?\.program|gpg\.ssh\.defaultkeycommand|pager\..+|(difftool|mergetool|browser|man)\..+\.(cmd|path)|sendemail\.(.+\.)?(sendmailcmd|tocmd|cccmd|headercmd)|remote\..+\.(uploadpack|receivepack)|uploadpack\.packobjectshook|interactive\.difffilter|trailer\..+\.(cmd|command)|tar\..+\.command)$/;

/** Settings that run their value only when it starts with `!`: `submodule.<x>.update '!cmd'` (`rebase`, `merge`, `checkout`, `none` run nothing). */
const BANG_COMMAND_SETTINGS = /^submodule\..+\.update$/;

/**
 * Whether git runs the value of the setting `key` (lower-cased) as a command line; without a
 * `value`, whether it may (`--config-env` hides it).
 */
export function isCommandSetting(key: string, value?: string): boolean {
  return COMMAND_SETTINGS.test(key) || (BANG_COMMAND_SETTINGS.test(key) && (value === undefined || value.trim().startsWith('!')));
}

/**
 * The settings whose value names a file git reads for its own use and never shows (keys
 * lower-cased): the ignore patterns (`git check-ignore -v` prints a line only for a path it
 * matches, so only one who knows the line), the order of a diff's files, the ssh signing key
 * (`user.signingKey`: the signature shows none of it) and allowed signers, the CA bundle TLS checks
 * a server with. `git config core.excludesFile .env.local` names the file; git prints nothing of
 * it. Not `commit.template` (the editor shows it), `include.path` (its settings are listed),
 * `core.attributesFile` (`git check-attr -a` prints a line's words as attributes),
 * `blame.ignoreRevsFile` (a line that is no revision is printed in the error), `init.templateDir`
 * (copied into `.git`: settingFindings), `http.cookieFile` (sent, and written with `http.saveCookies`).
 */
const NAMED_FILE_SETTINGS = /^(core\.excludesfile|diff\.orderfile|user\.signingkey|gpg\.ssh\.allowedsignersfile|http\.(.+\.)?sslcainfo)$/;

/** Whether the value of the setting `key` only names a file git reads for its own use and never shows (NAMED_FILE_SETTINGS). */
export function namesFileOnly(key: string): boolean {
  return NAMED_FILE_SETTINGS.test(key.toLowerCase());
}

/** `git config` options that take a value (`--file x`, `--type bool`): not the key or the value they precede. */
const CONFIG_VALUED = new Set(['-f', '--file', '--blob', '--type', '--default', '--comment', '--value']);

/** The positions of `git config`'s words that are no option nor an option's value, its verb (`set`, `get`, git 2.46) left out: the setting's name, then its value. */
export function configOperands(args: readonly string[]): number[] {
  const at: number[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!;
    if (CONFIG_VALUED.has(v)) i++;
    else if (!v.startsWith('-')) at.push(i);
  }
  if (at.length && /^(set|get|unset|rename-section|remove-section)$/.test(args[at[0]!]!)) at.shift();
  return at;
}

/** The setting `git config KEY VALUE` (or `git config set KEY VALUE`, git 2.46) writes, key lower-cased; null for a read, an unset or another verb. */
export function writtenSetting(call: { sub: string; args: string[] }): [string, string] | null {
  if (call.sub !== 'config' || call.args.some((v) => /^(--(get|get-all|get-regexp|get-urlmatch|list|unset|unset-all)|-l)$/.test(v))) return null;
  if (/^(get|unset|rename-section|remove-section|list|edit)$/.test(call.args.find((v) => !v.startsWith('-')) ?? '')) return null;
  const words = configOperands(call.args).map((i) => call.args[i]!);
  return words.length >= 2 ? [words[0]!.toLowerCase(), words[1]!] : null;
}

/**
 * The command lines the settings this call gives (`git -c core.sshCommand=… fetch`,
 * `--config-env`: `config`) or writes (`git config core.sshCommand …`, `git clone -c …`) would
 * have git run later, those its options and verbs hand a shell (`git rebase -x CMD`, `git
 * submodule foreach CMD`: git-option-commands.ts), and those of the ext transport its words name
 * (`git clone 'ext::sh -c …'`): checked as commands now, since git runs them outside any check.
 */
export function settingCommands(call: { sub: string; args: string[]; config: ReadonlyMap<string, string> }): string[] {
  const out: string[] = [];
  for (const [key, value] of [...call.config, ...cloneSettings(call)]) if (isCommandSetting(key, value)) pushCommand(out, value);
  const written = writtenSetting(call);
  if (written && isCommandSetting(written[0], written[1])) pushCommand(out, written[1]);
  out.push(...optionCommands(call));
  if (URL_VERBS.has(call.sub)) for (const a of call.args) if (/^ext::/i.test(a)) out.push(shellJoin(extCommand(a.slice(5))));
  return out;
}

/** The git verbs whose words may be a remote's URL (`git config remote.x.url URL` among them): not a commit message's. */
const URL_VERBS = new Set(['clone', 'fetch', 'pull', 'push', 'ls-remote', 'remote', 'submodule', 'archive', 'config']);

/**
 * The program and arguments an `ext::` URL has git run (git-remote-ext): words apart at each space,
 * `% ` a space within one, `%%` a `%`, `%s`/`%S` the service git asks for, `%G…`/`%V…` options
 * for git:// that make no argument.
 */
function extCommand(spec: string): string[] {
  const words: string[] = [];
  let word = '';
  let skip = false;
  for (let i = 0; i < spec.length; i++) {
    const c = spec[i]!;
    if (c === ' ') {
      if (!skip) words.push(word);
      word = '';
      skip = false;
    } else if (c === '%' && i + 1 < spec.length) {
      const n = spec[++i]!;
      if (n === 's' || n === 'S') word += n === 's' ? 'upload-pack' : 'git-upload-pack';
      else if ((n === 'G' || n === 'V') && word === '') skip = true;
      else word += n;
    } else word += c;
  }
  if (!skip) words.push(word);
  return words.filter((w, i) => w !== '' || i > 0);
}

/** A finding on settings: the rule and why. */
export interface SettingFinding {
  rule: string;
  reason: string;
}

/** Values of protocol.ext.allow or protocol.allow that let git run the ext transport (the default is never). */
const EXT_ALLOWED = /^(always|user)$/i;

/**
 * Settings that let git run what no check sees, given to a call (`config`: `-c`, the environment),
 * written with `git config` (`written`), or in variables set before it or exported (`assignments`):
 * the ext transport allowed (a command named by any URL git meets later, a submodule's among
 * them), a template folder written to stay (its hooks copied into every repository git makes), and another exec path (git runs its helpers from there, and puts it first on the PATH of
 * every program it starts, the hooks' axme among them).
 */
export function settingFindings(over: {
  config?: ReadonlyMap<string, string>;
  written?: [string, string] | null;
  assignments?: readonly string[];
}): SettingFinding[] {
  const out: SettingFinding[] = [];
  const config = new Map([...(over.config ?? []), ...configOf(over.assignments ?? [])]);
  if (over.written) config.set(over.written[0], over.written[1]);
  const variables = variablesOf(over.assignments ?? []);
  const ext =
    [...config].some(([key, value]) => (key === 'protocol.ext.allow' || key === 'protocol.allow') && EXT_ALLOWED.test(value)) ||
    variables.some(([name, value]) => name === 'GIT_ALLOW_PROTOCOL' && value.split(':').includes('ext'));
  if (ext)
    out.push({
      rule: 'git.extProtocol',
      reason: "allowing git's ext transport lets any URL git meets (a submodule's too) run the command it names: clone over https or ssh",
    });
  if (variables.some(([name, value]) => name === 'GIT_EXEC_PATH' && value !== '')) out.push({ rule: 'axme.self', reason: EXEC_PATH_REASON });
  if (over.written?.[0] === 'init.templatedir') out.push({ rule: 'axme.self', reason: TEMPLATE_REASON });
  const sent = sendsElsewhere(config, over.written ?? null);
  if (sent) out.push(sent);
  const launch = variables.find(([name, value]) => (AXME_LAUNCH_VARIABLES as readonly string[]).includes(name) && value !== '');
  if (launch)
    out.push({
      rule: 'axme.self',
      reason: `${launch[0]} chooses the axme every hook starts (the git hooks' checks, trailers and notes among them): a command may not set it; a machine's own choice goes in the client's local settings (axme init --local)`,
    });
  // `GIT_PAGER=rm; GIT_PAGER+=' -rf ~'`: the pieces pass one by one, the whole is never seen here
  const appended = (over.assignments ?? [])
    .map((w) => /^([A-Za-z_][A-Za-z0-9_]*)\+=/.exec(w)?.[1])
    .find((name) => name && Object.hasOwn(COMMAND_VARIABLES, name));
  if (appended)
    out.push({
      rule: 'git.commandVariable',
      reason: `\`${appended}+=…\` builds the command line ${appended} holds piece by piece, which the guard checks only whole: assign it whole (${appended}='…')`,
    });
  return out;
}

/**
 * The settings that send git's credentials or code elsewhere (transport-settings.ts): a
 * credential helper given as a shell command that writes or sends what it reads (`credential.helper
 * '!cat > /tmp/creds'`, for this call or written), and, written to stay, TLS checks turned off
 * (`http.sslVerify false`, also for one URL: `http.<url>.sslVerify`) and a URL rewritten to another
 * host (`url.https://evil.example/.insteadOf https://github.com/`, `pushInsteadOf`: every later
 * fetch or push of that host goes there). A rewrite to the same host (https to ssh, a token in the
 * URL) or from a prefix that is no URL (`gh:`) passes, and so does a setting given for one call.
 */
function sendsElsewhere(config: ReadonlyMap<string, string>, written: [string, string] | null): SettingFinding | null {
  for (const [key, value] of written ? [...config, written] : config) {
    const keeps = /^credential(\..+)?\.helper$/.test(key) && value.trim().startsWith('!') ? helperKeeps(value.trim().slice(1)) : null;
    if (keeps) return transportFinding('network.credentialHelper', `the credential helper \`${value}\` ${keeps}`);
    // `filter.x.clean 'curl -d @- …'`: a content filter (a shell command, no `!`) that keeps or sends what git hands it
    const sends = /^filter\..+\.(clean|smudge|process)$/.test(key) ? helperKeeps(value.trim()) : null;
    if (sends) return transportFinding('network.contentFilter', `the filter \`${key} ${value}\` ${sends.replace('them', 'the files')}`);
  }
  if (!written) return null;
  const [key, value] = written;
  if (/^http\.(.+\.)?sslverify$/.test(key) && OFF.test(value)) return transportFinding('network.tlsOff', `\`${key} ${value}\` turns git's TLS checks off`);
  const rewrite = /^url\.(.+)\.(push)?insteadof$/.exec(key);
  if (rewrite) {
    const to = urlHost(rewrite[1]!);
    const from = urlHost(value);
    if (to !== null && from !== null && to !== from)
      return transportFinding(
        'network.redirect',
        `\`${key} ${value}\` sends what git fetches from or pushes to ${from === '*' ? 'every host' : from} to ${to}`,
      );
  }
  return null;
}

/**
 * Why git may not be given a template folder to stay (`git config --global init.templateDir DIR`),
 * nor one for `git init` of the repository it is in: git copies the folder's hooks into every
 * repository it makes, and into this one's hooks folder at its next `git init`.
 */
export const TEMPLATE_REASON =
  "a template folder's hooks are copied into every repository `git init` or `git clone` makes, and into this one's hooks folder at its next `git init`, where they run on every commit and push: ask the user";

/** Why git may not be given another exec path. */
export const EXEC_PATH_REASON =
  "another exec path makes git run its helpers from there, and find the programs its hooks start (axme's among them) there first: run git as installed";

/** The findings on the variables a command sets for the programs it starts, or exports (settingFindings). */
export function assignedFindings(cmd: SimpleCommand, inv: Invocation | null): SettingFinding[] {
  const assignments = assignmentsOf(cmd, inv);
  return assignments.length ? settingFindings({ assignments }) : [];
}

import { loosensRules } from '../model/rule-loosening.ts';
import type { RuleType } from '../model/safety-rules.ts';
import type { Invocation } from './command.ts';
import { splitOptions } from './families/git-options.ts';
import { GIT_LONG_OPTIONS } from './git-long-options.ts';
import type { Finding, GitCall } from './git-rules.ts';
import { runnerInner } from './runners.ts';
import type { SimpleCommand } from './syntax.ts';

/**
 * The commands that would switch the guard rail off (docs/safety.md, "The guard rail's own
 * state"), whatever the lists say: axme's own `safety remove|set|reset` and `uninstall`, also run
 * through a package runner (`npx axme@latest …`, `pnpm dlx axme …`, `npm exec axme -- …`), and
 * axme removed by a package manager (`npm uninstall -g axme`); git
 * told to run other hooks or a file-system monitor (`core.hooksPath`, `core.fsmonitor`) by `-c`,
 * `git config` or the environment (`GIT_CONFIG_COUNT`/`KEY_n`/`VALUE_n`, `GIT_CONFIG_PARAMETERS`);
 * the hooks skipped or pushed around; `refs/memory/*` moved by any git verb.
 */

const SELF = 'axme.self';

/**
 * Whether `abs` (a path, or a glob whose every name ends so) is one of the examples git writes
 * into a guarded hooks folder at `git init` (`.git/hooks/pre-commit.sample`): git runs a hook
 * only by its exact name, so a `*.sample` file is neither axme's nor run. The folder itself and
 * every other file in it stay guarded.
 */
export function isSampleHook(abs: string, guarded: readonly string[]): boolean {
  const slash = abs.lastIndexOf('/');
  const dir = abs.slice(0, slash);
  return dir.endsWith('/hooks') && /^[^/]+\.sample$/.test(abs.slice(slash + 1)) && guarded.includes(dir);
}

/** axme itself, run directly, from its file, or through package runners (`npx -y axme@1 …`): its arguments, else null. */
function axmeArgs(inv: Invocation): string[] | null {
  let program = inv.program;
  let args = inv.args.map((w) => w.value);
  for (let depth = 0; depth < 4; depth++) {
    if (program === 'axme' || program === 'axme.cjs') return args;
    // `node node_modules/axme/dist/axme.cjs …`
    if (program === 'node' && args.some((x) => /(^|\/)axme(\.cjs)?$/.test(x))) return args;
    const inner = runnerInner(program, args);
    if (!inner) return null;
    [program, args] = inner;
  }
  return null;
}

/** Each package manager's verbs that remove a package (`npm rm`, `yarn global remove`). */
const REMOVE_VERBS: Record<string, ReadonlySet<string>> = {
  npm: new Set(['uninstall', 'un', 'unlink', 'remove', 'rm', 'r']),
  pnpm: new Set(['remove', 'rm', 'uninstall', 'un']),
  yarn: new Set(['remove']),
  bun: new Set(['remove', 'rm']),
};

/** `npm uninstall -g axme`, `pnpm remove -g axme`, `yarn global remove axme`, `npm rm axme@0.1.0`: axme removed, from the machine or the project. */
function removesAxme(inv: Invocation): boolean {
  if (!Object.hasOwn(REMOVE_VERBS, inv.program)) return false;
  const operands = inv.args.map((w) => w.value).filter((x) => !x.startsWith('-'));
  const [verb, ...names] = inv.program === 'yarn' && operands[0] === 'global' ? operands.slice(1) : operands;
  return verb !== undefined && REMOVE_VERBS[inv.program]!.has(verb) && names.some((n) => /^axme(@.*)?$/.test(n));
}

/** `axme safety remove|set|reset`, a loosening `axme safety add`, `axme uninstall`, however axme is started; axme removed by a package manager. */
export function axmeCommand(inv: Invocation): Finding | null {
  if (removesAxme(inv)) return { rule: SELF, reason: `\`${inv.program}\` would remove axme, whose hooks check this agent: ask the user` };
  const a = axmeArgs(inv);
  if (!a) return null;
  const i = a.indexOf('safety');
  if (
    i >= 0 &&
    (['remove', 'set', 'reset'].includes(a[i + 1] ?? '') || (a[i + 1] === 'add' && loosensRules({ action: 'add', rule_type: a[i + 2] as RuleType })))
  ) {
    return { rule: SELF, reason: `\`axme safety ${a[i + 1]}\` loosens the rules that bind this agent: ask the user to run it (adding rules is fine)` };
  }
  if (a.includes('uninstall')) return { rule: SELF, reason: '`axme uninstall` removes the git hooks that bind this agent: ask the user' };
  return null;
}

/** git settings that make git run something else than axme's hooks: other hooks, a file-system monitor command. */
const GIT_HOOK_SETTINGS = /core\.(hookspath|fsmonitor)/i;
/** git settings that name another config file for git to read, which may set GIT_HOOK_SETTINGS: `include.path`, `includeIf.<condition>.path`. */
const GIT_INCLUDE_SETTINGS = /^include(if\..+)?\.path$/i;
/** Environment variables through which git takes settings. */
const GIT_CONFIG_ENV = /^(GIT_CONFIG_PARAMETERS|GIT_CONFIG_COUNT|GIT_CONFIG_KEY_\d+|GIT_CONFIG_VALUE_\d+)=/;
/** Environment variables that name the global or system config file git reads (`/dev/null`, or nothing, names none to read). */
const GIT_CONFIG_FILE_ENV = /^GIT_CONFIG_(GLOBAL|SYSTEM)=(?!(\/dev\/null)?$)/;
/** The folders git finds the global config in (`$HOME/.gitconfig`, `$XDG_CONFIG_HOME/git/config`): given to git, another config file. */
const GIT_CONFIG_HOME_ENV = /^(HOME|XDG_CONFIG_HOME)=/;

/** Variables that make husky skip the hooks it runs (axme's lines are in its hook files): `HUSKY=0` (husky 5 on), `HUSKY_SKIP_HOOKS` (husky 4). */
const HOOKS_OFF_ENV = /^(HUSKY=0|HUSKY_SKIP_HOOKS=.+)$/;

/** The names of HOOKS_OFF_ENV: exported by name (`HUSKY=0; export HUSKY`), they carry whatever value they hold on to git. */
const HOOKS_OFF_NAMES = /^(HUSKY|HUSKY_SKIP_HOOKS)$/;

/**
 * `GIT_CONFIG_KEY_0=core.hooksPath … git …`, `export GIT_CONFIG_PARAMETERS="'core.fsmonitor'=…"`:
 * git settings given through the environment; and `HUSKY=0`, which switches the hooks off for git
 * run with it, or for every later command once exported (`HUSKY=0 npm ci` runs no git hook: it passes).
 */
export function gitConfigEnv(cmd: SimpleCommand, inv: Invocation | null): Finding | null {
  // the assignments before the program (and its wrappers'), or what `export` sets; not the arguments (`echo GIT_CONFIG_…`)
  const before = inv ? cmd.words.slice(0, Math.max(0, cmd.words.length - inv.args.length - 1)) : cmd.words;
  const sets = inv && ['export', 'declare', 'typeset', 'readonly', 'local'].includes(inv.program) ? inv.args : [];
  const words = [...before, ...sets].map((w) => w.value);
  // husky's hooks run under git: before another program (`HUSKY=0 npm ci`) the value goes nowhere near them
  const hooksOff = [...(!inv || inv.program === 'git' ? before : []), ...sets].some((w) => HOOKS_OFF_ENV.test(w.value));
  const exported = (inv?.program === 'export' || sets.some((w) => /^-[a-z]*x/.test(w.value))) && sets.some((w) => HOOKS_OFF_NAMES.test(w.value));
  if (hooksOff || exported)
    return { rule: SELF, reason: "HUSKY=0 (or HUSKY_SKIP_HOOKS) makes husky skip every git hook it runs, axme's among them: ask the user" };
  // `HOME=/tmp/x git …`: git reads the global config from the home (or XDG config) folder it is given
  const configHome = inv?.program === 'git' && before.some((w) => GIT_CONFIG_HOME_ENV.test(w.value));
  if (configHome || words.some((v) => GIT_CONFIG_FILE_ENV.test(v)))
    return {
      rule: SELF,
      reason:
        "GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, or HOME or XDG_CONFIG_HOME given to git, makes git read a config file of the agent's, which can set core.hooksPath: ask the user",
    };
  const env = words.filter((v) => GIT_CONFIG_ENV.test(v));
  if (!env.some((v) => GIT_HOOK_SETTINGS.test(v) || GIT_INCLUDE_SETTINGS.test(v.slice(v.indexOf('=') + 1)))) return null;
  return {
    rule: SELF,
    reason: "setting core.hooksPath, core.fsmonitor or include.path through GIT_CONFIG_* makes git run other hooks or commands than axme's: ask the user",
  };
}

/** The variables by which axme tells a person from an agent (model/actor.ts actorFrom, model/agent-env.ts). */
const ACTOR_ENV = ['AXME_ACTOR', 'CLAUDECODE', 'AXME_AGENT'];
/** The settings that say the actor is an agent. */
const SAYS_AGENT = ['AXME_ACTOR=agent', 'CLAUDECODE=1', 'AXME_AGENT=1'];
/** The programs that read who the actor is: axme, and git (its hooks are axme's). */
const ACTOR_READERS = new Set(['axme', 'git']);
/** The wrappers that start a program with an empty environment, and their option letter for it (`env -i`, bash's `exec -c`); the letters of theirs that take a value. */
const CLEARING_WRAPPERS: Record<string, { clear: string; long: string | null; valued: string }> = {
  env: { clear: 'i', long: '--ignore-environment', valued: 'uCS' },
  exec: { clear: 'c', long: null, valued: 'a' },
};

/**
 * Whether the words before a program hold a wrapper that starts it with an empty environment
 * (`env -i`, `env -`, `env --ignore-environment`, `env -iv`, `exec -c`): the actor's variables go
 * with the rest. A clean environment for a build or the tests (`env -i PATH=$PATH npm test`) is
 * everyday; for axme or git it passes the agent off as a person.
 */
function clearsEnvironment(words: readonly string[]): boolean {
  for (let i = 0; i < words.length; i++) {
    const w = CLEARING_WRAPPERS[words[i]!];
    if (!w) continue;
    for (let j = i + 1; j < words.length && words[j]!.startsWith('-'); j++) {
      const o = words[j]!;
      if (o === '--') break;
      if ((o === '-' && words[i] === 'env') || o === w.long) return true;
      if (o.startsWith('--')) continue;
      for (const c of o.slice(1)) {
        if (c === w.clear) return true;
        // a letter that takes a value takes the rest of the word (or the next word)
        if (w.valued.includes(c)) {
          if (o.endsWith(c)) j++;
          break;
        }
      }
    }
  }
  return false;
}

/** Agent clients started from an agent's shell: their own commands are an agent's again. */
const AGENT_CLIENTS = ['claude', 'codex', 'gemini'];

/**
 * `AXME_ACTOR=human axme revert …`, `env -u CLAUDECODE git push --force …`, `unset AXME_AGENT`:
 * an agent passing itself off as a person, to whom axme leaves what it refuses an agent (revoking
 * a required decision, a revert that loosens the rules, the git hooks' agent-only branch rules).
 * Setting AXME_ACTOR=agent, CLAUDECODE=1 or AXME_AGENT=1 changes nothing and passes, and so does
 * a nested agent client (`env -u CLAUDECODE claude -p …`); naming the variable as an argument
 * (`echo AXME_ACTOR=human`) is not setting it.
 */
export function actorEnv(cmd: SimpleCommand, inv: Invocation | null): Finding | null {
  const before = (inv ? cmd.words.slice(0, Math.max(0, cmd.words.length - inv.args.length - 1)) : cmd.words).map((w) => w.value);
  const declared = inv && ['export', 'declare', 'typeset', 'readonly', 'local', 'unset'].includes(inv.program) ? inv.args.map((a) => a.value) : [];
  const words = [...before, ...declared];
  // a nested agent client (`env -u CLAUDECODE claude -p …`, the usual way to run one inside another) is an agent itself
  if (inv && AGENT_CLIENTS.includes(inv.program)) return null;
  const claims = words.some((v, i) => {
    const m = /^([A-Z_]+)=(.*)$/.exec(v);
    // saying it is an agent changes nothing
    if (m && ACTOR_ENV.includes(m[1]!)) return !SAYS_AGENT.includes(v);
    // unset, env -u NAME / --unset=NAME / --unset NAME
    if (ACTOR_ENV.includes(v) && (inv?.program === 'unset' || ['-u', '--unset'].includes(words[i - 1] ?? ''))) return true;
    return ACTOR_ENV.some((n) => v === `--unset=${n}` || v === `-u${n}`);
  });
  // an empty environment, unless it says again that this is an agent
  const cleared = inv !== null && ACTOR_READERS.has(inv.program) && clearsEnvironment(before) && !words.some((v) => SAYS_AGENT.includes(v));
  if (!claims && !cleared) return null;
  return {
    rule: SELF,
    reason: "who axme takes for the actor (AXME_ACTOR, CLAUDECODE, AXME_AGENT) is not the agent's to change: what axme leaves to a person, ask the user to do",
  };
}

/**
 * Whether the words hold `-n`, which is `--no-verify` for commit and, from git 2.40, am (`-3n`),
 * read with the git checks' one reading of a subcommand's words (a valued option in a cluster takes
 * the rest as its value: `commit -mn` is the message "n", `am -p1`).
 */
function shortNoVerify(sub: string, args: readonly string[]): boolean {
  const valued = SHORT_NO_VERIFY_VALUED[sub];
  return valued !== undefined && splitOptions(args, GIT_LONG_OPTIONS[sub] ?? [], valued).flags.has('n');
}

/** The subcommands whose `-n` is `--no-verify`, with their short options that take a value (`-S[<keyid>]` takes one only attached: not listed). */
const SHORT_NO_VERIFY_VALUED: Record<string, ReadonlySet<string>> = {
  commit: new Set(['-m', '-F', '-c', '-C', '-t']),
  am: new Set(['-C', '-p']),
};

/** The git verbs whose hooks `--no-verify` skips (`pull` hands it to its merge or rebase). */
const VERIFIED = new Set(['commit', 'push', 'merge', 'rebase', 'cherry-pick', 'revert', 'am', 'pull']);
const READ_CONFIG = ['--get', '--get-all', '--get-regexp', '--list', '-l', 'get', 'list'];

/** `git config`'s options that write (besides a value after the key), and its subcommands that do. */
const CONFIG_WRITES = /^(--unset|--unset-all|--add|--replace-all|--rename-section|--remove-section|-e|--edit|set|unset|rename-section|remove-section|edit)$/;
/** `git config`'s options that take a value (`--file F`, `--type bool`): that value is no key and no value of one. */
const CONFIG_VALUED = new Set(['-f', '--file', '--blob', '--type', '--default', '--comment', '--value']);

/**
 * Whether `git config`'s words only show a setting: a key with no value after it and no writing
 * option (`git config core.hooksPath`, `git config --show-origin core.hooksPath`, `--show-scope`,
 * `--null`), as git reads them.
 */
function configReadsKey(args: readonly string[]): boolean {
  if (args.some((x) => CONFIG_WRITES.test(x))) return false;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (CONFIG_VALUED.has(args[i]!)) i++;
    else if (!args[i]!.startsWith('-')) operands.push(args[i]!);
  }
  return operands.length === 1;
}

/** `core.fsmonitor` set to a boolean: git's own monitor daemon (`true`) or none (`false`), no command of the agent's. */
function monitorSwitch(key: string, value: string): boolean {
  return key.toLowerCase() === 'core.fsmonitor' && /^(true|false|yes|no|on|off|1|0)$/i.test(value);
}

/**
 * `git config --unset alias.st`, `--unset-all`, `unset`: an alias taken
 * away — `git st` then fails, and no command runs that the checks did not see. Setting one, or
 * unsetting a hook or push setting, is no such call.
 */
function unsetsAliases(args: readonly string[], guardedKey: (x: string) => boolean): boolean {
  const verb = args.find((x) => !x.startsWith('-'));
  const unsets = args.some((x) => /^--(unset|unset-all)$/.test(x)) || verb === 'unset' || verb === 'unset-all';
  return unsets && args.filter(guardedKey).every((k) => /^alias\./i.test(k));
}

/**
 * `git config --remove-section core`, `--rename-section core x` (or the `remove-section` and
 * `rename-section` subcommands): the section's keys go with it, core.hooksPath and core.fsmonitor
 * among them. The section is the first word after the option that is not an option itself.
 */
function removesCoreSection(args: readonly string[]): boolean {
  const at = args.findIndex((x) => /^(--)?(remove|rename)-section$/.test(x));
  if (at < 0) return false;
  const section = args.slice(at + 1).find((x) => !x.startsWith('-'));
  return section !== undefined && section.toLowerCase() === 'core';
}

/**
 * Ways around the git hooks and the store: skipping the hooks, pointing git at other hooks or a
 * monitor command, pushing with plumbing, rewiring push refspecs or aliases, moving
 * refs/memory/* (`update-ref`, `symbolic-ref`, a push or fetch into it, `update-ref --stdin`
 * fed anything but a static text without refs/memory). `stdin` is what the call reads when the
 * command line says (a here-string, a static pipe), else null.
 */
export function gitBypasses(call: GitCall, stdin: string | null): Finding[] {
  const out: Finding[] = [];
  const a = call.args;
  for (const [key, value] of call.config) {
    if (GIT_HOOK_SETTINGS.test(key) && !monitorSwitch(key, value))
      out.push({
        rule: SELF,
        reason: `running git with another ${key === 'core.fsmonitor' ? 'core.fsmonitor' : 'core.hooksPath'} runs other commands than the axme git hooks: ask the user`,
      });
    if (GIT_INCLUDE_SETTINGS.test(key))
      out.push({ rule: SELF, reason: `\`-c ${key}\` makes git read another config file, which can set core.hooksPath: ask the user` });
  }
  if (VERIFIED.has(call.sub) && (a.includes('--no-verify') || shortNoVerify(call.sub, a))) {
    out.push({ rule: SELF, reason: `\`git ${call.sub} --no-verify\` skips the git hooks that check it: drop --no-verify` });
  }
  if (call.sub === 'send-pack') out.push({ rule: SELF, reason: '`git send-pack` pushes around the pre-push hook: use git push' });
  const reads = a.some((x) => READ_CONFIG.includes(x)) || (call.sub === 'config' && configReadsKey(a));
  const guardedKey = (x: string) =>
    /^(core\.hookspath|core\.fsmonitor|remote\..+\.push|remote\..+\.pushurl|alias\..+)$/i.test(x) || GIT_INCLUDE_SETTINGS.test(x);
  const at = a.findIndex(guardedKey);
  if (call.sub === 'config' && !reads && at >= 0 && !monitorSwitch(a[at]!, a[at + 1] ?? '') && !unsetsAliases(a, guardedKey)) {
    out.push({
      rule: SELF,
      reason: 'changing core.hooksPath, core.fsmonitor, push refspecs or aliases, or including another config file, changes what the checks see: ask the user',
    });
  }
  if (call.sub === 'config' && removesCoreSection(a))
    out.push({
      rule: SELF,
      reason: 'removing or renaming the core section of git config takes core.hooksPath with it, which changes what the checks see: ask the user',
    });
  // `git config --edit`: an editor on the config file, where any setting can be written
  if (call.sub === 'config' && (a.some((x) => x === '--edit' || x === '-e') || a.find((x) => !x.startsWith('-')) === 'edit'))
    out.push({ rule: SELF, reason: '`git config --edit` opens the config file, where core.hooksPath can be set: change settings with `git config KEY VALUE`' });
  const memory = (x: string) => /(^|[:+])refs\/memory\//.test(x);
  const moves =
    ((call.sub === 'update-ref' || call.sub === 'symbolic-ref') && a.some((x) => x.startsWith('refs/memory/'))) ||
    // a push names the remote ref after its `:` (or the same name without one); a fetch moves a local ref only after a `:`
    (call.sub === 'push' && a.some((x) => !x.startsWith('-') && memory(x.includes(':') ? x.slice(x.lastIndexOf(':')) : `:${x.replace(/^\+/, '')}`))) ||
    (call.sub === 'fetch' && a.some((x) => !x.startsWith('-') && x.includes(':') && memory(x.slice(x.lastIndexOf(':')))));
  if (moves) out.push({ rule: SELF, reason: 'refs/memory/* is moved only by axme (axme sync, axme commands): ask the user' });
  else if (call.sub === 'update-ref' && a.includes('--stdin') && (stdin === null || stdin.includes('refs/memory/'))) {
    out.push({
      rule: SELF,
      reason: '`git update-ref --stdin` moves the refs it reads, refs/memory/* among them when not given as static text: name the ref on the command line',
    });
  }
  return out;
}

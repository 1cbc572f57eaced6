import { shellJoin, shellQuote } from '../model/shell-quote.ts';
import { gitSubcommandAt } from '../safety/git-global-options.ts';
import { isCommandSetting } from '../safety/git-settings.ts';
import { isDynamic, parseShell, type SimpleCommand } from '../safety/shell.ts';
import { ASSIGNMENT } from '../safety/syntax.ts';
import { urlHost } from '../safety/transport-settings.ts';
import { branchCall, checkoutCall, movedBranch, pushCall, worktreeCall } from './branch-tracking.ts';
import { gitHooksOn } from './clients/gemini.hook.ts';
import { priorRemoteUrl, rememberRemote } from './former-remotes.ts';
import { type ConfigGrant, gitOutside, instead, type JudgeAt, NAME, note, REMOTE_NAME } from './git-config-grant.ts';
import { movesBranch, remoteOfTracking, settingKey } from './push-destination.ts';
import type { RepoFacts } from './repo-facts.ts';

/**
 * The git commands whose one effect the kernel sandbox blocks is a write of git's settings
 * (`.git/config`, read-only in the sandbox: a setting such as `core.hooksPath` would run a program
 * outside it later), and what axme does for each (docs/safety.md, "git's settings"):
 *
 * - `instead`: a command that writes settings and runs nothing (`git config pull.rebase true`,
 *   `git remote add up https://…`, `git branch -u origin/x`) runs outside the sandbox as axme's own
 *   git line, made from the command's literal words, with no hooks (`core.hooksPath=/dev/null`);
 * - `after`: a command whose work stays in the sandbox (`git push -u origin feat`, `git checkout -b x
 *   --track origin/x`, `git worktree add -b x ../x origin/x`) runs there; once it succeeded, axme
 *   records its tracking outside;
 * - `note`: a command that would write settings axme does not record for an agent (one that runs
 *   a program, `--global`, a chained command) runs in the sandbox as before, after a line that says
 *   why its settings will not change and what to do.
 *
 * Only a plain git command qualifies for the first two: one command, its words literal (no
 * variable, substitution, glob, redirect or assignment), no global option, every setting it writes
 * on RECORDED_SETTINGS. A setting is recorded only where git would write it.
 */

/**
 * The settings axme writes for an agent (keys lower-cased): tracking, remotes and their refspecs,
 * pull and push defaults. None runs a program. Not identity: `user.name`/`user.email` kept in the
 * repository's config sign the user's own later commits (an agent commits as anyone with `git -c
 * user.name=… commit`, which changes nothing that stays); a remote's URL is held to a network
 * transport (SAFE_URL), a branch's remote to a remote's name, a fetch refspec to remote-tracking
 * refs, a push refspec to one not forced (recordedSetting).
 */
const RECORDED_SETTINGS =
  /^(branch\.[^\s]+\.(remote|pushremote|merge|rebase|description)|remote\.[^\s.]+\.(url|pushurl|fetch|push|tagopt|prune|skipdefaultupdate)|pull\.(rebase|ff)|push\.(default|autosetupremote|followtags)|fetch\.prune|rebase\.autostash|init\.defaultbranch)$/;

/** A remote's URL axme records: https, http, ssh or git, or scp-like `user@host:path` — no transport helper (`ext::`), no local path (its hooks run on push). */
const SAFE_URL = /^((https?|ssh|git):\/\/(?!-)[A-Za-z0-9_.@[\]:-]+(\/\S*)?|(?!-)[A-Za-z0-9_.-]+@(?!-)[A-Za-z0-9_.-]+:[^\s:-]\S*)$/;

/** Whether axme records `key` = `value` for an agent (RECORDED_SETTINGS, and the value's shape). */
export function recordedSetting(key: string, value: string | null): boolean {
  const k = key.toLowerCase();
  if (!RECORDED_SETTINGS.test(k) || isCommandSetting(k, value ?? undefined)) return false;
  if (value === null) return true;
  if (/\.(url|pushurl)$/.test(k) && k.startsWith('remote.')) return SAFE_URL.test(value) && !value.includes('::');
  if (/^branch\..+\.(remote|pushremote)$/.test(k)) return value === '.' || REMOTE_NAME.test(value);
  // a fetch lands in remote-tracking refs only (`+refs/heads/*:refs/heads/*` would overwrite the local branches at the user's next fetch); a push is never forced
  if (/^remote\..+\.fetch$/.test(k)) return /^\+?refs\/[^:\s]+:refs\/remotes\/[^:\s]+$/.test(value);
  if (/^remote\..+\.push$/.test(k)) return /^[^+:\s][^:\s]*(:[^:\s]+)?$/.test(value);
  return !/[\n\r]/.test(value);
}

/** The command line text a grant binds to: printable, one line, no shell code but quotes (a `*` only quoted: literal() refuses a glob). */
const PLAIN_TEXT = /^[A-Za-z0-9_@%+=:,./ "'*-]+$/;

/** The `#!axme …` metadata comment ending a command line (safety/marker.ts), in the characters PLAIN_TEXT allows. */
const MARKER_COMMENT = /\s+#!axme(\s+[A-Za-z0-9_=:,./-]+)*\s*$/;

/** The text gitHooksOn puts ahead of a command, whatever the hooks' folder. */
const GIT_HOOKS_ON = new RegExp(
  `^${gitHooksOn('', 'HOOKS')
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace('HOOKS', "('[^']*'|[A-Za-z0-9_@%+=:,./-]+)")}`,
);

/** A line on stderr saying what the agent should know. */
const say = (text: string): string => `printf '%s\\n' ${shellQuote(`axme: ${text}`)} >&2`;

const READ_ONLY = "git's settings (.git/config) are read-only in axme's sandbox: a setting there can make git run a program outside it later";

/** What axme does for `command` run from `cwd` in the sandbox (see ConfigGrant), or null: nothing (it writes no settings). */
export function gitConfigGrant(whole: string, at: { cwd: string; home: string; facts: RepoFacts }): ConfigGrant | null {
  if (!/\bgit\b/.test(whole)) return null;
  // Gemini CLI's hook turns axme's git hooks back on ahead of the command (gitHooksOn): no part of what the command does outside
  const command = whole.replace(GIT_HOOKS_ON, '');
  let script: ReturnType<typeof parseShell>;
  try {
    script = parseShell(command, { home: at.home });
  } catch {
    return null;
  }
  const gits = script.commands.filter((c) => gitAt(c) >= 0);
  if (!gits.length) return null;
  // axme's own marker comment (`git push … #!axme pr=none repo=o/r`) is no shell code
  const text = command.replace(MARKER_COMMENT, '');
  const single = script.commands.length === 1 && !script.tooDeep && PLAIN_TEXT.test(text) && literal(script.commands[0]!) && gitAt(script.commands[0]!) === 0;
  for (const cmd of gits) {
    const args = cmd.words.slice(gitAt(cmd) + 1).map((w) => w.value);
    const written = cmd.words.slice(gitAt(cmd)).map((w) => w.raw);
    const subAt = gitSubcommandAt(args);
    const judged = subAt < 0 ? null : judgeGit(args.slice(subAt), at);
    if (!judged) continue;
    if (judged.kind === 'note') return { kind: 'note', script: say(`${READ_ONLY}; ${judged.script}`) };
    if (single && subAt === 0) return judged;
    if (subAt > 0)
      return {
        kind: 'note',
        script: say(
          `${READ_ONLY}; axme records the settings of a plain git command: run \`${['git', ...written.slice(subAt + 1)].join(' ')}\` without git's own options (-c, -C…)`,
        ),
      };
    if (script.commands.length === 1)
      return {
        kind: 'note',
        script: say(`${READ_ONLY}; axme records the settings of a plain git command only: literal words, no variable, substitution, glob or redirect`),
      };
    return {
      kind: 'note',
      script: say(`${READ_ONLY}; axme records the settings of a git command run on its own, as one plain command: run \`${written.join(' ')}\` alone`),
    };
  }
  return null;
}

/** Where `git` stands among the command's words: first, or after assignments and a plain wrapper (`env`, `command`); -1: not a git command. */
function gitAt(cmd: SimpleCommand): number {
  const i = cmd.words.findIndex((w) => w.value === 'git');
  return i >= 0 && cmd.words.slice(0, i).every((w) => ASSIGNMENT.test(w.raw) || /^(env|command|exec|nohup|time)$/.test(w.value)) ? i : -1;
}

/** A command of literal words only: no assignment, variable, substitution, glob or redirect. */
function literal(cmd: SimpleCommand): boolean {
  return !cmd.redirects.length && cmd.words.every((w) => !w.glob && !w.subs.length && !isDynamic(w) && !w.leadingVar && !w.raw.startsWith('~'));
}

/** The grant for `git <args>` (a note's script is its reason), or null. */
function judgeGit(args: string[], at: JudgeAt): ConfigGrant | null {
  const sub = args[0] ?? '';
  const rest = args.slice(1);
  if (sub.startsWith('-')) return null;
  switch (sub) {
    case 'config':
      return configCall(rest, at);
    case 'remote':
      return remoteCall(rest, at);
    case 'branch':
      return branchCall(rest, at);
    case 'push':
      return pushCall(rest, at);
    case 'checkout':
    case 'switch':
      return checkoutCall(sub, rest, at);
    case 'worktree':
      return worktreeCall(rest, at);
    case 'submodule':
      return /^(add|init|update|sync|deinit|set-url|set-branch)$/.test(rest[0] ?? '')
        ? note(`\`git submodule ${rest[0]}\` writes the submodule's settings there: ask the user to run it outside the agent`)
        : null;
    case 'sparse-checkout':
      return /^(init|set|add|reapply|disable)$/.test(rest[0] ?? '')
        ? note(`\`git sparse-checkout ${rest[0]}\` writes core.sparseCheckout there: ask the user to run it outside the agent`)
        : null;
    case 'maintenance':
      return /^(start|stop|register|unregister)$/.test(rest[0] ?? '')
        ? note(`\`git maintenance ${rest[0]}\` writes the maintenance settings and schedules programs: ask the user to run it outside the agent`)
        : null;
    case 'lfs':
      return /^(install|uninstall)$/.test(rest[0] ?? '')
        ? note('`git lfs install` sets filters and hooks, which run programs: ask the user to run it outside the agent')
        : null;
    default:
      return null;
  }
}

/** `git config [--local] [--add|--replace-all|--unset|--unset-all] KEY [VALUE [PATTERN]]`: a write of recorded settings runs outside. */
function configCall(args: string[], at: JudgeAt): ConfigGrant | null {
  const { cwd } = at;
  const opts = args.filter((a) => a.startsWith('-'));
  const operands = args.filter((a) => !a.startsWith('-'));
  const unset = opts.some((o) => o === '--unset' || o === '--unset-all');
  const reads = opts.some((o) => /^(--get|--get-all|--get-regexp|--get-urlmatch|--list|-l|--show-origin|--show-scope|--name-only|-e|--edit)$/.test(o));
  if (reads || (!unset && operands.length < 2) || operands.length === 0) return null;
  const key = operands[0]!;
  const shown = shellJoin(['git', 'config', ...args]);
  if (!opts.every((o) => /^(--local|--add|--replace-all|--unset|--unset-all)$/.test(o)))
    return note(`\`${shown}\` is not recorded: axme writes this repository's own settings (--local) only`);
  const remoteUrl = /^remote\.([^\s.]+)\.(url|pushurl)$/i.exec(key);
  if (remoteUrl && !unset && !sameHost(priorRemoteUrl(at.facts, remoteUrl[1]!), operands[1]!)) return movedRemote(shown);
  if (!recordedSetting(key, unset ? null : operands[1]!))
    return note(
      `\`${shown}\` is not recorded: axme writes only tracking, remote (network URLs) and pull/push settings for an agent: never one that runs a program, nor the user's identity; ask the user to run it outside the agent`,
    );
  const branchRemote = /^branch\.(.+)\.(remote|pushremote)$/i.exec(key);
  if (branchRemote && movesBranch(at.facts, branchRemote[1]!, { [settingKey(key)]: unset ? null : operands[1]! })) return movedBranch(shown);
  const line = instead(cwd, ['config', '--local', ...args.filter((a) => a !== '--local')]);
  // a URL unset is remembered: given again, it is judged as a moved remote
  const unsetUrl = unset && /^remote\.([^\s.]+)\.url$/i.exec(key);
  return unsetUrl ? { ...line, script: `${line.script}${rememberRemote(cwd, at.facts, unsetUrl[1]!)}` } : line;
}

/** Whether `url` keeps a remote on the host it has (`was`: priorRemoteUrl, the one it had before axme removed it included; a remote that never had one may point anywhere recorded, one only git can read nowhere): https to ssh, another path, not another host. */
const sameHost = (was: string | null | undefined, url: string): boolean =>
  was === null || (was !== undefined && urlHost(was) !== null && urlHost(was) === urlHost(url));

/** The note for a remote moved to another host: where the user's next push or pull goes is the user's to change. */
const movedRemote = (shown: string): ConfigGrant =>
  note(
    `\`${shown}\` is not recorded: it moves a remote to another host, where the user's next push would go; ask the user to run it outside the agent, or add a remote under a name of its own (git remote add <new name> …)`,
  );

/** `git remote add|rename|remove|set-url|set-branches`: settings and remote-tracking refs only. */
function remoteCall(args: string[], at: JudgeAt): ConfigGrant | null {
  const { cwd } = at;
  const verb = args[0] ?? '';
  const words = args.slice(1);
  const shown = shellJoin(['git', 'remote', ...args]);
  const url = (u: string | undefined) => u !== undefined && recordedSetting('remote.x.url', u);
  const badUrl = note(
    `\`${shown}\` is not recorded: axme records a remote's URL for an agent only with a network transport (https, ssh, git), never a local path or a helper`,
  );
  if (verb === 'add') {
    const ops: string[] = [];
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if (w === '-t' || w === '--track' || w === '-m' || w === '--master') i++;
      else if (/^(--tags|--no-tags|--track=.+|--master=.+)$/.test(w)) continue;
      else if (w.startsWith('-')) return note(`\`${shown}\` is not recorded as one command: add the remote (without ${w}), then run the rest`);
      else ops.push(w);
    }
    if (ops.length !== 2 || !REMOTE_NAME.test(ops[0]!)) return null;
    // a name axme removed (or renamed away) earlier, added again: the same remote, moved
    if (!sameHost(priorRemoteUrl(at.facts, ops[0]!), ops[1]!)) return movedRemote(shown);
    return url(ops[1]) ? instead(cwd, ['remote', ...args]) : badUrl;
  }
  if (verb === 'rename' || verb === 'remove' || verb === 'rm') {
    const ops = words.filter((w) => !w.startsWith('-'));
    if (ops.length !== words.length || ops.length !== (verb === 'rename' ? 2 : 1) || !ops.every((o) => REMOTE_NAME.test(o))) return null;
    // the URL of the name going away is remembered: added again, it is judged as a moved remote
    return { kind: 'instead', script: `${instead(cwd, ['remote', ...args]).script}${rememberRemote(cwd, at.facts, ops[0]!)}` };
  }
  if (verb === 'set-url') {
    const opts = words.filter((w) => w.startsWith('-'));
    const ops = words.filter((w) => !w.startsWith('-'));
    if (!opts.every((o) => /^(--push|--add|--delete)$/.test(o)) || ops.length < 2 || ops.length > 3 || !REMOTE_NAME.test(ops[0]!)) return null;
    if (opts.includes('--delete')) return instead(cwd, ['remote', ...args]);
    if (!sameHost(priorRemoteUrl(at.facts, ops[0]!), ops[1]!)) return movedRemote(shown);
    return url(ops[1]) ? instead(cwd, ['remote', ...args]) : badUrl;
  }
  if (verb === 'set-branches') {
    const ops = words.filter((w) => w !== '--add');
    return ops.length >= 2 && ops.every((o) => NAME.test(o)) ? instead(cwd, ['remote', ...args]) : null;
  }
  return null;
}

import { posix } from 'node:path';
import type { Invocation } from './command.ts';
import { pushWords } from './families/git-options.ts';
import { givenWorkTree, TREE_WRITERS, treeElsewhere } from './git-export-trees.ts';
import { gitExtrasCall } from './git-extras.ts';
import { gitGlobalOption } from './git-global-options.ts';
import { GIT_LONG_OPTIONS } from './git-long-options.ts';
import { movedRemote } from './git-remote-moves.ts';
import {
  EXEC_PATH_REASON,
  environmentSettings,
  environmentVariables,
  isCommandSetting,
  settingFindings,
  TEMPLATE_REASON,
  writtenSetting,
} from './git-settings.ts';
import { discardedWork, overwritesTree, reinitTemplate } from './git-worktree-writes.ts';
import { spelledOutNames } from './long-options.ts';
import { MARKER_FORMAT, MARKER_VALUES, type Marker, parseMarker } from './marker.ts';
import type { PathKind } from './paths.ts';
import { matchesName, starGlob } from './patterns.ts';
import type { Policy } from './policy.ts';
import { movedPushes } from './push-destinations.ts';
import { UNKNOWN } from './shell.ts';
import { plainWord, type Word } from './syntax.ts';

/**
 * Git rules: protected branches, force push, `reset --hard`, `clean -f`, discarding every change,
 * tags, and the `#!axme` marker on commits and pushes — in every spelling git accepts, after its
 * global options (`-C`, `-c k=v`, `--git-dir`) and `-c alias.*` definitions.
 */

export interface GitCall {
  sub: string;
  args: string[];
  /** the words of `args` as the shell read them (an alias's own words plain): what a substitution among them runs */
  words: Word[];
  /** the folder git runs in (after `-C`) and the repository it was pointed at */
  cwd: string;
  gitDir: string | null;
  /** the shell command of a `-c alias.x=!cmd` alias that the call runs, if any */
  aliasScript: string | null;
  /** the settings of this call, its environment's and its own (`-c`, `--config-env`), keys lower-cased */
  config: Map<string, string>;
  /** the settings its own options give (`-c key=value`, `--config-env`), keys lower-cased */
  given: Map<string, string>;
  /** settings `--config-env` takes from a variable the command line does not give (`--config-env=core.pager=P`) */
  unread: string[];
  /** the folder `--exec-path=DIR` has git run its helpers from, if any */
  execPath: string | null;
  /** the work tree it is given (`--work-tree`, `GIT_WORK_TREE`: git-export-trees.ts), absolute; null when none */
  workTree?: string | null;
  /** the git-extras command this call stands for (`delete-branch`: git-extras.ts), if any */
  extras?: string;
}

export interface Finding {
  rule: string;
  reason: string;
  /** 'ask': a person should decide (the client asks them where it can); absent: deny */
  action?: 'ask';
}

/** A `#!axme pr=N` marker whose PR state must be looked up before the call may run. */
export interface PrGate {
  what: string;
  marker: Marker;
}

export interface GitContext {
  policy: Policy;
  home: string;
  branchOf(dir: string, gitDir: string | null): string | null;
  /** the URL a remote of the repository in `dir` (or at `gitDir`) has now; absent or null when unknown */
  remoteUrl?: ((dir: string, gitDir: string | null, name: string) => string | null) | undefined;
  /** a setting of the repository in `dir` (or at `gitDir`) (EvalContext.gitSetting) */
  gitSetting?: ((dir: string, gitDir: string | null, key: string) => string | null) | undefined;
  /** what is at an absolute path now (EvalContext.pathKind) */
  pathKind?: ((path: string) => PathKind | null) | undefined;
  /** whether a list entry is present (its rule is on) and the invocation is not exempted */
  listed(entry: string): boolean;
  exempt: boolean;
}

/** Reads git's global options and alias definitions (`-c alias.x=…`, or from the environment); null when no subcommand follows. */
export function parseGit(inv: Invocation, cwd: string, home: string): GitCall | null {
  const a = inv.args.map((w) => w.value);
  const given = new Map<string, string>();
  const unread: string[] = [];
  const variables = environmentVariables(inv);
  const workTree = givenWorkTree(inv, cwd, home);
  let gitDir: string | null = null;
  let execPath: string | null = null;
  let i = 0;
  while (i < a.length && a[i]!.startsWith('-')) {
    const { name, value, next } = gitGlobalOption(a, i);
    // `git --exec-path` prints where git's helpers are and exits; `--exec-path=DIR` runs them from DIR
    if (name === '--exec-path' && value === undefined) return null;
    i = next;
    if (value === undefined) continue;
    if (name === '-C' && value && !value.includes(UNKNOWN)) cwd = posix.resolve(cwd, value.replace(/^~(?=\/|$)/, home));
    else if (name === '--git-dir' && !value.includes(UNKNOWN)) gitDir = posix.resolve(cwd, value.replace(/^~(?=\/|$)/, home));
    else if (name === '--exec-path') execPath = value;
    else if (name === '--config-env') {
      // `--config-env=core.pager=P`: git reads the value from the variable P
      const key = value.slice(0, Math.max(0, value.lastIndexOf('='))).toLowerCase();
      const variable = value.slice(value.lastIndexOf('=') + 1);
      const known = variables.get(variable);
      if (known === undefined) unread.push(key);
      given.set(key, known ?? '(from the environment)');
    } else if (name === '-c') {
      const eq = value.indexOf('=');
      given.set((eq < 0 ? value : value.slice(0, eq)).toLowerCase(), eq < 0 ? 'true' : value.slice(eq + 1));
    }
  }
  if (i >= a.length) return null;
  const config = new Map([...environmentSettings(inv), ...given]);
  // `GIT_TEMPLATE_DIR=DIR git init`: the template folder, as `-c init.templateDir=DIR` gives it
  const template = variables.get('GIT_TEMPLATE_DIR');
  if (template) config.set('init.templatedir', template);
  const aliases = new Map([...config].filter(([key]) => key.startsWith('alias.')).map(([key, body]) => [key.slice(6), body]));
  let sub = a[i]!;
  let args = a.slice(i + 1);
  let words = inv.args.slice(i + 1);
  let aliasScript: string | null = null;
  for (let depth = 0; depth < 8 && aliases.has(sub.toLowerCase()); depth++) {
    const body = aliases.get(sub.toLowerCase())!.trim();
    if (body.startsWith('!')) {
      aliasScript = `${body.slice(1)} ${args.join(' ')}`;
      break;
    }
    const parts = aliasWords(body);
    if (!parts.length) break;
    sub = parts[0]!;
    args = [...parts.slice(1), ...args];
    words = [...parts.slice(1).map(plainWord), ...words];
  }
  // `git delete-branch main`: a git-extras command, read as the git command it runs (git-extras.ts)
  const extra = aliasScript === null ? gitExtrasCall(sub, args) : null;
  const extras = extra ? sub : undefined;
  if (extra) {
    sub = extra.sub;
    args = extra.args;
    words = extra.args.map(plainWord);
  }
  return { sub, args: expandLongOptions(sub, args), words, cwd, gitDir, aliasScript, config, given, unread, execPath, workTree, ...(extras && { extras }) };
}

/** An alias's words as git splits them (split_cmdline): at blanks, but within `'…'` or `"…"`; a backslash keeps the next character. */
function aliasWords(body: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: string | null = null;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quote === null && /\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === '\\' && quote !== "'" && i + 1 < body.length) word = (word ?? '') + body[++i];
    else if (quote === null && (c === "'" || c === '"')) {
      quote = c;
      word ??= '';
    } else if (c === quote) quote = null;
    else word = (word ?? '') + c;
  }
  if (word !== null) words.push(word);
  return words;
}

function expandLongOptions(sub: string, args: string[]): string[] {
  return Object.hasOwn(GIT_LONG_OPTIONS, sub) ? spelledOutNames(args, GIT_LONG_OPTIONS[sub]!) : args;
}

/** Every finding for one git call (the ways around the hooks are self-rules.ts's); `gates` collects `pr=N` markers to look up. */
export function checkGit(call: GitCall, comment: string | null, ctx: GitContext, gates: PrGate[]): Finding[] {
  const out: Finding[] = [...settingFindings({ config: call.given, written: writtenSetting(call) })];
  if (call.execPath) out.push({ rule: 'axme.self', reason: EXEC_PATH_REASON });
  // an alias too: `!…` is a shell command, and any other names the verb git runs
  for (const key of call.unread.filter((k) => isCommandSetting(k) || k.startsWith('alias.')))
    out.push({
      rule: 'git.configEnv',
      reason: `\`--config-env\` has git take ${key} from a variable whose value this command line does not show, and run it: give it with -c ${key}=…`,
    });
  const has = (...flags: string[]) => call.args.some((x) => flags.includes(x));
  const cluster = (letter: string, ...long: string[]) => call.args.some((x) => long.includes(x) || (/^-[A-Za-z]+$/.test(x) && x.includes(letter)));
  // `git --work-tree=/tmp/export checkout HEAD -- .` writes another folder: the project's work is not thrown away (git-export-trees.ts)
  if (TREE_WRITERS.has(call.sub) && treeElsewhere(call.workTree ?? null, call.cwd, call.gitDir)) return out;
  switch (call.sub) {
    case 'push':
      out.push(...checkPush(call, ctx));
      break;
    case 'reset':
      if (has('--hard') && !ctx.exempt)
        out.push({
          rule: 'git.reset-hard',
          reason: '`git reset --hard` throws away uncommitted work. Commit or stash first (`git stash`), or reset without --hard',
        });
      break;
    case 'clean':
      // `-c clean.requireForce=false` makes a plain `git clean` delete too
      if (
        ctx.listed('git clean -f') &&
        (cluster('f', '--force') || /^(false|no|off|0)$/i.test(call.config.get('clean.requireforce') ?? '')) &&
        !cluster('n', '--dry-run')
      ) {
        out.push({
          rule: 'bash.deniedPrefixes: git clean -f',
          reason: '`git clean -f` deletes untracked files for good. Preview with `git clean -n`, or remove the files you mean by name',
        });
      }
      break;
    case 'checkout':
    case 'restore':
    case 'switch':
      if (ctx.listed('git checkout -- .')) {
        const discarded = discardedWork(call, ctx.pathKind);
        if (discarded)
          out.push({
            rule: 'bash.deniedPrefixes: git checkout -- .',
            reason:
              discarded === 'the whole tree'
                ? `\`git ${call.sub}\` on the whole tree throws away every uncommitted change. Name the files to restore, or \`git stash\` first`
                : `\`git ${call.sub}\` of ${discarded} throws away every uncommitted change in the files it names. Name the files to restore, or \`git stash\` first`,
          });
      }
      break;
    case 'read-tree':
    case 'checkout-index':
      if (ctx.listed('git checkout -- .') && overwritesTree(call))
        out.push({
          rule: 'bash.deniedPrefixes: git checkout -- .',
          reason: `\`git ${call.sub}\` ${call.sub === 'read-tree' ? 'with `-u --reset`' : 'with `--force` of every file'} writes the index over the working tree, throwing away every uncommitted change. Name the files to restore, or \`git stash\` first`,
        });
      break;
    case 'remote':
    case 'config': {
      const moved = movedRemote(call, ctx.remoteUrl, ctx.gitSetting) ?? movedPushes(call, ctx.branchOf, ctx.gitSetting);
      if (moved) out.push(moved);
      break;
    }
    case 'init':
      if (reinitTemplate(call)) out.push({ rule: 'axme.self', reason: TEMPLATE_REASON });
      break;
    case 'update-ref':
      if (ctx.listed('git tag') && call.args.some((x) => x.startsWith('refs/tags/')))
        out.push({ rule: 'bash.deniedPrefixes: git tag', reason: 'creating or moving tags is a release step: ask the user to tag' });
      break;
    case 'tag':
      if (ctx.listed('git tag') && createsTag(call.args))
        out.push({
          rule: 'bash.deniedPrefixes: git tag',
          reason: 'creating or deleting tags is a release step: ask the user to tag (listing tags with `git tag -l` is fine)',
        });
      break;
  }
  // `git push -n` is a dry run; `git commit -n` is --no-verify, which still commits; a git-extras
  // deletion (`git delete-branch x`) pushes no commit, whose PR the marker would name
  const dryRun = call.extras !== undefined || has('--dry-run') || (call.sub === 'push' && call.args.some((x) => /^-[A-Za-z]*n[A-Za-z]*$/.test(x)));
  if ((call.sub === 'commit' || call.sub === 'push') && ctx.policy.requireAxmeSuffix !== 'never' && !dryRun) {
    const f = checkMarker(call, comment, gates);
    if (f) out.push(f);
  }
  return out;
}

function checkPush(call: GitCall, ctx: GitContext): Finding[] {
  const { policy } = ctx;
  const out: Finding[] = [];
  const opt = pushWords(call.args);
  const { positional } = opt;
  if (opt.dry) return out;
  const refspecs = positional.slice(1);
  const current = () => ctx.branchOf(call.cwd, call.gitDir);
  const protectedName = (dst: string) => matchesName(dst, policy.protectedBranches);
  const directAllowed = policy.allowDirectPushToMain && !policy.requirePrForMain;
  let tagPush = opt.tags || opt.followTags;
  const targets: Array<{ dst: string; force: boolean; del: boolean; plain?: boolean }> = [];
  for (let i = 0; i < refspecs.length; i++) {
    let spec = refspecs[i]!;
    if (spec === 'tag') {
      tagPush = true;
      i++;
      continue;
    }
    const plus = spec.startsWith('+');
    if (plus) spec = spec.slice(1);
    // `:` (or `+:`) pushes every branch that exists on both sides
    if (spec === ':') {
      opt.all = true;
      if (plus) opt.force = true;
      continue;
    }
    const colon = spec.indexOf(':');
    let src = colon < 0 ? spec : spec.slice(0, colon);
    let dst = colon < 0 ? spec : spec.slice(colon + 1);
    if (colon >= 0 && dst === '') dst = src;
    if (src === 'HEAD' || src === '@') src = current() ?? src;
    if (colon < 0) dst = src;
    if (dst === 'HEAD' || dst === '@') dst = current() ?? dst;
    if (dst.startsWith('refs/tags/')) {
      tagPush = true;
      continue;
    }
    // git completes `heads/main` to `refs/heads/main` on the remote
    dst = dst.replace(/^(refs\/)?heads\//, '');
    targets.push({ dst, force: plus || opt.force, del: opt.del || (colon === 0 && src === ''), plain: opt.del });
  }
  if (!refspecs.length && !opt.all && !opt.mirror && !(opt.tags && !opt.followTags)) {
    const branch = current();
    if (branch) targets.push({ dst: branch, force: opt.force, del: false });
  }
  if (opt.mirror && !policy.allowForcePush) {
    out.push({ rule: 'git.allowForcePush', reason: '`git push --mirror` force-updates and deletes remote branches. Push the branches you mean by name' });
  }
  if ((opt.all || opt.mirror) && !directAllowed) {
    out.push({
      rule: 'git.protectedBranches',
      reason: `\`git push ${opt.all ? '--all' : '--mirror'}\` also pushes protected branches (${policy.protectedBranches.join(', ')}). Push your feature branch by name`,
    });
  }
  for (const t of targets) {
    // a destination only the shell knows (`"$(git branch --show-current)"`) is taken as the current
    // branch; a name `--delete` takes, only where its unknown parts could spell it or a protected one
    if (t.dst.includes(UNKNOWN)) {
      const spelled = t.plain ? deletedName(t.dst, current(), policy.protectedBranches) : current();
      if (spelled === TAG_REF) tagPush = true;
      else t.dst = spelled ?? t.dst;
    }
    const prot = t.dst.includes('*') ? policy.protectedBranches.find((b) => starGlob(t.dst, '.*').test(b)) : protectedName(t.dst);
    if (t.del && prot) {
      out.push({ rule: 'git.protectedBranches', reason: `deleting the protected branch ${t.dst} on the remote is not allowed` });
    } else if (prot && !directAllowed) {
      out.push({
        rule: 'git.protectedBranches',
        reason: `pushing to the protected branch ${t.dst} is not allowed (git.allowDirectPushToMain=${policy.allowDirectPushToMain}, git.requirePrForMain=${policy.requirePrForMain}). Push a feature branch and open a pull request`,
      });
    }
    if (t.force && !t.del && !policy.allowForcePush) {
      out.push({
        rule: 'git.allowForcePush',
        reason: `force push (${t.dst}) rewrites remote history (git.allowForcePush=false). Push without force; if the remote moved, fetch and rebase or merge first`,
      });
    }
  }
  if (tagPush && ctx.listed('git tag')) out.push({ rule: 'bash.deniedPrefixes: git tag', reason: 'pushing tags is a release step: ask the user to push tags' });
  return out;
}

const TAG_REF = 'refs/tags/';

/**
 * What a name `git push --delete` takes, completed by the shell, may stand for: the branch checked
 * out or a protected one (also as `heads/…`, `refs/heads/…`) its written parts could spell with each
 * unknown part as anything, else a tag (`refs/tags/…`) where its start could spell one, else null:
 * `"trigger-v$V"` is neither. `--delete` takes plain names, no `src:dst` refspec; a refspec's
 * unknown part may hold the `:` that starts its destination, so any pushed name the shell completes
 * is taken as the branch checked out (`"v$V-maint"` may be `v1:main-maint`, or `v1:refs/tags/x-maint`).
 */
function deletedName(name: string, current: string | null, protectedBranches: readonly string[]): string | null {
  const could = starGlob(name.replaceAll(UNKNOWN, '*'), '.*');
  const spells = (b: string) => could.test(b) || could.test(`heads/${b}`) || could.test(`refs/heads/${b}`);
  if (current !== null && spells(current)) return current;
  const prot = protectedBranches.find(spells);
  if (prot !== undefined) return prot;
  const head = name.slice(0, name.indexOf(UNKNOWN));
  return TAG_REF.startsWith(head) || head.startsWith(TAG_REF) ? TAG_REF : null;
}

const TAG_LIST_FLAGS =
  /^(-l|--list|-n\d*|--contains|--no-contains|--points-at|--merged|--no-merged|--sort(=.*)?|--format(=.*)?|--column(=.*)?|--no-column|-v|--verify|-i|--ignore-case|--color(=.*)?)$/;

function createsTag(args: string[]): boolean {
  if (!args.length) return false;
  if (args.some((x) => TAG_LIST_FLAGS.test(x)))
    return args.some((x) => /^(-[adsfu]|--annotate|--sign|--delete|--force|--local-user(=.*)?|-m|--message(=.*)?|-F|--file(=.*)?)$/.test(x));
  return true;
}

/** The `#!axme` gate: the marker in the command's comment (or a commit's message) decides. */
function checkMarker(call: GitCall, comment: string | null, gates: PrGate[]): Finding | null {
  const what = `git ${call.sub}`;
  let parsed = comment !== null ? parseMarker(`#${comment}`) : null;
  if (!parsed && call.sub === 'commit') {
    const message = commitMessage(call.args);
    if (message !== null) parsed = parseMarker(message);
  }
  const example = call.sub === 'commit' ? `git commit -m "<message>" ${MARKER_FORMAT}` : `git push ${MARKER_FORMAT}`;
  if (parsed === null) {
    return {
      rule: 'axme.marker',
      reason: `\`${what}\` needs the axme metadata comment at the end of its line: ${example} (${MARKER_VALUES}; each commit or push needs its own marker)`,
    };
  }
  if (!parsed.ok) return { rule: 'axme.marker', reason: `the #!axme marker on \`${what}\` is malformed: ${parsed.reason}. Use: ${MARKER_FORMAT}` };
  if (parsed.marker.pr !== null) gates.push({ what, marker: parsed.marker });
  return null;
}

/** The last `-m` / `--message` value of a `git commit`, or null. */
function commitMessage(args: string[]): string | null {
  let msg: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!;
    if (v === '-m' || v === '--message') msg = args[++i] ?? msg;
    else if (v.startsWith('--message=')) msg = v.slice(10);
    else if (/^-[a-zA-Z]*m/.test(v) && !v.startsWith('--')) {
      const rest = v.slice(v.indexOf('m') + 1);
      msg = rest || (args[++i] ?? msg);
    }
  }
  return msg;
}

import { GIT_LONG_OPTIONS } from '../git-long-options.ts';
import type { GitCall } from '../git-rules.ts';
import { matchesName, starGlob } from '../patterns.ts';
import type { Policy } from '../policy.ts';
import { UNKNOWN } from '../shell.ts';
import type { Hit } from './args.ts';
import { protectedBranchListed } from './git-branch-listings.ts';
import { checkFetchIntoBranches, checkFetchSetting, checkSubmoduleDeinit, checkWorktree } from './git-local-work.ts';
import { BRANCH_VALUED, pushWords, splitOptions } from './git-options.ts';
import { checkRecoveryRefDelete } from './git-recovery-refs.ts';
import { listedRefDelete } from './git-ref-listings.ts';
import { checkLfsMigrate, checkSymbolicRef } from './git-ref-rewrites.ts';
import type { FamilyContext } from './types.ts';

/**
 * The git history family (docs/safety.md): what a git call does to protected branches and to the
 * data that recovers lost work — deleting, renaming or force-moving a protected branch by any
 * verb (`branch`, `update-ref`, `checkout -B`, `switch -C`), pruning or force-pushing what
 * git-rules.ts's checkPush lets through, rewriting history (`filter-branch`, `filter-repo`),
 * dropping the reflog, unreachable objects (`gc --prune=now`, `prune`) or the stash, discarding a
 * worktree's or a submodule's changes (`worktree remove --force`, `submodule deinit --force`),
 * fetching over local branches (`fetch origin '+refs/heads/*:refs/heads/*'`), replacing objects (`replace`);
 * a branch named in update-ref's input, by symbolic-ref, a rewrite by `lfs migrate` (git-ref-rewrites.ts).
 */

/** What a git call does to protected branches and recovery data, or null. */
export function checkGitHistory(call: GitCall, ctx: FamilyContext): Hit | null {
  const a = call.args;
  const protectedBranches = ctx.policy.protectedBranches;
  switch (call.sub) {
    case 'branch':
      return checkBranch(a, protectedBranches) ?? checkListedDelete(call, protectedBranches);
    case 'update-ref':
      return checkUpdateRef(a, protectedBranches) ?? listedRefDelete(call, protectedBranches) ?? checkRecoveryRefDelete(a);
    case 'symbolic-ref':
      return checkSymbolicRef(a, (n) => protectedBranch(n, protectedBranches));
    case 'lfs':
      return checkLfsMigrate(a);
    case 'checkout':
    case 'switch':
      return checkForceCreate(call.sub, a, protectedBranches);
    case 'push':
      return checkPushHistory(a, ctx.policy);
    case 'fetch':
    case 'pull':
      return checkFetchIntoBranches(call.sub, a, protectedBranches);
    case 'submodule':
      return checkSubmoduleDeinit(a);
    case 'config':
    case 'remote':
      return checkFetchSetting(call, protectedBranches);
    case 'filter-branch':
    case 'filter-repo':
      if (a.some((x) => x === '--analyze' || x === '--dry-run')) return null;
      return {
        rule: call.sub,
        reason: `\`git ${call.sub}\` rewrites every commit of the branches it is given, protected ones included, and replaces them for everyone who fetches them`,
      };
    case 'reflog':
      if (a[0] === 'expire' || a[0] === 'delete')
        return {
          rule: `reflog ${a[0]}`,
          reason: `\`git reflog ${a[0]}\` drops reflog entries, the record through which commits lost by a reset, rebase or deleted branch are found again`,
        };
      return null;
    case 'gc':
      return checkGc(call);
    case 'prune':
      return checkPrune(a);
    case 'worktree':
      return checkWorktree(a);
    case 'replace':
      return checkReplace(a);
    case 'stash':
      if (a[0] === 'clear')
        return {
          rule: 'stash clear',
          reason: '`git stash clear` deletes every stash entry at once, work that is then found again only among dangling commits',
        };
      return null;
    default:
      return null;
  }
}

/** A branch name as the rules compare it: `refs/heads/main` and `heads/main` are `main`. */
function branchName(name: string): string {
  return name.startsWith('refs/heads/') ? name.slice(11) : name.startsWith('heads/') ? name.slice(6) : name;
}

/** The protected branch a name (`main`, `refs/heads/main`) is, or null; a name only the shell knows is none. */
export function protectedBranch(name: string | undefined, globs: readonly string[]): string | null {
  if (!name || name.includes(UNKNOWN)) return null;
  const b = branchName(name);
  return matchesName(b, globs) ? b : null;
}

/** `branch -D main`, `branch -f main <rev>`, `branch -M x main`, `branch -m main x`. */
function checkBranch(args: readonly string[], globs: readonly string[]): Hit | null {
  const { flags, operands } = splitOptions(args, GIT_LONG_OPTIONS.branch!, BRANCH_VALUED);
  const has = (...names: string[]) => names.some((n) => flags.has(n));
  // remote-tracking refs (`-dr origin/main`) are copies of the remote's branches
  if (has('r', '--remotes')) return null;
  if (has('d', 'D', '--delete')) {
    const flag = has('D') || has('f', '--force') ? '-D' : '-d';
    for (const name of operands) {
      const b = protectedBranch(name, globs);
      if (b)
        return {
          rule: `branch ${flag} ${b}`,
          reason: `\`git branch ${flag} ${name}\` deletes the protected branch ${b}; commits only it held are then found again only through the reflog`,
        };
    }
    return null;
  }
  if (has('m', 'M', '--move', 'c', 'C', '--copy')) {
    const copy = has('c', 'C', '--copy');
    const flag = has('M', 'C') || has('f', '--force') ? (copy ? '-C' : '-M') : copy ? '-c' : '-m';
    // `-m new` renames the current branch; `-m old new` names it
    const [from, to] = operands.length >= 2 ? [operands[0], operands[1]] : [undefined, operands[0]];
    const over = protectedBranch(to, globs);
    if (over)
      return {
        rule: `branch ${flag} over ${over}`,
        reason: `\`git branch ${flag}\` onto the protected branch ${over} replaces it with another branch, dropping the commits it pointed to`,
      };
    const away = copy ? null : protectedBranch(from, globs);
    if (away)
      return {
        rule: `branch ${flag} ${away}`,
        reason: `\`git branch ${flag} ${from}\` renames the protected branch ${away} away, so it no longer exists under its name`,
      };
    return null;
  }
  if (has('f', '--force')) {
    const b = protectedBranch(operands[0], globs);
    if (b)
      return {
        rule: `branch -f ${b}`,
        reason: `\`git branch -f ${operands[0]}\` moves the protected branch ${b} to another commit, dropping the commits it pointed past`,
      };
  }
  return null;
}

/** `git branch -D $(git branch)`: a delete of the names a listing of the local branches prints (git-branch-listings.ts). */
function checkListedDelete(call: GitCall, globs: readonly string[]): Hit | null {
  const { flags } = splitOptions(call.args, GIT_LONG_OPTIONS.branch!, BRANCH_VALUED);
  if (!['d', 'D', '--delete'].some((f) => flags.has(f)) || flags.has('r') || flags.has('--remotes')) return null;
  const b = protectedBranchListed(call, globs);
  return b
    ? {
        rule: `branch --delete ${b}`,
        reason: `\`git branch --delete\` of the names a listing of the local branches prints deletes every one of them, the protected branch ${b} among them: filter it out (\`grep -v ${b}\`) or name the branches`,
      }
    : null;
}

const UPDATE_REF_VALUED = new Set(['-m']);

/** `update-ref -d refs/heads/main`, `update-ref refs/heads/main <rev>` (a force move); `--stdin` reads its commands elsewhere. */
function checkUpdateRef(args: readonly string[], globs: readonly string[]): Hit | null {
  const { flags, operands } = splitOptions(args, ['--no-deref', '--create-reflog', '--stdin'], UPDATE_REF_VALUED);
  if (flags.has('--stdin')) return null;
  const b = protectedBranch(operands[0], globs);
  if (!b) return null;
  if (flags.has('d'))
    return {
      rule: `update-ref -d ${operands[0]}`,
      reason: `\`git update-ref -d ${operands[0]}\` deletes the protected branch ${b} without any of git's checks`,
    };
  if (operands.length < 2) return null;
  return {
    rule: `update-ref ${operands[0]}`,
    reason: `\`git update-ref ${operands[0]} ${operands[1]}\` moves the protected branch ${b} to any commit, dropping the commits it pointed past`,
  };
}

/** `checkout -B main <rev>`, `switch -C main <rev>`: the branch is reset to the start point. */
function checkForceCreate(sub: string, args: readonly string[], globs: readonly string[]): Hit | null {
  const flag = sub === 'checkout' ? '-B' : '-C';
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!;
    const name =
      v === flag || (sub === 'switch' && v === '--force-create') ? args[i + 1] : v.startsWith('--force-create=') && sub === 'switch' ? v.slice(15) : undefined;
    const b = protectedBranch(name, globs);
    if (b)
      return {
        rule: `${sub} ${flag} ${b}`,
        reason: `\`git ${sub} ${flag} ${name}\` resets the protected branch ${b} to another commit, dropping the commits it pointed past`,
      };
  }
  return null;
}

/**
 * What `git push` does to protected branches that checkPush (git-rules.ts) lets through: `--prune`
 * (never read there), and — only when the policy allows both force pushes and direct pushes to
 * protected branches, so checkPush is silent — `--mirror` and force pushes onto a protected branch,
 * including `--all --force` (whose force checkPush never sees). Deleting a protected branch on the
 * remote is always refused there.
 */
function checkPushHistory(args: readonly string[], policy: Policy): Hit | null {
  const push = pushWords(args);
  const { all, mirror, prune, positional } = push;
  let force = push.force;
  if (push.dry) return null;
  if (prune)
    return {
      rule: 'push --prune',
      reason:
        '`git push --prune` deletes every remote branch that has no local counterpart under the pushed names, protected ones included, and the remote keeps no copy',
    };
  const looseMain = policy.allowDirectPushToMain && !policy.requirePrForMain;
  if (!looseMain) return null;
  if (mirror && policy.allowForcePush)
    return {
      rule: 'push --mirror',
      reason: '`git push --mirror` makes the remote a copy of this clone: it force-moves and deletes remote branches, protected ones included',
    };
  const refspecs = positional.slice(1);
  // `:` pushes every branch both sides have; `+:` with force
  if (refspecs.includes('+:')) force = true;
  if (force && (all || refspecs.includes(':') || refspecs.includes('+:')))
    return {
      rule: 'push --all --force',
      reason: '`git push --all --force` force-moves every remote branch, protected ones included, dropping the commits others pushed there',
    };
  if (!policy.allowForcePush) return null;
  for (const r of refspecs) {
    const plus = r.startsWith('+');
    const spec = plus ? r.slice(1) : r;
    const colon = spec.indexOf(':');
    // `:main` deletes, which checkPush refuses
    if (colon === 0) continue;
    const b = protectedBranch(colon < 0 ? spec : spec.slice(colon + 1) || spec.slice(0, colon), policy.protectedBranches);
    if (b && (plus || force))
      return {
        rule: `push --force ${b}`,
        reason: `\`git push\` with force onto the protected branch ${b} replaces the remote's history of it, dropping the commits others pushed there`,
      };
  }
  return null;
}

/** `gc --prune=now|all`, or gc with `-c gc.pruneExpire=now` / `gc.reflogExpire=now`: unreachable objects and reflogs go at once. */
const NOW = /^(now|all)$/i;

function checkGc(call: GitCall): Hit | null {
  for (const v of call.args) {
    const eq = v.indexOf('=');
    if (eq > 3 && '--prune'.startsWith(v.slice(0, eq)) && NOW.test(v.slice(eq + 1))) {
      return {
        rule: `gc --prune=${v.slice(eq + 1)}`,
        reason: `\`git gc --prune=${v.slice(eq + 1)}\` deletes unreachable objects at once instead of after two weeks, so commits lost by a reset, rebase or deleted branch can no longer be recovered`,
      };
    }
  }
  for (const key of ['gc.pruneexpire', 'gc.reflogexpire', 'gc.reflogexpireunreachable']) {
    const value = call.config.get(key);
    if (value !== undefined && NOW.test(value))
      return {
        rule: `gc with ${key}=${value}`,
        reason: `\`git -c ${key}=${value} gc\` drops unreachable objects or reflog entries at once, so lost commits can no longer be recovered`,
      };
  }
  return null;
}

/** `git prune` (`--expire=now`): unreachable objects deleted at once; `--expire=<older>` and `-n` leave the recent ones. */
function checkPrune(args: readonly string[]): Hit | null {
  let expire: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!;
    if (v === '--') break;
    if (v === '-n' || v === '--dry-run') return null;
    if (v === '--expire') expire = args[++i] ?? '';
    else if (v.startsWith('--expire=')) expire = v.slice(9);
  }
  if (expire !== null && (expire.includes(UNKNOWN) || !NOW.test(expire))) return null;
  const shown = expire === null ? 'prune' : `prune --expire=${expire}`;
  return {
    rule: shown,
    reason: `\`git ${shown}\` deletes every unreachable object now, not only those older than two weeks, so commits lost by a reset, rebase or deleted branch can no longer be recovered`,
  };
}

/** `git replace <object> <replacement>` (`--graft`, `--edit`, `-d`): what history shows changes; `-l`/`--list` and no arguments only list. */
function checkReplace(args: readonly string[]): Hit | null {
  if (!args.length || args.some((v) => v === '-l' || v === '--list' || v.startsWith('--list='))) return null;
  if (args.every((v) => v.startsWith('--format'))) return null;
  return {
    rule: 'replace',
    reason:
      '`git replace` makes git show another object in place of a commit or tree everywhere (log, checkout, blame, push of refs/replace/*), rewriting what history shows without a trace in it',
  };
}

import { GIT_LONG_OPTIONS } from '../git-long-options.ts';
import type { GitCall } from '../git-rules.ts';
import { writtenSetting } from '../git-settings.ts';
import { matchesName, starGlob } from '../patterns.ts';
import { UNKNOWN } from '../shell.ts';
import type { Hit } from './args.ts';
import { splitOptions } from './git-options.ts';

/**
 * The git history family's checks of local work (git-history.ts): a worktree's or a submodule's
 * uncommitted changes removed with it (`worktree remove --force`, `submodule deinit --force`),
 * and local branches force-written or pruned by a fetch (`fetch origin '+refs/heads/*:refs/heads/*'`),
 * also through a refspec written to stay (`remote.<r>.fetch`, `remote add --mirror=fetch`).
 */

/** `git worktree remove --force` (`-f`, `-ff`): the worktree's uncommitted and untracked files go with it. */
export function checkWorktree(args: readonly string[]): Hit | null {
  if (args[0] !== 'remove') return null;
  const rest = args.slice(1);
  const end = rest.indexOf('--');
  const opts = end < 0 ? rest : rest.slice(0, end);
  if (!opts.some((v) => v === '--force' || /^-[a-z]*f[a-z]*$/.test(v))) return null;
  return {
    rule: 'worktree remove --force',
    reason: '`git worktree remove --force` deletes the worktree with its uncommitted changes and untracked files, which git keeps no copy of',
  };
}

/** The options of fetch and pull that take the next word: no repository nor refspec. */
const FETCH_VALUED: ReadonlySet<string> = new Set([
  '--depth',
  '--deepen',
  '--shallow-since',
  '--shallow-exclude',
  '--upload-pack',
  '--refmap',
  '-o',
  '--server-option',
  '--negotiation-tip',
  '--filter',
  '-j',
  '--jobs',
  '--recurse-submodules-default',
  '--submodule-prefix',
  '-s',
  '--strategy',
  '-X',
  '--strategy-option',
]);

/** The local branch a fetch refspec's destination names as a full ref (`main` and `heads/main` are `refs/heads/main`), or the ref it names when it is no branch. */
function fetchDestination(dst: string): string {
  return dst.startsWith('refs/') ? dst : `refs/heads/${dst.replace(/^heads\//, '')}`;
}

/**
 * `git fetch REMOTE +SRC:DST` (or `--force`) whose destination is a protected branch or a pattern
 * over the local branches (`'+refs/heads/*:refs/heads/*'`, `+refs/*:refs/*`): the local
 * branches are force-moved to the remote's, their own commits dropped; with `--prune`, a pattern
 * over them also deletes every local branch the remote lacks. Without force the update is a fast
 * forward only (`git fetch origin main:main`), and a destination among the remote-tracking refs
 * (`refs/remotes/origin/*`) is the remote's copy.
 */
export function checkFetchIntoBranches(sub: string, args: readonly string[], globs: readonly string[]): Hit | null {
  const { flags, operands: positional } = splitOptions(args, GIT_LONG_OPTIONS.fetch!, FETCH_VALUED);
  const force = flags.has('f') || flags.has('--force');
  const prune = flags.has('--prune') || (sub === 'fetch' && flags.has('p'));
  const remotesOnly = flags.has('--multiple') || flags.has('--all') || flags.has('--dry-run');
  if (remotesOnly) return null;
  for (const spec of positional.slice(1)) {
    const plus = spec.startsWith('+');
    const colon = spec.indexOf(':');
    if (colon < 0 || colon === spec.length - 1 || spec.includes(UNKNOWN)) continue;
    const dst = fetchDestination(spec.slice(colon + 1));
    const pattern = dst.includes('*');
    const hit = pattern
      ? globs.map((b) => `refs/heads/${b.replace(/\*/g, 'x')}`).find((ref) => starGlob(dst, '.*').test(ref))
      : dst.startsWith('refs/heads/') && matchesName(dst.slice(11), globs)
        ? dst
        : undefined;
    if (!hit) continue;
    const name = hit.slice(11);
    if (plus || force)
      return {
        rule: `${sub} +${pattern ? dst : name}`,
        reason: `\`git ${sub}\` with force into ${pattern ? `${dst} (the local branches, ${name} among them)` : `the local branch ${name}`} moves it to the remote's commit whatever it held, dropping its own commits. Fetch into refs/remotes/ and merge or rebase`,
      };
    if (prune && pattern)
      return {
        rule: `${sub} --prune ${dst}`,
        reason: `\`git ${sub} --prune\` into ${dst} deletes every local branch the remote lacks, ${name} among them, with the commits only it held. Fetch into refs/remotes/`,
      };
  }
  return null;
}

/**
 * A fetch refspec written to stay, which every later `git fetch` of the remote follows: `git config
 * remote.origin.fetch '+refs/heads/*:refs/heads/*'`, `git remote add --mirror=fetch` (`+refs/*:refs/*`).
 */
export function checkFetchSetting(call: GitCall, globs: readonly string[]): Hit | null {
  if (call.sub === 'remote') {
    const add = call.args.indexOf('add');
    if (add < 0 || !call.args.slice(add + 1).some((v) => v === '--mirror' || v === '--mirror=fetch')) return null;
    return {
      rule: 'remote add --mirror=fetch',
      reason:
        '`git remote add --mirror=fetch` has every later fetch of that remote force-write all refs, the local branches among them, dropping their own commits. Add the remote without --mirror',
    };
  }
  const written = writtenSetting(call);
  if (!written || !/^remote\..+\.fetch$/.test(written[0])) return null;
  const hit = checkFetchIntoBranches('fetch', ['remote', written[1]], globs);
  return hit && { rule: `config ${written[0]} ${written[1]}`, reason: `every later \`git fetch\` follows the refspec written: ${hit.reason}` };
}

/** `git submodule deinit --force` (`-f`): the submodule's working tree is removed with its uncommitted changes; without force git refuses when there are any. */
export function checkSubmoduleDeinit(args: readonly string[]): Hit | null {
  let i = 0;
  while (i < args.length && /^(-q|--quiet)$/.test(args[i]!)) i++;
  if (args[i] !== 'deinit') return null;
  const rest = args.slice(i + 1);
  const end = rest.indexOf('--');
  const opts = end < 0 ? rest : rest.slice(0, end);
  if (!opts.some((v) => (v.length > 2 && '--force'.startsWith(v)) || /^-[a-z]*f[a-z]*$/.test(v))) return null;
  return {
    rule: 'submodule deinit --force',
    reason: "`git submodule deinit --force` removes the submodule's working tree with its uncommitted changes and untracked files, which git keeps no copy of",
  };
}

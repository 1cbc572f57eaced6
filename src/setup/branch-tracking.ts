import { shellJoin } from '../model/shell-quote.ts';
import { type ConfigGrant, gitOutside, instead, type JudgeAt, NAME, note, REMOTE_NAME } from './git-config-grant.ts';
import { movesBranch, remoteOfTracking } from './push-destination.ts';
import type { RepoFacts } from './repo-facts.ts';

/**
 * The judges of the git commands that make, move or track branches (sandbox-git-config.ts says
 * what a judge answers): `git branch`, `git push -u`, `git checkout`/`git switch` and `git worktree
 * add` that make a branch from a remote's; none sends an existing branch's pushes or pulls to
 * another host (push-destination.ts).
 */

/** The note for a branch whose pushes or pulls a command sends to another host: the user's to change, as a remote's URL is. */
export const movedBranch = (shown: string): ConfigGrant =>
  note(
    `\`${shown}\` is not recorded: it sends a branch's pushes or pulls to another host than before, where the user's next push would go; ask the user to run it outside the agent, or track a remote on the same host`,
  );

/** Whether making `branch` track `upstream` (`origin/x`; a local branch: `.`) moves its pushes or pulls to another host; a new branch went nowhere before. */
function trackingMoves(facts: RepoFacts, branch: string, upstream: string, fresh: boolean): boolean {
  if (fresh && !facts.hasRef(`refs/heads/${branch}`)) return false;
  return movesBranch(facts, branch, { [`branch.${branch}.remote`]: remoteOfTracking(facts, upstream) ?? '.' });
}

/** `git branch -u|--set-upstream-to|--unset-upstream|-m|-M|-c|-C|-d|-D|--track`: refs and the branch's settings, no program; a branch's pushes or pulls not moved to another host. */
export function branchCall(args: string[], at: JudgeAt): ConfigGrant | null {
  const { cwd, facts } = at;
  const opts = args.filter((a) => a.startsWith('-'));
  const ops = args.filter((a) => !a.startsWith('-'));
  if (!ops.every((o) => NAME.test(o))) return null;
  const shown = shellJoin(['git', 'branch', ...args]);
  const ok = (moves: boolean) => (moves ? movedBranch(shown) : instead(cwd, ['branch', ...args]));
  const current = () => facts.head();
  const upstream = opts.find((o) => o === '-u' || o === '--set-upstream-to' || o.startsWith('--set-upstream-to='));
  if (upstream) {
    const inline = upstream.includes('=');
    if (opts.length !== 1 || ops.length > (inline ? 1 : 2) || ops.length < (inline ? 0 : 1)) return null;
    const [to, branch = current()] = inline ? [upstream.slice(upstream.indexOf('=') + 1), ...ops] : ops;
    // no branch checked out, a name git refuses: git fails in the sandbox
    if (!branch || !to || !NAME.test(to)) return null;
    return ok(trackingMoves(facts, branch, to, false));
  }
  if (opts.length === 1 && opts[0] === '--unset-upstream') {
    if (ops.length > 1) return null;
    const branch = ops[0] ?? current();
    return branch ? ok(movesBranch(facts, branch, { [`branch.${branch}.remote`]: null })) : null;
  }
  if (opts.length === 1 && /^(-m|-M|--move|-c|-C|--copy)$/.test(opts[0]!)) {
    if (ops.length < 1 || ops.length > 2) return null;
    // the new name takes the old one's settings, those it has; an existing branch of that name keeps the rest
    const [from, to] = ops.length === 2 ? [ops[0]!, ops[1]!] : [current(), ops[0]!];
    if (!from) return null;
    const change: Record<string, string | null> = {};
    for (const k of ['remote', 'pushremote']) {
      const v = facts.setting(`branch.${from}.${k}`);
      if (v === undefined) return ok(true);
      if (v !== null) change[`branch.${to}.${k}`] = v;
    }
    return ok(facts.hasRef(`refs/heads/${to}`) && movesBranch(facts, to, change));
  }
  if (opts.length >= 1 && opts.every((o) => /^(-d|-D|--delete|-f|--force)$/.test(o)) && opts.some((o) => /^(-d|-D|--delete)$/.test(o)))
    return ops.length >= 1 ? instead(cwd, ['branch', ...args]) : null;
  // a branch made from a remote's branch tracks it (an existing one, with -f: moved only to the host it had)
  if (opts.every((o) => /^(-t|--track|--track=direct|-f|--force)$/.test(o)) && ops.length === 2) return ok(trackingMoves(facts, ops[0]!, ops[1]!, true));
  return null;
}

/** Options of `git push` that take no value, or carry theirs after `=`: the rest of the words are the remote and the refspecs. */
const PUSH_FLAG =
  /^(-u|--set-upstream|-q|--quiet|-v|--verbose|-f|--force|--force-with-lease(=.*)?|--force-if-includes|--atomic|--tags|--follow-tags|--no-verify|--porcelain|--progress|--no-progress|-4|-6|--ipv4|--ipv6|--signed(=.*)?|--push-option=.*|--recurse-submodules=.*|--no-thin|--thin)$/;

/** `git push -u REMOTE BRANCH[:BRANCH]...`: pushed in the sandbox, each branch's tracking recorded after (not one moved to another host). */
export function pushCall(args: string[], at: JudgeAt): ConfigGrant | null {
  const { cwd, facts } = at;
  if (!args.some((a) => a === '-u' || a === '--set-upstream') || args.some((a) => a === '-n' || a === '--dry-run')) return null;
  const shown = shellJoin(['git', 'push', ...args]);
  const named = note(`\`${shown}\` cannot record the tracking: name the remote and the branch (\`git push -u origin my-branch\`)`);
  const ops = args.filter((a) => !a.startsWith('-'));
  if (!args.filter((a) => a.startsWith('-')).every((o) => PUSH_FLAG.test(o))) return named;
  const [remote, ...specs] = ops;
  if (!remote || !specs.length || !REMOTE_NAME.test(remote)) return named;
  const lines: string[] = [];
  for (const spec of specs) {
    const [src, dst = src] = spec.replace(/^\+/, '').split(':') as [string, string?];
    const branch = (s: string) => s.replace(/^refs\/heads\//, '');
    if (
      !src ||
      !dst ||
      src === 'HEAD' ||
      spec.split(':').length > 2 ||
      !NAME.test(branch(src)) ||
      !NAME.test(branch(dst)) ||
      src.startsWith('refs/') !== src.startsWith('refs/heads/')
    )
      return named;
    const b = branch(src);
    if (movesBranch(facts, b, { [`branch.${b}.remote`]: remote })) return movedBranch(shown);
    lines.push(
      gitOutside(cwd, ['config', '--local', `branch.${b}.remote`, remote]),
      gitOutside(cwd, ['config', '--local', `branch.${b}.merge`, `refs/heads/${branch(dst)}`]),
    );
  }
  return { kind: 'after', script: lines.join(' && ') };
}

/** `git checkout|switch` that makes a branch tracking a remote's: made in the sandbox, its tracking recorded after. */
export function checkoutCall(sub: string, args: string[], at: JudgeAt): ConfigGrant | null {
  let name: string | null = null;
  let track: boolean | null = null;
  const ops: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if ((sub === 'checkout' && (a === '-b' || a === '-B')) || (sub === 'switch' && (a === '-c' || a === '-C' || a === '--create' || a === '--force-create')))
      name = args[++i] ?? null;
    else if (a === '-t' || a === '--track' || a === '--track=direct') track = true;
    else if (a === '--no-track') track = false;
    else if (a === '-q' || a === '--quiet') continue;
    else if (a.startsWith('-')) return null;
    else ops.push(a);
  }
  if (ops.length !== 1 || track === false) return null;
  return newBranchTracking({ name, track, start: ops[0]! }, shellJoin(['git', sub, ...args]), at);
}

/**
 * `git worktree add [-b|-B NEW] [--track] PATH START`: the worktree and its branch made in the
 * sandbox (the branch's refs and the worktree's records are in the git dir, which is writable), the
 * new branch's tracking recorded after, as for `git checkout -b` — `-b x path origin/x`, or `path x`
 * that makes `x` from the one remote that has it. Detached (`--detach`, a remote's branch without
 * `-b`), an orphan, or no START: no branch to track.
 */
export function worktreeCall(args: string[], at: JudgeAt): ConfigGrant | null {
  if (args[0] !== 'add') return null;
  let name: string | null = null;
  let track: boolean | null = null;
  const ops: string[] = [];
  for (let i = 1; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-b' || a === '-B') name = args[++i] ?? null;
    else if (a === '--track') track = true;
    else if (a === '--no-track') track = false;
    else if (a === '--reason') i++;
    else if (/^(-q|--quiet|-f|--force|--checkout|--no-checkout|--lock|--guess-remote|--no-guess-remote|--reason=.*)$/.test(a)) continue;
    else if (a.startsWith('-')) return null;
    else ops.push(a);
  }
  if (ops.length !== 2 || track === false || (track && name === null)) return null;
  return newBranchTracking({ name, track, start: ops[1]! }, shellJoin(['git', 'worktree', ...args]), at);
}

/**
 * The tracking git sets up for a branch a command makes (`name`, or with none the one git makes
 * from `start`) from `start`, recorded after the command succeeded; null when git sets none: a start
 * that is no remote's branch, `branch.autoSetupMerge` false without `--track`, a branch that exists.
 */
function newBranchTracking(made: { name: string | null; track: boolean | null; start: string }, shown: string, at: JudgeAt): ConfigGrant | null {
  const { name, track, start } = made;
  const remote = remoteOfTracking(at.facts, start);
  let branch = name;
  let upstream = start;
  if (remote) {
    branch ??= track ? start.slice(remote.length + 1) : null;
    if (!branch || (!track && /^(false|never)$/i.test(at.facts.setting('branch.autosetupmerge') ?? ''))) return null;
  } else if (name === null && track === null) {
    // `git checkout feat` with no branch feat: git makes it from the one remote that has it
    if (at.facts.hasRef(`refs/heads/${start}`)) return null;
    const from = at.facts.remotes().filter((r) => at.facts.hasRef(`refs/remotes/${r}/${start}`));
    if (from.length !== 1) return null;
    branch = start;
    upstream = `${from[0]}/${start}`;
  } else return null;
  if (!NAME.test(branch) || !at.facts.hasRef(`refs/remotes/${upstream}`)) return null;
  // a new branch goes nowhere yet; one reset (-B, -C) keeps its host
  if (trackingMoves(at.facts, branch, upstream, true)) return movedBranch(shown);
  return { kind: 'after', script: gitOutside(at.cwd, ['branch', `--set-upstream-to=${upstream}`, branch]) };
}

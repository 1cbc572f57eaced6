import { shellQuote } from '../../model/shell-quote.ts';
import { type Invocation, unwrap } from '../command.ts';
import { gitSubcommandAt } from '../git-global-options.ts';
import { GIT_LONG_OPTIONS } from '../git-long-options.ts';
import type { GitCall } from '../git-rules.ts';
import { starGlob } from '../patterns.ts';
import { grepKeeps } from '../search-patterns.ts';
import type { Script } from '../syntax.ts';
import { BRANCH_VALUED, splitOptions } from './git-options.ts';

/**
 * The names a listing of the local branches prints, handed to a delete (`git branch -D $(git
 * branch --format='%(refname:short)')`; `git branch | xargs git branch -D` is read as that):
 * every local branch, the protected ones among them, unless a grep on the way drops one of them
 * (`grep -v main`: the line keeps the protected branch it knows of out; a repository rarely has
 * both main and master) or keeps only other lines (`grep feat/`), or the listing names a pattern they do not match (`git branch --list
 * 'feat/*'`, `git for-each-ref refs/heads/feat/`).
 */

/** A name of each protected branch or pattern (`release/*` as `release/x`): what a listing would print of it. */
function samples(globs: readonly string[]): string[] {
  return globs.map((g) => g.replace(/\*/g, 'x'));
}

/** The git branch options that do something else than list (a delete, a move, a new branch's upstream...), as splitOptions gives them. */
const BRANCH_ACTS = [
  'd',
  'D',
  'm',
  'M',
  'c',
  'C',
  'f',
  'u',
  '--delete',
  '--move',
  '--copy',
  '--force',
  '--set-upstream-to',
  '--unset-upstream',
  '--edit-description',
  '--track',
  '--no-track',
  '--create-reflog',
  '--show-current',
];

/** The protected branches (samples) a `git branch` listing prints: none for one that acts, lists the remote's alone, or names patterns they do not match. */
function branchListing(args: readonly string[], names: readonly string[]): string[] {
  const { flags, operands: patterns } = splitOptions(args, GIT_LONG_OPTIONS.branch!, BRANCH_VALUED);
  if (BRANCH_ACTS.some((f) => flags.has(f))) return [];
  const list = flags.has('l') || flags.has('--list');
  const remotesOnly = flags.has('r') || flags.has('--remotes');
  // `git branch NAME` makes a branch; `git branch -r` prints `origin/main`, no local branch
  if ((patterns.length && !list) || remotesOnly) return [];
  return patterns.length ? names.filter((b) => patterns.some((p) => starGlob(p, '.*').test(b))) : [...names];
}

/** The protected branches `git for-each-ref [PATTERN…]` prints: a pattern matches a ref by glob, or whole, or as its leading folders (`refs/heads`). */
function refListing(args: readonly string[], names: readonly string[]): string[] {
  const patterns = args.filter(
    (v, i) => !v.startsWith('-') && !/^--(format|sort|count|points-at|merged|no-merged|contains|no-contains|exclude)$/.test(args[i - 1] ?? ''),
  );
  if (!patterns.length) return [...names];
  return names.filter((b) => {
    const ref = `refs/heads/${b}`;
    return patterns.some((p) => starGlob(p, '.*').test(ref) || ref.startsWith(`${p.replace(/\/$/, '')}/`));
  });
}

/**
 * The first protected branch (of `globs`) a substitution among a git call's operands lists
 * (`git branch -D $(git branch)`, `git update-ref -d $(git for-each-ref … refs/heads)`), or
 * undefined: what a delete of the listed names takes along.
 */
export function protectedBranchListed(call: GitCall, globs: readonly string[]): string | undefined {
  for (const word of call.words) {
    if (word.value.startsWith('-')) continue;
    for (const sub of word.subs) {
      const [b] = listedProtectedBranches(sub, globs);
      if (b) return b;
    }
  }
  return undefined;
}

/**
 * The protected branches (of `globs`) among the names a substitution prints (`$(git branch |
 * grep -v '^\*')`): one pipeline whose first stage lists the local branches, through greps that
 * keep them all; empty for anything else.
 */
export function listedProtectedBranches(sub: Script, globs: readonly string[]): string[] {
  const [first, ...rest] = sub.commands;
  if (!first || sub.tooDeep || rest.some((c) => c.pipeline !== first.pipeline)) return [];
  const stages = sub.commands.map((c) => unwrap(c).invocation);
  const lister = stages[0];
  if (lister?.program !== 'git') return [];
  const args = lister.args.map((w) => w.value);
  const at = gitSubcommandAt(args);
  const verb = args[at];
  const listed =
    verb === 'branch' ? branchListing(args.slice(at + 1), samples(globs)) : verb === 'for-each-ref' ? refListing(args.slice(at + 1), samples(globs)) : [];
  let names = listed;
  for (const filter of stages.slice(1)) {
    if (!filter || !/^[ef]?grep$/.test(filter.program)) continue;
    const values = filter.args.map((w) => w.value);
    const inverted = values.some((v) => v === '--invert-match' || /^-[A-Za-z]*v/.test(v));
    // grep -v drops the lines its pattern matches: read that pattern as grep without -v keeps it
    const keeps = grepKeeps(inverted ? { ...filter, args: filter.args.flatMap((w) => unInvert(w)) } : filter);
    if (!keeps) continue;
    names = names.filter((b) => keeps.test(b) !== inverted);
  }
  // a grep that drops one of them (`grep -v main`) keeps the branches the repository protects out: the others (master) it has none of
  return names.length < listed.length ? [] : names;
}

/** A grep word without its `-v` (`-iv` as `-i`, `-v` and `--invert-match` as nothing). */
function unInvert<W extends { value: string; raw: string }>(w: W): W[] {
  if (w.value === '-v' || w.value === '--invert-match') return [];
  if (!/^-[A-Za-z]*v/.test(w.value)) return [w];
  const value = w.value.replace(/v/g, '');
  return value === '-' ? [] : [{ ...w, value, raw: value }];
}

/**
 * `LISTING | GREP… | xargs git branch -D` (`argv`: what xargs runs; `lister` the stage that
 * prints, `filters` the greps between) as the command it amounts to, `git branch -D $(LISTING |
 * GREP…)`, for listedProtectedBranches to read; null for any other command xargs runs.
 */
export function xargsBranchDelete(argv: readonly string[], lister: Invocation, filters: readonly (Invocation | null)[]): string | null {
  const verb = argv[1 + gitSubcommandAt(argv.slice(1))];
  if (argv[0] !== 'git' || verb !== 'branch' || lister.program !== 'git' || filters.some((f) => !f)) return null;
  const stages = [lister, ...(filters as Invocation[])].map((i) => i.command.words.map((w) => w.raw).join(' '));
  return `${argv.map(shellQuote).join(' ')} $(${stages.join(' | ')})`;
}

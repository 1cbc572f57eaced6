import { shellQuote } from '../../model/shell-quote.ts';
import type { Invocation } from '../command.ts';
import { gitSubcommandAt } from '../git-global-options.ts';
import type { GitCall } from '../git-rules.ts';
import { selectsFields } from '../text-filters.ts';
import type { Hit } from './args.ts';
import { protectedBranchListed } from './git-branch-listings.ts';

/**
 * What a listing of git's refs or stash entries hands, through xargs, to a git verb that deletes
 * what it is given (docs/safety.md, the `gitHistory` row): every entry the listing prints, read as
 * the command that deletes them all. `git stash list | cut -d: -f1 | xargs -n1 git stash drop`
 * drops every stash entry, as `git stash clear` does; `git for-each-ref --format='%(refname)'
 * refs/tags | xargs -n1 git update-ref -d` deletes each ref under the patterns it lists, as
 * `git update-ref -d refs/tags/<each>` does (`refs/memory`: axme's own store). One entry dropped
 * by its name (`git stash drop stash@{1}`) stays the everyday drop it is, and so does a listing a
 * stage on the way picks some lines of (`grep wip`, `head -1`): only stages that select fields of
 * every line (`cut -d: -f1`) pass them all on.
 */

/** A sample name below each listed pattern: what a listing of it prints, for the rules to judge as written out. */
const SAMPLE = 'x';
/** What a listing of every ref prints among others: a tag, the stash, a ref of axme's store. */
const EVERY_REF = [`refs/tags/${SAMPLE}`, 'refs/stash', `refs/memory/${SAMPLE}`];

/**
 * The command lines `LISTING | FILTER… | xargs ARGV` amounts to (`argv`: what xargs runs, `lister`
 * the stage that prints, `filters` the stages between), or null when it is not such a delete.
 */
export function xargsRefDeletes(argv: readonly string[], lister: Invocation, filters: readonly (Invocation | null)[]): string[] | null {
  if (argv[0] !== 'git' || lister.program !== 'git') return null;
  // every line, its fields selected (`cut -d: -f1`, `awk -F: '{print $1}'`); a grep or a head keeps some lines only
  if (filters.some((f) => !f || !selectsFields(f))) return null;
  const run = argv.slice(1 + gitSubcommandAt(argv.slice(1)));
  const listed = lister.args.map((w) => w.value);
  const list = listed.slice(gitSubcommandAt(listed));
  if (run[0] === 'stash' && run[1] === 'drop' && list[0] === 'stash' && (list[1] === 'list' || list[1] === undefined)) return ['git stash clear'];
  if (run[0] !== 'update-ref' || !run.slice(1).some((a) => a === '-d' || a === '--delete')) return null;
  const patterns = refPatterns(list);
  if (!patterns) return null;
  // the local branches listed (`refs/heads`, every ref) take the protected ones along: read as `git update-ref -d $(LISTING)` (listedRefDelete)
  const stages = [lister, ...(filters as Invocation[])].map((i) => i.command.words.map((w) => w.raw).join(' '));
  const listing = `${argv.map(shellQuote).join(' ')} $(${stages.join(' | ')})`;
  return [
    listing,
    ...patterns.flatMap((p) => {
      const folder = p.replace(/\/$/, '');
      // every ref (`git show-ref`, `for-each-ref refs`): the tags, the stash and axme's store among them
      const below = folder === 'refs' ? EVERY_REF : [`${folder}/${SAMPLE}`];
      return below.map((r) => `git update-ref -d ${shellQuote(r)}`);
    }),
  ];
}

/**
 * `git update-ref -d $(git for-each-ref --format='%(refname)' refs/heads)`, and `LISTING | xargs
 * -n1 git update-ref -d` read as it: a delete of the refs a listing of the local branches prints,
 * the protected branches among them (git-branch-listings.ts protectedBranchListed: a grep on the
 * way that drops them, or a pattern they do not match, `refs/heads/feat/`, keeps them out).
 */
export function listedRefDelete(call: GitCall, globs: readonly string[]): Hit | null {
  if (!call.args.some((a) => a === '-d' || a === '--delete') || call.args.includes('--stdin')) return null;
  const b = protectedBranchListed(call, globs);
  return b
    ? {
        rule: `update-ref -d refs/heads/${b}`,
        reason: `\`git update-ref -d\` of the refs a listing of the local branches prints deletes every branch, the protected branch ${b} among them, without any of git's checks: filter it out (\`grep -v ${b}\`) or name the refs`,
      }
    : null;
}

/** The ref folders a `git for-each-ref` or `git show-ref` listing prints refs below (`refs` for every ref), or null for another command. */
function refPatterns(list: readonly string[]): string[] | null {
  if (list[0] !== 'for-each-ref' && list[0] !== 'show-ref') return null;
  const patterns = list
    .slice(1)
    .filter((v, i, a) => !v.startsWith('-') && !/^--(format|sort|count|points-at|merged|no-merged|contains|no-contains|exclude)$/.test(a[i - 1] ?? ''));
  // a pattern with a wildcard lists what its folder holds, some of it
  return patterns.length ? patterns.map((p) => p.replace(/\/[^/]*[*?[].*$/, '')) : ['refs'];
}

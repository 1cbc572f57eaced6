import { headCommitSync, type RepoLocation } from './locate.ts';
import { readLooseObject } from './read-loose-object.ts';

/**
 * The message of the commit HEAD points at, read in-process from its loose object — what git
 * leaves right after `git commit` — so a post-commit hook can tell in a millisecond whether the
 * commit has anything to note. Null whenever that takes git (a packed object, a detached or
 * unusual HEAD, reftable): the caller then asks git.
 */
export function headMessageSync(loc: RepoLocation): string | null {
  const oid = headCommitSync(loc.gitDir, loc.commonDir);
  if (!oid || oid.length !== 40) return null;
  const object = readLooseObject(loc.commonDir, oid);
  if (object?.type !== 'commit') return null;
  const body = object.content.toString('utf8');
  const blank = body.indexOf('\n\n');
  return blank < 0 ? '' : body.slice(blank + 2);
}

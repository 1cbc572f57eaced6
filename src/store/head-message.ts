import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OID_RE, type RepoLocation, readRefSync } from './locate.ts';
import { readLooseObject } from './read-loose-object.ts';

/**
 * The message of the commit HEAD points at, read in-process from its loose object — what git
 * leaves right after `git commit` — so a post-commit hook can tell in a millisecond whether the
 * commit has anything to note. Null whenever that takes git (a packed object, a detached or
 * unusual HEAD, reftable): the caller then asks git.
 */
export function headMessageSync(loc: RepoLocation): string | null {
  const oid = headCommitSync(loc);
  if (!oid || oid.length !== 40) return null;
  const object = readLooseObject(loc.commonDir, oid);
  if (object?.type !== 'commit') return null;
  const body = object.content.toString('utf8');
  const blank = body.indexOf('\n\n');
  return blank < 0 ? '' : body.slice(blank + 2);
}

/** The commit HEAD names, read from files (a branch's loose or packed ref, or a detached HEAD); null before the first commit or when only git can tell. */
export function headCommitSync(loc: RepoLocation): string | null {
  try {
    const head = readFileSync(join(loc.gitDir, 'HEAD'), 'utf8').trim();
    const ref = /^ref: (\S+)$/.exec(head)?.[1];
    const oid = ref ? readRefSync(loc.commonDir, ref) : head;
    return oid && oid !== 'unknown' && OID_RE.test(oid) ? oid : null;
  } catch {
    return null;
  }
}

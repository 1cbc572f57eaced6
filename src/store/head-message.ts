import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { OID_RE, type RepoLocation, readRefSync } from './locate.ts';

/**
 * The message of the commit HEAD points at, read in-process from its loose object — what git
 * leaves right after `git commit` — so a post-commit hook can tell in a millisecond whether the
 * commit has anything to note. Null whenever that takes git (a packed object, a detached or
 * unusual HEAD, reftable): the caller then asks git.
 */
export function headMessageSync(loc: RepoLocation): string | null {
  const oid = headCommitSync(loc);
  if (!oid || oid.length !== 40) return null;
  try {
    const raw = inflateSync(readFileSync(join(loc.commonDir, 'objects', oid.slice(0, 2), oid.slice(2))));
    const nul = raw.indexOf(0);
    if (nul < 0 || !raw.subarray(0, nul).toString('latin1').startsWith('commit ')) return null;
    const body = raw.subarray(nul + 1).toString('utf8');
    const blank = body.indexOf('\n\n');
    return blank < 0 ? '' : body.slice(blank + 2);
  } catch {
    return null;
  }
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

import type { Invocation } from './command.ts';
import { UNKNOWN } from './expand.ts';
import { plainWord, type Word } from './syntax.ts';

/** The checksum tools whose `-c` checks files against the hashes they are handed. */
export const CHECKSUMS = ['sha256sum', 'sha512sum', 'sha384sum', 'sha224sum', 'sha1sum', 'b2sum', 'shasum'];

/** A hash as the checksum tools write it: hex of a SHA's or BLAKE2's length, or a value only the shell knows (a variable the line set: `"${RUST_SHA256} x.tgz"`). */
const HASH = new RegExp(`^(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{56}|[0-9a-fA-F]{64}|[0-9a-fA-F]{96}|[0-9a-fA-F]{128}|${UNKNOWN}+)$`);

/**
 * The files a checksum tool's `-c` checks against hashes the line hands it on its input (`echo
 * "<sha256>  x.tgz" | sha256sum -c`, a here-string): a download so checked is the file its hash
 * pins, which someone checked, not one nobody has read. A list read from a file is not the line's.
 */
export function checkedFiles(inv: Invocation, input: string | null): Word[] {
  const own = inv.command.redirects.find((r) => r.input !== null)?.input ?? null;
  const text = own ?? input;
  if (!CHECKSUMS.includes(inv.program) || text === null || !inv.args.some((a) => a.value === '--check' || /^-[A-Za-z]*c/.test(a.value))) return [];
  if (inv.args.some((a) => !a.value.startsWith('-') && a.value !== '-')) return [];
  const out: Word[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*(\S+)\s+\*?(\S.*?)\s*$/.exec(line);
    if (m && HASH.test(m[1]!)) out.push(plainWord(m[2]!));
  }
  return out;
}

import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';

/**
 * Reading a loose object in-process, without git: what axme writes, what `git commit` leaves and
 * what a small fetch unpacks are loose objects. Each answer is null whenever only git can tell
 * (a packed object, an absent or unreadable one): the caller then asks git.
 */

/** zlib's Z_SYNC_FLUSH (node:zlib `constants`: the CLI bundle imports only functions of node:zlib): inflate a stream's start. */
const Z_SYNC_FLUSH = 2;

/** Where git keeps object `oid` loose: `objects/<first two hex digits>/<the other 38>` of the (common) git dir. */
export const looseObjectFile = (gitDir: string, oid: string) => join(gitDir, 'objects', oid.slice(0, 2), oid.slice(2));

/**
 * The type an inflated object's header (`<type> <size>\0`) names, and where the content starts
 * (-1 when only the start of the object was inflated and the header's end is not in it).
 */
function header(raw: Buffer): { type: string; content: number } | null {
  const sp = raw.subarray(0, 8).indexOf(32);
  if (sp < 1) return null;
  const nul = raw.indexOf(0, sp);
  return { type: raw.subarray(0, sp).toString('latin1'), content: nul < 0 ? -1 : nul + 1 };
}

/** A loose object's type (`commit`, `tree`, `blob`, `tag`), inflating only its first bytes. */
export function looseObjectType(commonDir: string, oid: string): string | null {
  try {
    const fd = openSync(looseObjectFile(commonDir, oid), 'r');
    try {
      const start = Buffer.alloc(64);
      const n = readSync(fd, start, 0, start.length, 0);
      return header(inflateSync(start.subarray(0, n), { finishFlush: Z_SYNC_FLUSH }))?.type ?? null;
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

/** A loose object read whole: its type and content. */
export function readLooseObject(commonDir: string, oid: string): { type: string; content: Buffer } | null {
  try {
    const raw = inflateSync(readFileSync(looseObjectFile(commonDir, oid)));
    const h = header(raw);
    return h && h.content > 0 ? { type: h.type, content: raw.subarray(h.content) } : null;
  } catch {
    return null;
  }
}

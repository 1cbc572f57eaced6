import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { type CommitObject, type GitBackend, renderCommit, sortTreeEntries, type TreeEntry } from './backend.ts';
import { looseObjectFile } from './read-loose-object.ts';

/**
 * Writing git objects in-process, without isomorphic-git (loading it costs a process 30-40 ms,
 * and only its reads are needed, by the isogit backend): SHA-1 and deflate from node's native
 * crypto and zlib, at git's own level for loose objects (core.looseCompression 1). isomorphic-git's
 * path compressed at level 6 through async web streams, which made one add to a 100k-item store
 * spend more time compressing the rewritten folder tree than git does for the whole commit.
 */
export function looseObjectWriter(gitdir: string): Pick<GitBackend, 'writeBlob' | 'writeBlobs' | 'writeTree' | 'writeCommit'> {
  const store = async (type: 'blob' | 'tree' | 'commit', content: Buffer): Promise<string> => {
    const wrapped = Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]);
    const oid = createHash('sha1').update(wrapped).digest('hex');
    writeLooseObject(gitdir, oid, deflateSync(wrapped, { level: 1 }));
    return oid;
  };
  return {
    writeBlob: (data) => store('blob', data),
    writeBlobs: (datas) => Promise.all(datas.map((data) => store('blob', data))),
    writeTree: (entries) => store('tree', treeContent(entries)),
    // the canonical text every backend hashes: one commit, one OID, whichever wrote it
    writeCommit: (c: CommitObject) => store('commit', Buffer.from(renderCommit(c), 'utf8')),
  };
}

/** The content of a tree object: `<mode> <name>\0<20-byte id>` per entry, in git's order; one allocation (a folder of 100k items is rewritten on every add). */
function treeContent(entries: TreeEntry[]): Buffer {
  const sorted = sortTreeEntries(entries);
  const heads = new Array<string>(sorted.length);
  let size = 0;
  for (let i = 0; i < sorted.length; i++) {
    const e = sorted[i]!;
    // git writes a folder's mode as 40000, without the leading zero
    heads[i] = `${e.mode.charCodeAt(0) === 48 ? e.mode.replace(/^0+/, '') : e.mode} ${e.name}\0`;
    size += Buffer.byteLength(heads[i]!) + 20;
  }
  const buf = Buffer.allocUnsafe(size);
  let at = 0;
  for (let i = 0; i < sorted.length; i++) {
    at += buf.write(heads[i]!, at, 'utf8');
    const n = buf.write(sorted[i]!.oid, at, 'hex');
    if (n !== 20) throw new Error(`internal: tree entry ${sorted[i]!.name} has no object ID (${JSON.stringify(sorted[i]!.oid)})`);
    at += n;
  }
  return buf;
}

/**
 * Writes a deflated loose object where git looks for it, unless it is there already: a temp file
 * renamed into place, so an object file is either absent or complete (a writer killed mid-write
 * leaves only a tmp_obj_ file, which fsck ignores and gc prunes). Done here rather than through
 * isomorphic-git's writeObject, which wraps the file system anew and probes it on every call.
 */
function writeLooseObject(gitdir: string, oid: string, deflated: Buffer): void {
  const file = looseObjectFile(gitdir, oid);
  const dir = dirname(file);
  if (existsSync(file)) return;
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `tmp_obj_${process.pid}_${randomBytes(4).toString('hex')}`);
  try {
    writeFileSync(tmp, deflated, { mode: 0o444 });
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

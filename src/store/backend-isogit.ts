import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmdirSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import git from 'isomorphic-git';
import { AxmeError } from '../model/errors.ts';
import { renderCommit, sortTreeEntries, type CommitObject, type GitBackend, type Signature, type TreeEntry } from './backend.ts';

/**
 * The file system isomorphic-git is given. Its calls are the synchronous ones behind a promise:
 * the files are small and local, and a write of one item is ~50 of them — through the thread
 * pool each is a round trip that cost more than the write itself. writeFile is atomic (temp file
 * + rename): isomorphic-git writes loose objects in place and skips any object file that already
 * exists, so a writer killed mid-write would leave a truncated object that every later commit of
 * the same content would silently reuse. With rename, an object file is either absent or complete.
 */
function atomicFs() {
  const promises = {
    readFile: async (path: string, options?: Parameters<typeof readFileSync>[1]) => readFileSync(path, options),
    async writeFile(path: string, data: Uint8Array | string, options?: Parameters<typeof writeFileSync>[2]) {
      // git's own prefix for temporary objects: fsck ignores them and gc prunes leftovers
      const tmp = join(dirname(path), `tmp_obj_${process.pid}_${randomBytes(4).toString('hex')}`);
      mkdirSync(dirname(path), { recursive: true });
      try {
        writeFileSync(tmp, data, options);
        renameSync(tmp, path);
      } catch (err) {
        rmSync(tmp, { force: true });
        throw err;
      }
    },
    unlink: async (path: string) => unlinkSync(path),
    readdir: async (path: string) => readdirSync(path),
    mkdir: async (path: string, options?: Parameters<typeof mkdirSync>[1]) => void mkdirSync(path, options),
    rmdir: async (path: string) => rmdirSync(path),
    stat: async (path: string, options?: Parameters<typeof statSync>[1]) => statSync(path, options),
    lstat: async (path: string, options?: Parameters<typeof lstatSync>[1]) => lstatSync(path, options),
    readlink: async (path: string) => readlinkSync(path),
    symlink: async (target: string, path: string) => symlinkSync(target, path),
    chmod: async (path: string, mode: number) => chmodSync(path, mode),
  };
  return { promises };
}

/**
 * Writes a deflated loose object where git looks for it, unless it is there already: a temp file
 * renamed into place, so an object file is either absent or complete (a writer killed mid-write
 * leaves only a tmp_obj_ file, which fsck ignores and gc prunes). Done here rather than through
 * isomorphic-git's writeObject, which wraps the file system anew and probes it on every call:
 * four objects per add, each paying for that.
 */
function writeLooseObject(gitdir: string, oid: string, deflated: Buffer): void {
  const dir = join(gitdir, 'objects', oid.slice(0, 2));
  const file = join(dir, oid.slice(2));
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

function corrupt(oid: string, want: string, err: unknown): AxmeError {
  const why = err instanceof Error ? err.message : String(err);
  return new AxmeError('CORRUPT', `cannot read ${want} ${oid}: ${why}. Run \`git fsck\` to check the repository.`, { oid });
}

function fromIso(s: { name: string; email: string; timestamp: number; timezoneOffset: number }): Signature {
  const m = -s.timezoneOffset;
  const abs = Math.abs(m);
  const tz = `${m < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
  return { name: s.name, email: s.email, timestamp: s.timestamp, tz };
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
 * In-process backend on isomorphic-git; `gitdir` is the common git dir (where objects live).
 * Objects are hashed and deflated here, at git's own level for loose objects (core.looseCompression
 * 1), with node's native crypto and zlib, and handed to isomorphic-git already deflated: its own
 * path compresses at level 6 through async web streams, which made one add to a 100k-item store
 * spend more time compressing the rewritten folder tree than git does for the whole commit.
 */
export function isogitBackend(gitdir: string): GitBackend {
  const fs = atomicFs();
  const cache = {}; // isomorphic-git keeps parsed pack indexes here between calls
  const store = async (type: 'blob' | 'tree' | 'commit', content: Buffer): Promise<string> => {
    const wrapped = Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]);
    const oid = createHash('sha1').update(wrapped).digest('hex');
    writeLooseObject(gitdir, oid, deflateSync(wrapped, { level: 1 }));
    return oid;
  };
  return {
    name: 'isogit',
    async resolveRef(ref) {
      try {
        return await git.resolveRef({ fs, gitdir, ref, depth: 5 });
      } catch (err) {
        if ((err as { code?: string }).code === 'NotFoundError') return null;
        throw err;
      }
    },
    async readBlob(oid) {
      try {
        const { blob } = await git.readBlob({ fs, gitdir, oid, cache });
        return Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
      } catch (err) {
        throw corrupt(oid, 'blob', err);
      }
    },
    async readTree(oid) {
      try {
        const { tree } = await git.readTree({ fs, gitdir, oid, cache });
        // isomorphic-git re-sorts by plain name; git's order compares a tree's name as `name/`
        return sortTreeEntries(tree.map((e) => ({ mode: e.mode, name: e.path, oid: e.oid, type: e.type as TreeEntry['type'] })));
      } catch (err) {
        throw corrupt(oid, 'tree', err);
      }
    },
    async readCommit(oid) {
      try {
        const { commit } = await git.readCommit({ fs, gitdir, oid, cache });
        return { tree: commit.tree, parents: commit.parent, author: fromIso(commit.author), committer: fromIso(commit.committer), message: commit.message };
      } catch (err) {
        throw corrupt(oid, 'commit', err);
      }
    },
    writeBlob: (data) => store('blob', data),
    writeBlobs: (datas) => Promise.all(datas.map((data) => store('blob', data))),
    writeTree: (entries) => store('tree', treeContent(entries)),
    // the canonical text both backends hash: one commit, one OID, whichever wrote it
    writeCommit: (c: CommitObject) => store('commit', Buffer.from(renderCommit(c), 'utf8')),
    async close() {},
  };
}

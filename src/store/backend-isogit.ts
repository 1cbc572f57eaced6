import { promises as fsp } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import git from 'isomorphic-git';
import { AxmeError } from '../model/errors.ts';
import { sortTreeEntries, tzMinutes, type CommitObject, type GitBackend, type Signature, type TreeEntry } from './backend.ts';

/**
 * File system for isomorphic-git whose writeFile is atomic (temp file + rename). isomorphic-git
 * writes loose objects in place and skips any object file that already exists, so a writer
 * killed mid-write would leave a truncated object that every later commit of the same content
 * would silently reuse. With rename, an object file is either absent or complete.
 */
function atomicFs() {
  const promises = {
    ...fsp,
    async writeFile(path: string, data: Uint8Array | string, options?: Parameters<typeof fsp.writeFile>[2]) {
      // git's own prefix for temporary objects: fsck ignores them and gc prunes leftovers
      const tmp = join(dirname(path), `tmp_obj_${process.pid}_${randomBytes(4).toString('hex')}`);
      try {
        await fsp.writeFile(tmp, data, options);
        await fsp.rename(tmp, path);
      } catch (err) {
        await fsp.rm(tmp, { force: true }).catch(() => {});
        throw err;
      }
    },
  };
  return { promises };
}

function corrupt(oid: string, want: string, err: unknown): AxmeError {
  const why = err instanceof Error ? err.message : String(err);
  return new AxmeError('CORRUPT', `cannot read ${want} ${oid}: ${why}. Run \`git fsck\` to check the repository.`, { oid });
}

// `|| 0`: isomorphic-git writes -0 as "-0000", which would make +0000 commits differ from git's
const toIso = (s: Signature) => ({ name: s.name, email: s.email, timestamp: s.timestamp, timezoneOffset: -tzMinutes(s.tz) || 0 });

function fromIso(s: { name: string; email: string; timestamp: number; timezoneOffset: number }): Signature {
  const m = -s.timezoneOffset;
  const abs = Math.abs(m);
  const tz = `${m < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
  return { name: s.name, email: s.email, timestamp: s.timestamp, tz };
}

/** In-process backend on isomorphic-git; `gitdir` is the common git dir (where objects live). */
export function isogitBackend(gitdir: string): GitBackend {
  const fs = atomicFs();
  const cache = {}; // isomorphic-git keeps parsed pack indexes here between calls
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
    writeBlob: (data) => git.writeBlob({ fs, gitdir, blob: data }),
    writeBlobs: (datas) => Promise.all(datas.map((blob) => git.writeBlob({ fs, gitdir, blob }))),
    writeTree: (entries) =>
      git.writeTree({ fs, gitdir, tree: sortTreeEntries(entries).map((e) => ({ mode: e.mode, path: e.name, oid: e.oid, type: e.type })) }),
    writeCommit: (c: CommitObject) =>
      git.writeCommit({ fs, gitdir, commit: { tree: c.tree, parent: c.parents, author: toIso(c.author), committer: toIso(c.committer), message: c.message } }),
    async close() {},
  };
}

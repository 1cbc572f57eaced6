import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmdirSync, statSync, symlinkSync, unlinkSync } from 'node:fs';
import git, { type CommitObject as IsoCommit, type TreeObject as IsoTree } from 'isomorphic-git';
import { AxmeError } from '../model/errors.ts';
import { writeFileAtomicSync } from './atomic-file.ts';
import { type GitBackend, type Signature, sortTreeEntries, type TreeEntry } from './backend.ts';
import { looseObjectWriter } from './loose-objects.ts';

/**
 * The file system isomorphic-git is given. Its calls are the synchronous ones behind a promise:
 * the files are small and local, and through the thread pool each is a round trip that costs
 * more than the read itself.
 */
function atomicFs() {
  const promises = {
    readFile: async (path: string, options?: Parameters<typeof readFileSync>[1]) => readFileSync(path, options),
    // isomorphic-git only reads here (objects are written by loose-objects.ts); should it write, never a torn file
    writeFile: async (path: string, data: Uint8Array | string) => writeFileAtomicSync(path, typeof data === 'string' ? data : Buffer.from(data)),
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

/**
 * In-process backend on isomorphic-git; `gitdir` is the common git dir (where objects live).
 * isomorphic-git reads; objects are written by looseObjectWriter (native hashing and deflate).
 */
export function isogitBackend(gitdir: string): GitBackend {
  const fs = atomicFs();
  const cache = {}; // isomorphic-git keeps parsed pack indexes here between calls
  const writer = looseObjectWriter(gitdir);
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
        // readObject, not readTree: isomorphic-git's readTree peels a commit or a tag to its tree, where the contract says CORRUPT
        const o = await git.readObject({ fs, gitdir, oid, cache, format: 'parsed' });
        if (o.type !== 'tree') throw new Error(`a ${o.type}`);
        const tree = o.object as IsoTree;
        // isomorphic-git re-sorts by plain name; git's order compares a tree's name as `name/`
        return sortTreeEntries(tree.map((e) => ({ mode: e.mode, name: e.path, oid: e.oid, type: e.type as TreeEntry['type'] })));
      } catch (err) {
        throw corrupt(oid, 'tree', err);
      }
    },
    async readCommit(oid) {
      try {
        // readObject, not readCommit: isomorphic-git's readCommit peels an annotated tag to its commit
        const o = await git.readObject({ fs, gitdir, oid, cache, format: 'parsed' });
        if (o.type !== 'commit') throw new Error(`a ${o.type}`);
        const commit = o.object as IsoCommit;
        return { tree: commit.tree, parents: commit.parent, author: fromIso(commit.author), committer: fromIso(commit.committer), message: commit.message };
      } catch (err) {
        throw corrupt(oid, 'commit', err);
      }
    },
    ...writer,
    async close() {},
  };
}

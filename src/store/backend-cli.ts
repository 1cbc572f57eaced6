import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxmeError, isAxmeError } from '../model/errors.ts';
import { type GitBackend, type ObjectType, parseCommit, renderCommit, sortTreeEntries, type TreeEntry } from './backend.ts';
import { runGit } from './git.ts';
import { type BatchAnswer, GitBatch, lineAnswer } from './git-batch.ts';
import { resolveRefOid } from './locate.ts';

/** One cat-file --batch answer: `<oid> <type> <size>\n<content>\n`, or `<name> missing`. */
function catFileAnswer(buf: Buffer): BatchAnswer<{ type: string; data: Buffer }> {
  const nl = buf.indexOf(10);
  if (nl === -1) return null;
  const header = buf.subarray(0, nl).toString('utf8');
  if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
    const oid = header.slice(0, header.lastIndexOf(' '));
    return { used: nl + 1, error: new AxmeError('CORRUPT', `object ${oid} is missing from the repository. Run \`git fsck\`.`, { oid }) };
  }
  const [, type, size] = header.split(' ');
  const n = Number(size);
  if (buf.length < nl + 1 + n + 1) return null;
  return { used: nl + 1 + n + 1, value: { type: type!, data: Buffer.from(buf.subarray(nl + 1, nl + 1 + n)) } };
}

/** Parses git's binary tree format: `<mode> <name>\0<20-byte oid>` repeated. */
function parseTree(data: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let i = 0;
  while (i < data.length) {
    const sp = data.indexOf(32, i);
    const nul = data.indexOf(0, sp);
    const mode = data.subarray(i, sp).toString('ascii');
    const name = data.subarray(sp + 1, nul).toString('utf8');
    const oid = data.subarray(nul + 1, nul + 21).toString('hex');
    const normMode = mode.padStart(6, '0');
    const type: ObjectType = normMode === '040000' ? 'tree' : normMode === '160000' ? 'commit' : 'blob';
    entries.push({ mode: normMode, name, oid, type });
    i = nul + 21;
  }
  return entries;
}

/**
 * A path as `hash-object --stdin-paths` reads it: one line, C-quoted when it holds a newline
 * (git unquotes a path that starts with a double quote).
 */
function stdinPath(path: string): string {
  return path.includes('\n') ? `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"` : path;
}

/**
 * Backend on the git CLI. Reads go through one long-lived `cat-file --batch`; writes through
 * three more, each started on its first use: `hash-object --stdin-paths` for blobs, one for
 * commits, and `mktree --batch` for trees. A write therefore starts no git process per object,
 * and a long-lived caller none per write.
 */
export function cliBackend(env: NodeJS.ProcessEnv, commonDir: string): GitBackend {
  const reader = new GitBatch(['cat-file', '--batch'], env, catFileAnswer);
  const blobs = new GitBatch(['hash-object', '-w', '--no-filters', '--stdin-paths'], env, lineAnswer);
  const commits = new GitBatch(['hash-object', '-w', '-t', 'commit', '--stdin-paths'], env, lineAnswer);
  const trees = new GitBatch(['mktree', '-z', '--batch'], env, lineAnswer);
  // A long-lived mktree checks each entry's object without re-scanning the packs (git's quick
  // lookup): one packed after it started (git gc, a fetch) reads as unavailable. Such a tree is
  // asked once more of a fresh mktree (the failure ended the old one), which sees every pack: an
  // object that is really missing fails the write there.
  const writeTree = async (request: string): Promise<string> => {
    try {
      return await trees.request(request);
    } catch (err) {
      if (isAxmeError(err) && err.code === 'GIT_FAILED' && /is unavailable/.test(err.message)) return trees.request(request);
      throw err;
    }
  };
  const expect = async (oid: string, type: ObjectType) => {
    if (!/^[0-9a-f]{40,64}$/.test(oid)) throw new AxmeError('CORRUPT', `not an object id: ${JSON.stringify(oid)}`);
    const o = await reader.request(`${oid}\n`);
    if (o.type !== type) throw new AxmeError('CORRUPT', `object ${oid} is a ${o.type}, expected a ${type}`, { oid });
    return o.data;
  };
  // hash-object reads files, not contents: each goes to a private folder for the time git reads it
  let axmeDirMade = false;
  const store = async (hasher: GitBatch<string>, datas: Buffer[]): Promise<string[]> => {
    if (datas.length === 0) return [];
    if (!axmeDirMade) mkdirSync(join(commonDir, 'axme'), { recursive: true });
    axmeDirMade = true;
    const dir = mkdtempSync(join(commonDir, 'axme', 'objects-in-'));
    try {
      // every file written before git is asked for any: a failed write (a full disk) leaves no request waiting
      const paths = datas.map((d, i) => {
        const path = join(dir, String(i));
        writeFileSync(path, d);
        return path;
      });
      return await Promise.all(paths.map((path) => hasher.request(`${stdinPath(path)}\n`)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  return {
    name: 'cli',
    // the loose file or packed-refs, read in-process; what only git can interpret goes to the git CLI
    resolveRef: (ref) => resolveRefOid(commonDir, ref, (args) => runGit(args, { env, allowFail: true })),
    readBlob: (oid) => expect(oid, 'blob'),
    readTree: async (oid) => parseTree(await expect(oid, 'tree')),
    readCommit: async (oid) => parseCommit((await expect(oid, 'commit')).toString('utf8')),
    writeBlob: async (data) => (await store(blobs, [data]))[0]!,
    writeBlobs: (datas) => store(blobs, datas),
    // one tree per request: its entries, each NUL-terminated, then an empty one
    writeTree: (entries) =>
      writeTree(
        `${sortTreeEntries(entries)
          .map((e) => `${e.mode} ${e.type} ${e.oid}\t${e.name}\0`)
          .join('')}\0`,
      ),
    // Rendered here rather than by commit-tree, so commit.gpgSign or i18n.commitEncoding in the
    // user's config cannot make the CLI backend's commit differ from the in-process one.
    writeCommit: async (c) => (await store(commits, [Buffer.from(renderCommit(c), 'utf8')]))[0]!,
    close: async () => {
      await Promise.all([reader.close(), blobs.close(), commits.close(), trees.close()]);
    },
  };
}

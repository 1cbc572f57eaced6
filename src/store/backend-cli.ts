import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxmeError } from '../model/errors.ts';
import { type GitBackend, type ObjectType, parseCommit, renderCommit, sortTreeEntries, type TreeEntry } from './backend.ts';
import { runGit } from './git.ts';
import { resolveRefOid } from './locate.ts';

interface Pending {
  oid: string;
  resolve: (o: { type: string; data: Buffer }) => void;
  reject: (e: Error) => void;
}

/**
 * One long-lived `git cat-file --batch`: requests are pipelined, answers come back in order.
 * The process is unref'd while idle so it never keeps Node alive.
 */
class CatFileBatch {
  private child: ChildProcessWithoutNullStreams | null = null;
  private queue: Pending[] = [];
  private buf: Buffer = Buffer.alloc(0);

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  read(oid: string): Promise<{ type: string; data: Buffer }> {
    if (!/^[0-9a-f]{40,64}$/.test(oid)) return Promise.reject(new AxmeError('CORRUPT', `not an object id: ${JSON.stringify(oid)}`));
    const child = this.start();
    return new Promise((resolve, reject) => {
      if (this.queue.length === 0) this.setRef(true);
      this.queue.push({ oid, resolve, reject });
      child.stdin.write(`${oid}\n`);
    });
  }

  private start(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    const child = spawn('git', ['cat-file', '--batch'], { env: this.env, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.on('data', (b: Buffer) => this.onData(b));
    child.stderr.resume();
    child.stdin.on('error', () => {});
    const fail = (e: Error) => {
      this.child = null;
      for (const p of this.queue.splice(0)) p.reject(e);
      this.buf = Buffer.alloc(0);
    };
    child.on('error', (e) => fail(e));
    child.on('close', (code) => fail(new AxmeError('GIT_FAILED', `git cat-file --batch exited (${code})`)));
    this.child = child;
    return child;
  }

  private onData(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    while (this.queue.length) {
      const nl = this.buf.indexOf(10);
      if (nl === -1) return;
      const header = this.buf.subarray(0, nl).toString('utf8');
      const head = this.queue[0]!;
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        this.buf = this.buf.subarray(nl + 1);
        this.queue.shift();
        head.reject(new AxmeError('CORRUPT', `object ${head.oid} is missing from the repository. Run \`git fsck\`.`, { oid: head.oid }));
      } else {
        const [, type, size] = header.split(' ');
        const n = Number(size);
        if (this.buf.length < nl + 1 + n + 1) return;
        const data = Buffer.from(this.buf.subarray(nl + 1, nl + 1 + n));
        this.buf = this.buf.subarray(nl + 1 + n + 1);
        this.queue.shift();
        head.resolve({ type: type!, data });
      }
      if (this.queue.length === 0) this.setRef(false);
    }
  }

  private setRef(on: boolean): void {
    const c = this.child;
    if (!c) return;
    const streams = [c.stdout, c.stderr, c.stdin] as unknown as Array<{ ref?: () => void; unref?: () => void }>;
    if (on) {
      c.ref();
      for (const s of streams) s.ref?.();
    } else {
      c.unref();
      for (const s of streams) s.unref?.();
    }
  }

  close(): Promise<void> {
    const c = this.child;
    if (!c) return Promise.resolve();
    this.setRef(true); // keep Node alive until git has exited
    this.child = null;
    return new Promise((resolve) => {
      c.once('close', () => resolve());
      c.stdin.end();
    });
  }
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

/** Backend on the git CLI: reads through one `cat-file --batch`, writes with hash-object/mktree. */
/** From this many blobs on, one `hash-object --stdin-paths` beats a process per blob. */
const BATCH_MIN = 8;

export function cliBackend(env: NodeJS.ProcessEnv, commonDir: string): GitBackend {
  const batch = new CatFileBatch(env);
  const expect = async (oid: string, type: ObjectType) => {
    const o = await batch.read(oid);
    if (o.type !== type) throw new AxmeError('CORRUPT', `object ${oid} is a ${o.type}, expected a ${type}`, { oid });
    return o.data;
  };
  const hashObject = async (type: ObjectType, data: Buffer | string) =>
    (await runGit(['hash-object', '-w', '-t', type, '--stdin'], { env, input: data })).stdout.toString().trim();
  return {
    name: 'cli',
    // the loose file or packed-refs, read in-process; what only git can interpret goes to the git CLI
    resolveRef: (ref) => resolveRefOid(commonDir, ref, (args) => runGit(args, { env, allowFail: true })),
    readBlob: (oid) => expect(oid, 'blob'),
    readTree: async (oid) => parseTree(await expect(oid, 'tree')),
    readCommit: async (oid) => parseCommit((await expect(oid, 'commit')).toString('utf8')),
    writeBlob: (data) => hashObject('blob', data),
    async writeBlobs(datas) {
      if (datas.length < BATCH_MIN) return Promise.all(datas.map((d) => hashObject('blob', d)));
      // one git process for all: the contents go to a private temp folder, git hashes and stores them
      mkdirSync(join(commonDir, 'axme'), { recursive: true });
      const dir = mkdtempSync(join(commonDir, 'axme', 'blobs-'));
      try {
        const paths = datas.map((d, i) => {
          const p = join(dir, String(i));
          writeFileSync(p, d);
          return p;
        });
        const out = (await runGit(['hash-object', '-w', '--no-filters', '--stdin-paths'], { env, input: `${paths.join('\n')}\n` })).stdout
          .toString()
          .trim()
          .split('\n');
        if (out.length !== datas.length) throw new AxmeError('GIT_FAILED', `git hash-object stored ${out.length} of ${datas.length} blobs`);
        return out;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    async writeTree(entries) {
      const input = sortTreeEntries(entries)
        .map((e) => `${e.mode} ${e.type} ${e.oid}\t${e.name}\0`)
        .join('');
      return (await runGit(['mktree', '-z'], { env, input })).stdout.toString().trim();
    },
    // Rendered here rather than by commit-tree, so commit.gpgSign or i18n.commitEncoding in the
    // user's config cannot make the CLI backend's commit differ from the in-process one.
    writeCommit: (c) => hashObject('commit', renderCommit(c)),
    close: () => batch.close(),
  };
}

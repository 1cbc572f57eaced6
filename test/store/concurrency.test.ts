import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { build } from 'esbuild';
import { coreAt, initCore } from '../core.ts';
import { axme, cleanEnv, git, tempRepo } from '../helpers.ts';

const WRITER = resolve(import.meta.dirname, '../fixtures/concurrent-writer.ts');
const WRITERS = 8;
const ADDS = 15;

// the writer and what it imports as one module, built once: each writer process loads it in a
// fraction of what tsx takes to load the sources, and the processes, not their loading, are the test
let bundleDir: string;
let writer: string;
before(async () => {
  bundleDir = mkdtempSync(join(tmpdir(), 'axme-writer-'));
  writer = join(bundleDir, 'concurrent-writer.mjs');
  await build({
    entryPoints: [WRITER],
    outfile: writer,
    bundle: true,
    platform: 'node',
    format: 'esm',
    banner: { js: "import { createRequire as axmeCreateRequire } from 'node:module'; const require = axmeCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  });
});
after(() => rmSync(bundleDir, { recursive: true, force: true }));

/**
 * Runs the writers as separate processes, as agents and hooks are: each loads, says it is ready,
 * and all are told to go at once, so they race on the ref, the write lock and the ID counter from
 * their first add. Resolves with what each printed after "ready" (its failures).
 */
async function raceWriters(dir: string): Promise<string[]> {
  const writers = Array.from({ length: WRITERS }, (_, w) => {
    const child = spawn(process.execPath, [writer, dir, String(w), String(ADDS)], { env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let markReady = () => {};
    const ready = new Promise<void>((r) => (markReady = r));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.startsWith('ready\n')) markReady();
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const done = new Promise<string>((resolveRun, reject) => {
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolveRun(out.replace(/^ready\n/, '')) : reject(new Error(`writer ${w} exited ${code}: ${err}`))));
    });
    return { child, ready, done };
  });
  const all = Promise.all(writers.map((w) => w.done));
  // a writer that dies while loading fails the test instead of leaving the others waiting
  await Promise.race([Promise.all(writers.map((w) => w.ready)), all]);
  for (const { child } of writers) child.stdin.end('go\n');
  return all;
}

/** The store after concurrent writers: every title once, IDs without gap or collision, clean fsck, one commit and one reflog entry per update. */
async function assertAllKept(dir: string, n: number): Promise<void> {
  const items = (await coreAt(dir).list('decision')) as Array<{ id: string; title: string }>;
  assert.equal(items.length, n);
  assert.equal(new Set(items.map((d) => d.title)).size, n, 'every title once');
  assert.deepEqual(
    items.map((d) => d.id).sort(),
    Array.from({ length: n }, (_, i) => `D-${String(i + 1).padStart(3, '0')}`),
    `IDs D-001..D-${String(n).padStart(3, '0')} with no gap or collision`,
  );
  git(dir, ['fsck', '--strict', '--no-progress']);
  const fsck = await coreAt(dir).fsck();
  assert.equal(fsck.ok, true, JSON.stringify(fsck.findings));
  const commits = git(dir, ['rev-list', '--count', 'refs/memory/main']).trim();
  assert.equal(Number(commits), n + 1, 'one commit per add, plus init');
  const reflog = git(dir, ['reflog', 'show', '--format=%H', 'refs/memory/main']).trim().split('\n');
  assert.equal(reflog.length, n + 1, 'a reflog entry per update');
}

test(`${WRITERS} processes x ${ADDS} concurrent adds through the core: every item kept, unique IDs, clean fsck, a reflog entry per update`, {
  timeout: 600_000,
}, async (t) => {
  const { dir, cleanup } = tempRepo();
  try {
    await coreAt(dir).init();
    const outs = await raceWriters(dir);
    assert.deepEqual(
      outs.flatMap((o) => o.split('\n').filter(Boolean)),
      [],
    );
    await assertAllKept(dir, WRITERS * ADDS);
    // how much the writers interleaved: consecutive IDs taken by different writers
    const byId = ((await coreAt(dir).list('decision')) as Array<{ id: string; title: string }>).sort((a, b) => a.id.localeCompare(b.id));
    const writerOf = (title: string) => /^Writer (\d+) /.exec(title)?.[1];
    const handoffs = byId.filter((d, i) => i > 0 && writerOf(d.title) !== writerOf(byId[i - 1]!.title)).length;
    t.diagnostic(`handoffs between writers: ${handoffs} of ${byId.length - 1}`);
    assert.ok(handoffs > 0, 'the writers never interleaved: one ran after another, so nothing raced');
  } finally {
    cleanup();
  }
});

test('concurrent `axme decision add` processes through the CLI: every item kept, unique IDs, clean fsck', { timeout: 120_000 }, async () => {
  const { dir, cleanup } = tempRepo();
  try {
    await initCore(dir, { claude: true, gitHooks: true, scan: 'if-new' });
    const failures: string[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async (_, w) => {
        for (let i = 0; i < 4; i++) {
          const r = await axme(dir, ['decision', 'add', '--title', `Writer ${w} decision ${i}`, '--decision', `w${w} i${i}`]);
          if (r.code !== 0) failures.push(`w${w} i${i}: ${r.stderr}`);
        }
      }),
    );
    assert.deepEqual(failures, []);
    await assertAllKept(dir, 16);
  } finally {
    cleanup();
  }
});

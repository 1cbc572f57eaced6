import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { coreAt, initCore } from '../core.ts';
import { axme, cleanEnv, git, tempRepo } from '../helpers.ts';

const run = promisify(execFile);
const WRITER = resolve(import.meta.dirname, '../fixtures/concurrent-writer.ts');
const WRITERS = 8;
const ADDS = 30;

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
}, async () => {
  const { dir, cleanup } = tempRepo();
  try {
    await coreAt(dir).init();
    // separate processes, as agents and hooks are: they race on the ref, the write lock and the ID counter
    const outs = await Promise.all(
      Array.from({ length: WRITERS }, (_, w) =>
        run(process.execPath, ['--import', 'tsx', WRITER, dir, String(w), String(ADDS)], {
          cwd: resolve(import.meta.dirname, '../..'),
          env: cleanEnv(),
          maxBuffer: 1 << 24,
        }),
      ),
    );
    assert.deepEqual(
      outs.flatMap((o) => o.stdout.split('\n').filter(Boolean)),
      [],
    );
    await assertAllKept(dir, WRITERS * ADDS);
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

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { axme, axmeOk, git, tempRepo } from './helpers.ts';

const WRITERS = 8;
const ADDS = 50;

test(`${WRITERS} processes x ${ADDS} concurrent adds through the CLI: every item kept, unique IDs, clean fsck, a reflog entry per update`, { timeout: 600_000 }, async () => {
  const { dir, cleanup } = tempRepo();
  try {
    await axmeOk(dir, ['init']);
    const failures: string[] = [];
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        for (let i = 0; i < ADDS; i++) {
          const r = await axme(dir, ['decision', 'add', '--title', `Writer ${w} decision ${i}`, '--decision', `w${w} i${i}`]);
          if (r.code !== 0) failures.push(`w${w} i${i}: ${r.stderr}`);
        }
      }),
    );
    assert.deepEqual(failures, []);
    const items = (await axmeOk(dir, ['decision', 'list', '--json'])) as Array<{ id: string; title: string }>;
    assert.equal(items.length, WRITERS * ADDS);
    assert.equal(new Set(items.map((d) => d.title)).size, WRITERS * ADDS, 'every title once');
    assert.deepEqual(
      items.map((d) => d.id).sort(),
      Array.from({ length: WRITERS * ADDS }, (_, i) => `D-${String(i + 1).padStart(3, '0')}`),
      'IDs D-001..D-400 with no gap or collision',
    );
    git(dir, ['fsck', '--strict', '--no-progress']);
    const fsck = await axmeOk(dir, ['fsck', '--json']);
    assert.equal(fsck.ok, true, JSON.stringify(fsck.findings));
    const commits = git(dir, ['rev-list', '--count', 'refs/memory/main']).trim();
    assert.equal(Number(commits), WRITERS * ADDS + 1, 'one commit per add, plus init');
    const reflog = git(dir, ['reflog', 'show', '--format=%H', 'refs/memory/main']).trim().split('\n');
    assert.equal(reflog.length, WRITERS * ADDS + 1, 'a reflog entry per update');
  } finally {
    cleanup();
  }
});

/**
 * `axme import adr`: which D-number each ADR gets (its own number, in the order of the ADR
 * numbers), and two ADRs with one title (the duplicate rule of `decision add`).
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { importAdr } from '../../src/operations/import/adr.ts';
import { coreAt, runOp, runOpText } from '../core.ts';
import { git, tempRepo } from '../helpers.ts';

/** A repository with an initialized store and docs/adr holding `files` (name -> text). */
async function repoWithAdrs(files: Record<string, string>) {
  const repo = tempRepo({ commit: true });
  const adr = join(repo.dir, 'docs', 'adr');
  mkdirSync(adr, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(adr, name), text);
  await coreAt(repo.dir).init();
  return { ...repo, adr };
}

const nygard = (n: number, title: string, status = 'Accepted') =>
  `# ${n}. ${title}\n\nDate: 2024-01-0${n}\n\n## Status\n\n${status}\n\n## Context\n\nWhy ${title}.\n\n## Decision\n\nWe ${title}.\n`;

describe('axme import adr: D-numbers follow the ADR numbers', () => {
  test('two files numbered 0001 and one 0002: 0001-first D-001, 0002-second D-002, 0001-first-again the next free one', async () => {
    const repo = await repoWithAdrs({
      '0001-first.md': nygard(1, 'Do the first thing'),
      '0001-first-again.md': nygard(1, 'Do the first thing again'),
      '0002-second.md': nygard(2, 'Do the second thing'),
    });
    try {
      const dry = await runOp(repo.dir, importAdr, { dir: repo.adr, dry_run: true });
      assert.deepEqual(
        dry.items.map((i: any) => `${i.path} ${i.id}`),
        ['0001-first.md D-001', '0001-first-again.md D-003', '0002-second.md D-002'],
      );
      const r = await runOp(repo.dir, importAdr, { dir: repo.adr });
      assert.deepEqual(
        r.items.map((i: any) => `${i.path} ${i.id}`),
        dry.items.map((i: any) => `${i.path} ${i.id}`),
      );
      assert.equal((await coreAt(repo.dir).show('decision', 'D-002')).title, 'Do the second thing');
    } finally {
      repo.cleanup();
    }
  });
});

describe('axme import adr: two ADRs with one title', () => {
  test('the second "Use Postgres" is a duplicate of the first (as decision add would say): not imported, reported', async () => {
    const repo = await repoWithAdrs({
      '0001-use-postgres.md': nygard(1, 'Use Postgres'),
      '0002-use-postgres-again.md': nygard(2, 'Use Postgres'),
    });
    try {
      const r = await runOp(repo.dir, importAdr, { dir: repo.adr });
      assert.deepEqual(
        r.items.map((i: any) => `${i.path} ${i.id} ${i.outcome}`),
        ['0001-use-postgres.md D-001 new', '0002-use-postgres-again.md D-001 duplicate'],
      );
      assert.ok(
        r.problems.some((p: any) => p.path === '0002-use-postgres-again.md' && /same title as 0001-use-postgres\.md \(D-001\)/.test(p.reason)),
        JSON.stringify(r.problems),
      );
      const all = await coreAt(repo.dir).list('decision', { all: true });
      assert.deepEqual(
        all.map((d: any) => `${d.id} ${d.status}`),
        ['D-001 active'],
      );
      // a second run says the same of each file: the first is in the store now, the second is still its duplicate
      const tip = git(repo.dir, ['rev-parse', 'refs/memory/main']);
      const again = await runOp(repo.dir, importAdr, { dir: repo.adr });
      assert.equal(again.commit, null);
      assert.deepEqual(
        again.items.map((i: any) => `${i.path} ${i.id} ${i.outcome}`),
        ['0001-use-postgres.md D-001 exists', '0002-use-postgres-again.md D-001 duplicate'],
      );
      assert.ok(
        again.problems.some((p: any) => p.path === '0002-use-postgres-again.md' && /same title as 0001-use-postgres\.md \(D-001\)/.test(p.reason)),
        JSON.stringify(again.problems),
      );
      const text = await runOpText(repo.dir, importAdr, { dir: repo.adr });
      assert.match(text, /Already in the store: 1\n/);
      assert.match(text, /Left out \(1\):\n- 0002-use-postgres-again\.md: same title as/);
      assert.equal(git(repo.dir, ['rev-parse', 'refs/memory/main']), tip);
    } finally {
      repo.cleanup();
    }
  });

  test('an ADR superseded by one with its title is not live: both are imported, linked', async () => {
    const repo = await repoWithAdrs({
      '0001-use-postgres.md': nygard(1, 'Use Postgres', 'Superseded by [2. Use Postgres](0002-use-postgres-16.md)'),
      '0002-use-postgres-16.md': nygard(2, 'Use Postgres', 'Accepted\n\nSupersedes [1. Use Postgres](0001-use-postgres.md)'),
    });
    try {
      const r = await runOp(repo.dir, importAdr, { dir: repo.adr });
      assert.deepEqual(
        r.items.map((i: any) => `${i.id} ${i.status} ${i.outcome}`),
        ['D-001 superseded new', 'D-002 active new'],
      );
      assert.deepEqual(r.problems, []);
    } finally {
      repo.cleanup();
    }
  });
});

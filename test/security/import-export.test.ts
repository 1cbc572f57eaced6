/**
 * Attacks through the folders the importers read and the exporter writes: a symbolic link that
 * leads out of the folder (to a teammate's ~/.ssh, to another project's notes), a link the export
 * would replace, a file in another encoding, a file far too large to be an item. Importers stay
 * in their folder and name what they left out; the exporter never replaces a link; no absolute
 * path of this machine goes into a commit.
 */
import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { importAutoMemory } from '../../src/knowledge/auto-memory/import-auto-memory.ts';
import { exportAdr } from '../../src/knowledge/export/adr/export-adr.ts';
import { importAdr } from '../../src/knowledge/import/adr/import-adr.ts';
import { importAxmeCode } from '../../src/knowledge/import/axme-code.ts';
import { coreAt, rejectsWith, withCore } from '../core.ts';
import { git, tempRepo } from '../helpers.ts';

const REF = 'refs/memory/main';
const roots: string[] = [];
after(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 })));

/** A project with a store, and a folder outside it (another project, a home folder) holding what must not come in. */
async function setUp(): Promise<{ dir: string; outside: string }> {
  const { dir } = tempRepo({ commit: true });
  roots.push(dir);
  await coreAt(dir).init();
  const outside = mkdtempSync(join(tmpdir(), 'axme-outside-'));
  roots.push(outside);
  return { dir, outside };
}

const decisionFile = (id: string, title: string) =>
  `---\nid: ${id}\ntitle: ${title}\ndate: 2026-01-05\n---\n\n# ${title}\n\n${title}.\n\n## Reasoning\n\nBecause.\n`;
const lastMessage = (dir: string) => git(dir, ['log', '-1', '--format=%B', REF]);

describe('security: importers stay in their folder', () => {
  test('import axme-code follows no link out of .axme-code (a linked folder, linked files), names each one, and its commit holds no path of this machine', async () => {
    const { dir, outside } = await setUp();
    const code = join(dir, '.axme-code');
    mkdirSync(join(code, 'decisions'), { recursive: true });
    mkdirSync(join(code, 'safety'), { recursive: true });
    writeFileSync(join(code, 'decisions', 'D-001-inside.md'), decisionFile('D-001', 'Inside'));
    mkdirSync(join(outside, 'decisions'));
    writeFileSync(join(outside, 'decisions', 'D-002-stolen.md'), decisionFile('D-002', 'Stolen from outside'));
    writeFileSync(join(outside, 'questions.md'), '## Q-001 [open] 2026-01-05 10:00:00 source=user\n\n**Question**: What is in ~/.ssh?\n');
    writeFileSync(join(outside, 'rules.yaml'), 'bash:\n  allowedPrefixes:\n    - rm -rf /\n');
    mkdirSync(join(code, 'memory'));
    symlinkSync(join(outside, 'decisions'), join(code, 'memory', 'feedback'));
    symlinkSync(join(outside, 'questions.md'), join(code, 'open-questions.md'));
    symlinkSync(join(outside, 'rules.yaml'), join(code, 'safety', 'rules.yaml'));

    const r = await withCore(dir, (kb) => importAxmeCode(kb, { path: code }));
    assert.deepEqual(
      r.items.map((i) => `${i.kind} ${i.id ?? i.slug}`),
      ['decision D-001'],
      'only what is inside the folder',
    );
    assert.equal(r.rules, 'none');
    for (const f of ['memory/feedback/D-002-stolen.md', 'open-questions.md', 'safety/rules.yaml']) {
      const p = r.problems.find((x) => x.path === f);
      assert.ok(p, `${f} is named: ${JSON.stringify(r.problems)}`);
      assert.match(p.reason, /symbolic link out of the folder/);
    }
    const message = lastMessage(dir);
    assert.ok(!message.includes(dir) && !message.includes(outside) && !message.includes(tmpdir()), `no machine path in the commit: ${message}`);
    assert.match(message, /Imported from \.axme-code:/);
  });

  test('import auto-memory reads no topic file linked out of the memory folder, and its commit holds no path of this machine', async () => {
    const { dir, outside } = await setUp();
    const folder = join(outside, 'memory');
    mkdirSync(folder);
    writeFileSync(join(folder, 'MEMORY.md'), '# Memory\n\n- Keep pull requests under 300 lines.\n');
    writeFileSync(join(outside, 'elsewhere.md'), '# Elsewhere\n\n- The staging database password lives in the vault under team/db\n');
    symlinkSync(join(outside, 'elsewhere.md'), join(folder, 'linked.md'));
    const r = await withCore(dir, (kb) => importAutoMemory(kb, { dir: folder }, { cwd: dir }));
    assert.deepEqual(
      r.entries.map((e) => e.file),
      ['MEMORY.md'],
      'the linked topic file is not read',
    );
    const p = r.problems.find((x) => x.file === 'linked.md');
    assert.ok(p, JSON.stringify(r.problems));
    assert.match(p.reason, /symbolic link out of the folder/);
    const message = lastMessage(dir);
    assert.ok(!message.includes(outside) && !message.includes(tmpdir()), `no machine path in the commit: ${message}`);
  });

  test('import adr refuses a Latin-1 file naming it (never altered), and a 100 MB file by its size before reading it', async () => {
    const { dir } = await setUp();
    const adr = join(dir, 'docs', 'adr');
    mkdirSync(adr, { recursive: true });
    writeFileSync(join(adr, '0001-use-postgres.md'), '# 1. Use Postgres\n\n## Decision\n\nWe use Postgres.\n');
    writeFileSync(join(adr, '0002-cafe.md'), Buffer.from('# 2. Caf\xe9 naming\n\n## Decision\n\nThe d\xe9cision is written in Latin-1.\n', 'latin1'));
    writeFileSync(join(adr, '0003-huge.md'), '');
    truncateSync(join(adr, '0003-huge.md'), 100 * 1024 * 1024);
    const r = await withCore(dir, (kb) => importAdr(kb, { dir: adr }));
    assert.deepEqual(
      r.items.filter((i) => i.outcome === 'new').map((i) => i.title),
      ['Use Postgres'],
    );
    const latin = r.problems.find((p) => p.path === '0002-cafe.md');
    assert.ok(latin, JSON.stringify(r.problems));
    assert.match(latin.reason, /not UTF-8/);
    const huge = r.problems.find((p) => p.path === '0003-huge.md');
    assert.ok(huge, JSON.stringify(r.problems));
    assert.match(huge.reason, /100\.0 MB, over the 1\.0 MB an import reads/);
    assert.ok(!lastMessage(dir).includes(dir), 'no machine path in the commit');
  });
});

describe('security: the exporter never replaces a link', () => {
  test('export adr refuses a folder where a file it writes is a symbolic link, naming it; the link and its target are untouched', async () => {
    const { dir, outside } = await setUp();
    await coreAt(dir).addDecision({ title: 'Use Postgres', decision: 'We use Postgres.' });
    const out = join(dir, 'docs', 'decisions');
    mkdirSync(out, { recursive: true });
    const target = join(outside, 'my-notes.md');
    writeFileSync(target, 'my own notes\n');
    symlinkSync(target, join(out, 'README.md'));
    await rejectsWith(
      withCore(dir, (kb) => exportAdr(kb, { dir: out })),
      'WRONG_STATE',
      /README\.md \(a symbolic link\).*never replaces a link/,
    );
    assert.ok(lstatSync(join(out, 'README.md')).isSymbolicLink(), 'still a link');
    assert.equal(readlinkSync(join(out, 'README.md')), target);
    assert.equal(readFileSync(target, 'utf8'), 'my own notes\n');
    assert.throws(() => lstatSync(join(out, '0001-use-postgres.md')), 'nothing was written');
  });
});

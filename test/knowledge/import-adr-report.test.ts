/**
 * What `axme import adr` says is true: an empty folder is said to hold no ADRs (and what was
 * looked for), and an ADR imported as revoked because its supersession link was left out is
 * reported as imported, with the real reason, not as "Left out".
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { importAdr } from '../../src/operations/import/adr.ts';
import { coreAt, runOp, runOpText } from '../core.ts';
import { git, tempRepo } from '../helpers.ts';

async function repoWithAdrs(files: Record<string, string>) {
  const repo = tempRepo({ commit: true });
  const adr = join(repo.dir, 'docs', 'adr');
  mkdirSync(adr, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(adr, name), text);
  await coreAt(repo.dir).init();
  return { ...repo, adr };
}

describe('axme import adr: the report', () => {
  test('an empty folder: it holds no ADRs, and the output says what was looked for', async () => {
    const repo = await repoWithAdrs({ 'README.md': '# Decisions\n' });
    try {
      const text = await runOpText(repo.dir, importAdr, { dir: repo.adr });
      assert.doesNotMatch(text, /already in the store/);
      assert.match(text, /^No ADRs in .*docs\/adr: looked for Markdown files \(\*\.md\) directly in it, other than README\.md, index\.md/);
      assert.match(text, /Skipped \(not ADRs\): README\.md/);
      // a dry run says what the real run says
      const dry = await runOpText(repo.dir, importAdr, { dir: repo.adr, dry_run: true });
      assert.doesNotMatch(dry, /0 new decisions/);
      assert.match(dry, /^No ADRs in .*docs\/adr: looked for Markdown files \(\*\.md\) directly in it/);
      assert.match(dry, /\(dry run: nothing written\)/);
    } finally {
      repo.cleanup();
    }
  });

  test('--dry-run of a folder whose ADRs are all in the store: what the real run says, nothing written', async () => {
    const repo = await repoWithAdrs({ '0001-use-postgres.md': '# Use Postgres\n\nWe use Postgres.\n', '0002-broken.md': 'no title here\n' });
    try {
      await runOp(repo.dir, importAdr, { dir: repo.adr });
      const real = await runOpText(repo.dir, importAdr, { dir: repo.adr });
      const dry = await runOpText(repo.dir, importAdr, { dir: repo.adr, dry_run: true });
      assert.match(real, /^Nothing new to import from .*every ADR read is already in the store/);
      assert.equal(dry.replace(' (dry run: nothing written)', ''), real);
      // and a folder none of whose files reads as an ADR
      const empty = await repoWithAdrs({ 'notes.md': 'no title\n' });
      try {
        const realNone = await runOpText(empty.dir, importAdr, { dir: empty.adr, dry_run: false });
        const dryNone = await runOpText(empty.dir, importAdr, { dir: empty.adr, dry_run: true });
        assert.match(realNone, /^No ADRs imported from .*none of its ADR files could be read/);
        assert.equal(dryNone.replace(' (dry run: nothing written)', ''), realNone);
      } finally {
        empty.cleanup();
      }
    } finally {
      repo.cleanup();
    }
  });

  test('a supersede cycle 0007 <-> 0008: 0008 is imported (revoked) and said to be, with the cycle as the reason; only the link is left out', async () => {
    const adr = (n: number, other: number) =>
      `# ${n}. Decision ${n}\n\n## Status\n\nSuperseded by [${other}. Decision ${other}](000${other}-decision-${other}.md)\n\n## Decision\n\nWe do ${n}.\n`;
    const repo = await repoWithAdrs({ '0007-decision-7.md': adr(7, 8), '0008-decision-8.md': adr(8, 7) });
    try {
      const r = await runOp(repo.dir, importAdr, { dir: repo.adr });
      assert.deepEqual(
        r.items.map((i: any) => `${i.path} ${i.id} ${i.status} ${i.outcome}`),
        ['0007-decision-7.md D-007 superseded new', '0008-decision-8.md D-008 revoked new'],
      );
      const eight = r.items[1];
      assert.match(eight.note, /superseded in the ADR by 0007-decision-7\.md, but that link is left out \(it would make a cycle\): imported as revoked/);
      assert.ok(
        r.problems.every((p: any) => !/not among those imported|imported as revoked/.test(p.reason)),
        JSON.stringify(r.problems),
      );
      assert.ok(r.problems.some((p: any) => /cycle/.test(p.reason)));
      const d8 = await coreAt(repo.dir).show('decision', 'D-008');
      assert.doesNotMatch(d8.revoked_reason, /not imported/);
      assert.match(d8.revoked_reason, /cycle/);
      const text = await runOpText(repo.dir, importAdr, { dir: repo.adr, dry_run: true });
      assert.doesNotMatch(text, /not among those imported/);
      const body = git(repo.dir, ['log', '-1', '--format=%B', 'refs/memory/main']);
      assert.match(body, /Imported with changes:\n- 0008-decision-8\.md: superseded in the ADR by 0007-decision-7\.md/);
      const fsck = await coreAt(repo.dir).fsck();
      assert.equal(fsck.ok, true, JSON.stringify(fsck.findings));
    } finally {
      repo.cleanup();
    }
  });
});

/**
 * Stale items are never served silently as current: context, the digests, the reads and the
 * session close say which ones the code moved away from, and a reconfirm clears the mark.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { beginClose } from '../../src/knowledge/close/begin-close.ts';
import { reconfirmItem } from '../../src/knowledge/items/anchored/reconfirm-item.ts';
import { addBacklogItem } from '../../src/knowledge/items/backlog/add-backlog-item.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import { addMemory } from '../../src/knowledge/items/memory/add-memory.ts';
import { assembleContext } from '../../src/knowledge/views/context.ts';
import { readDigest } from '../../src/knowledge/views/read-digest.ts';
import { backlogRead } from '../../src/operations/backlog/reads.ts';
import { decisionShow } from '../../src/operations/decision/reads.ts';
import { memoryShow } from '../../src/operations/memory/reads.ts';
import { search } from '../../src/operations/search.ts';
import { recordEvent, sessionForHarness } from '../../src/session/sessions.ts';
import { runOp, runOpText, withCore } from '../core.ts';
import { axme, axmeOk, commitFiles } from '../helpers.ts';
import { makeStore } from '../store-fixture.ts';

describe('stale items are marked wherever they are shown', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ commit: false }));
    commitFiles(dir, { 'src/pay.ts': 'export const charge = 1;\n', 'src/other.ts': 'x\n' }, 'code');
    await withCore(dir, async (kb) => {
      await addDecision(kb, { title: 'Charge in cents', decision: 'Amounts are integers', enforce: 'required', anchors: ['src/pay.ts'] });
      await addDecision(kb, { title: 'Other rule', decision: 'Something else', anchors: ['src/other.ts'] });
      await addMemory(kb, { type: 'pattern', title: 'Payment helpers', description: 'Use charge()', anchors: ['src/pay.ts'] });
    });
    commitFiles(dir, { 'src/pay.ts': 'export const charge = 2;\n' }, 'pay: change the charge');
    commitFiles(dir, { 'README.md': 'x\n' }, 'docs');
  });
  after(() => cleanup());

  test('context lists them, with the reason, and marks a required decision', async () => {
    const c = await withCore(dir, (kb) => assembleContext(kb));
    assert.equal(c.counts.stale, 2);
    assert.match(c.text, /## Possibly outdated/);
    assert.match(c.text, /- decision D-001 Charge in cents: src\/pay\.ts changed in 1 commit/);
    assert.match(c.text, /- memory payment-helpers Payment helpers: src\/pay\.ts/);
    assert.doesNotMatch(c.text, /decision D-002/);
    assert.match(c.text, /- D-001 Charge in cents \(may be outdated\): Amounts are integers/);
  });

  test('the decision and memory digests carry the mark in text and JSON', async () => {
    const d = await withCore(dir, (kb) => readDigest(kb, { kind: 'decision' }));
    assert.match(
      d.text,
      /### D-001 \[required\] Charge in cents\nAmounts are integers\nApplies to: src\/pay\.ts\nMay be outdated: src\/pay\.ts changed in 1 commit.*axme reconfirm D-001/,
    );
    const items = d.items as Array<{ id: string; stale?: string }>;
    assert.match(items.find((i) => i.id === 'D-001')!.stale!, /src\/pay\.ts/);
    assert.equal(items.find((i) => i.id === 'D-002')!.stale, undefined);
    const m = await withCore(dir, (kb) => readDigest(kb, { kind: 'memory' }));
    assert.match(m.text, /May be outdated: src\/pay\.ts/);
  });

  test('the CLI lists end a stale line with the mark; --json items carry the reason', async () => {
    const lines = (await axmeOk(dir, ['decision', 'list'])).split('\n');
    assert.match(
      lines.find((l: string) => /D-001/.test(l)),
      /Charge in cents.*  \(may be outdated: src\/pay\.ts changed in 1 commit since this was decided\)$/,
    );
    assert.doesNotMatch(
      lines.find((l: string) => /D-002/.test(l)),
      /outdated/,
    );
    const json = await axmeOk(dir, ['decision', 'list', '--json']);
    assert.match(json.find((d: { id: string }) => d.id === 'D-001').stale, /^src\/pay\.ts changed in 1 commit/);
    assert.equal(json.find((d: { id: string }) => d.id === 'D-002').stale, undefined);
    assert.match(await axmeOk(dir, ['memory', 'list']), /payment-helpers .*\(may be outdated: src\/pay\.ts/);
  });

  test('reads: axme_get_decision / decision show say so; --json has the changes and commits', async () => {
    const json = await runOp(dir, decisionShow, { id_or_slug: 'D-001' });
    assert.match(json.stale.reason, /src\/pay\.ts changed in 1 commit/);
    assert.equal(json.stale.commits[0].subject, 'pay: change the charge');
    const fresh = await runOp(dir, decisionShow, { id_or_slug: 'D-002' });
    assert.equal(fresh.stale, undefined);
    const mem = await runOp(dir, memoryShow, { slug: 'payment-helpers' });
    assert.ok(mem.stale);
    const shown = await axme(dir, ['decision', 'show', 'D-001']);
    assert.equal(shown.code, 0);
    assert.match(shown.stdout, /^---\nid: D-001/, 'stdout is the stored file, as before');
    assert.match(shown.stderr, /May be outdated: src\/pay\.ts/);
  });

  test('the session close lists the stale items whose code the session changed', async () => {
    const common = join(dir, '.git');
    const s = sessionForHarness(common, 'claude-code', 'close-stale', {
      cwd: dir,
      transcriptPath: null,
      now: new Date(),
      owner: () => ({ pid: process.pid, start: null }),
    });
    recordEvent(common, s.id, { t: new Date().toISOString(), type: 'file', path: 'src/pay.ts', tool: 'Edit' });
    const r = await withCore(dir, (kb) => beginClose(kb), { actor: 'agent', session: s.id });
    assert.deepEqual(r.stale.map((x) => x.id ?? x.slug).sort(), ['D-001', 'payment-helpers']);
    assert.match(r.text, /may have made outdated/);
    assert.match(r.text, /- decision D-001 Charge in cents/);
  });

  test('search marks them (and ranks them below fresh ones), with the reason', async () => {
    const r = await runOp(dir, search, { query: 'charge amounts integers' });
    const hit = r.hits.find((h: { id: string }) => h.id === 'D-001');
    assert.equal(hit.stale, true);
    assert.match(hit.stale_reason, /src\/pay\.ts changed in 1 commit/);
    const text = await runOpText(dir, search, { query: 'charge amounts integers' });
    assert.match(text, /D-001 Charge in cents \[decision\] \(may be outdated: src\/pay\.ts/);
    // the CLI's line per hit too: the mark before the citation
    const line = (await axmeOk(dir, ['search', 'charge', 'amounts', 'integers'])).split('\n').find((l: string) => /D-001/.test(l));
    assert.match(
      line,
      /^\d\.\d{3}  decision  D-001  Charge in cents \(may be outdated: src\/pay\.ts changed in 1 commit since this was decided\)  git:[0-9a-f]{40}:decisions\/charge-in-cents\.md$/,
    );
  });

  test('a reconfirm clears the mark', async () => {
    await withCore(dir, (kb) => reconfirmItem(kb, { id: 'D-001' }));
    const c = await withCore(dir, (kb) => assembleContext(kb));
    assert.equal(c.counts.stale, 1);
    assert.doesNotMatch(c.text, /decision D-001/);
    const json = await runOp(dir, decisionShow, { id_or_slug: 'D-001' });
    assert.equal(json.stale, undefined);
  });

  test('backlog items: axme_backlog and axme backlog list mark them too', async () => {
    await withCore(dir, (kb) => addBacklogItem(kb, { title: 'Round the charge', description: 'Rounding rules', anchors: ['src/pay.ts'] }));
    commitFiles(dir, { 'src/pay.ts': 'export const charge = 3;\n' }, 'pay: round');
    const listed = await runOp(dir, backlogRead, {});
    assert.match(listed.items.find((i: { title: string }) => i.title === 'Round the charge').stale, /^src\/pay\.ts changed in 1 commit since this was/);
    assert.match(await runOpText(dir, backlogRead, {}), /Round the charge.* \(may be outdated: src\/pay\.ts changed in 1 commit/);
    const one = await runOp(dir, backlogRead, { id: 'B-001' });
    assert.match(one.stale.reason, /src\/pay\.ts/);
    assert.match(await runOpText(dir, backlogRead, { id: 'B-001' }), /\nMay be outdated: src\/pay\.ts changed in 1 commit.*axme reconfirm B-001/);
    assert.match(await axmeOk(dir, ['backlog', 'list']), /Round the charge.*\(may be outdated: src\/pay\.ts/);
  });
});

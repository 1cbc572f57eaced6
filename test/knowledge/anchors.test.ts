/**
 * Anchors and learned_at: what an item is about in the code, and the code commit it was learned
 * at. Set by hand (`--anchor`, `anchors`), found automatically (paths named in the text, the files
 * an agent's session edited, the manifests of the oracle pages), and moved by `axme reconfirm`.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { reconfirmItem } from '../../src/knowledge/items/anchored/reconfirm-item.ts';
import { addBacklogItem } from '../../src/knowledge/items/backlog/add-backlog-item.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import { addMemory } from '../../src/knowledge/items/memory/add-memory.ts';
import { scanOracle } from '../../src/knowledge/items/oracle/scan-oracle.ts';
import { recordEvent, sessionForHarness } from '../../src/session/sessions.ts';
import { coreAt, initCore, rejectsWith, withCore } from '../core.ts';
import { axmeOk, commitFiles, git, tempRepo } from '../helpers.ts';

describe('anchors and learned_at', () => {
  test('a save records the code commit HEAD points at; --anchor is repeatable on the CLI', async () => {
    const { dir, cleanup } = tempRepo();
    try {
      await initCore(dir);
      const head = commitFiles(dir, { 'src/pay.ts': 'export function chargeCard() {}\n' });
      const d = await axmeOk(dir, [
        'decision',
        'add',
        '--title',
        'Charge in cents',
        '--decision',
        'Amounts are integers',
        '--anchor',
        'src/pay.ts#chargeCard',
        '--anchor',
        'dep:stripe',
        '--json',
      ]);
      assert.deepEqual(d.anchors, ['src/pay.ts#chargeCard', 'dep:stripe']);
      assert.equal(d.learned_at, head);
      const file = git(dir, ['show', `refs/memory/main:${d.path}`]);
      assert.match(file, new RegExp(`^learned_at: ${head}$`, 'm'));
      const m = await axmeOk(dir, [
        'memory',
        'add',
        '--type',
        'pattern',
        '--title',
        'Money helpers',
        '--description',
        'Use the helpers',
        '--anchor',
        'src/money/',
        '--json',
      ]);
      assert.deepEqual(m.anchors, ['src/money/']);
      assert.equal(m.learned_at, head);
    } finally {
      cleanup();
    }
  });

  test('an anchor that leaves the repository or names nothing is refused with what to write', async () => {
    const { dir, cleanup } = tempRepo();
    try {
      await initCore(dir);
      await withCore(dir, async (kb) => {
        await rejectsWith(addDecision(kb, { title: 'Out', decision: 'x', anchors: ['../etc/passwd'] }), 'INVALID_INPUT', /inside the repository/);
        await rejectsWith(addDecision(kb, { title: 'Dep', decision: 'x', anchors: ['dep:'] }), 'INVALID_INPUT', /dep:<name>/);
      });
    } finally {
      cleanup();
    }
  });

  test('without anchors, the paths the text names that exist in the tree become its anchors', async () => {
    const { dir, cleanup } = tempRepo();
    try {
      await initCore(dir);
      commitFiles(dir, { 'src/pay.ts': 'x\n', 'docs/adr/0001.md': '# x\n', 'package.json': '{}\n' });
      await withCore(dir, async (kb) => {
        const d = await addDecision(kb, {
          title: 'Payments',
          decision: 'All charges go through `src/pay.ts`; see docs/adr/ and package.json. Not src/gone.ts, not https://example.com/a/b.',
        });
        assert.deepEqual(d.item.anchors, ['docs/adr/', 'package.json', 'src/pay.ts']);
        const given = await addDecision(kb, { title: 'Given', decision: 'About src/pay.ts', anchors: ['src/other/'] });
        assert.deepEqual(given.item.anchors, ['src/other/'], 'anchors given by hand are kept as they are, nothing added');
        const b = await addBacklogItem(kb, { title: 'Refactor', description: 'split src/pay.ts' });
        assert.deepEqual(b.item.anchors, ['src/pay.ts']);
        const none = await addMemory(kb, { type: 'feedback', title: 'Be brief', description: 'Short answers.' });
        assert.deepEqual(none.item.anchors, []);
      });
    } finally {
      cleanup();
    }
  });

  test("an agent's save anchors to the files its session edited (all when few, else those it names)", async () => {
    const { dir, cleanup } = tempRepo();
    try {
      await initCore(dir);
      commitFiles(dir, Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`src/m${i}.ts`, `${i}\n`])));
      const common = join(dir, '.git');
      const owner = () => ({ pid: process.pid, start: null });
      const few = sessionForHarness(common, 'claude-code', 'few', { cwd: dir, transcriptPath: null, now: new Date(), owner });
      for (const p of ['src/m0.ts', 'src/m1.ts']) recordEvent(common, few.id, { t: new Date().toISOString(), type: 'file', path: p, tool: 'Edit' });
      const many = sessionForHarness(common, 'claude-code', 'many', { cwd: dir, transcriptPath: null, now: new Date(), owner });
      for (let i = 0; i < 8; i++) recordEvent(common, many.id, { t: new Date().toISOString(), type: 'file', path: `src/m${i}.ts`, tool: 'Edit' });
      const a = await withCore(dir, (kb) => addDecision(kb, { title: 'Few', decision: 'Modules stay small.' }), { actor: 'agent', session: few.id });
      assert.deepEqual(a.item.anchors, ['src/m0.ts', 'src/m1.ts']);
      const b = await withCore(dir, (kb) => addDecision(kb, { title: 'Many', decision: 'm3.ts owns the parser.' }), { actor: 'agent', session: many.id });
      assert.deepEqual(b.item.anchors, ['src/m3.ts'], 'of eight edited files, the one the text names');
      const c = await withCore(dir, (kb) => addDecision(kb, { title: 'Human', decision: 'Modules stay tiny.' }), { actor: 'human', session: few.id });
      assert.deepEqual(c.item.anchors, [], "a person's save is not anchored to a session's edits");
    } finally {
      cleanup();
    }
  });

  test('reconfirm moves learned_at to HEAD in one commit; again changes nothing; anchors can be replaced', async () => {
    const { dir, cleanup } = tempRepo();
    try {
      const core = coreAt(dir);
      await core.init();
      const first = commitFiles(dir, { 'src/pay.ts': 'a\n' });
      const d = await core.addDecision({ title: 'Pay', decision: 'x', anchors: ['src/pay.ts'] });
      assert.equal(d.item.learned_at, first);
      git(dir, ['mv', 'src/pay.ts', 'src/payments.ts']);
      git(dir, ['commit', '-q', '-m', 'rename']);
      const second = git(dir, ['rev-parse', 'HEAD']).trim();
      const before = git(dir, ['rev-parse', 'refs/memory/main']).trim();
      const r = await withCore(dir, (kb) => reconfirmItem(kb, { id: d.item.id, anchors: ['src/payments.ts'] }));
      assert.equal(r.changed, true);
      assert.equal(r.kind, 'decision');
      assert.equal(r.previous, first);
      assert.equal(r.item.learned_at, second);
      assert.deepEqual(r.item.anchors, ['src/payments.ts']);
      assert.equal(git(dir, ['rev-parse', 'refs/memory/main^']).trim(), before, 'one commit');
      assert.match(git(dir, ['log', '-1', '--format=%s', 'refs/memory/main']), /^decision: reconfirm D-001 Pay/);
      const again = await withCore(dir, (kb) => reconfirmItem(kb, { id: 'pay' }));
      assert.equal(again.changed, false);
      assert.equal(again.commit, null);
      const m = await core.addMemory({ type: 'pattern', title: 'Retry payments', description: 'x', anchors: ['src/payments.ts'] });
      commitFiles(dir, { 'src/payments.ts': 'b\n' });
      const rm = await withCore(dir, (kb) => reconfirmItem(kb, { id: m.item.slug }));
      assert.equal(rm.kind, 'memory');
      await withCore(dir, async (kb) => {
        await rejectsWith(reconfirmItem(kb, { id: 'no-such-item' }), 'NOT_FOUND', /axme verify/);
        await rejectsWith(reconfirmItem(kb, { id: '../x' }), 'INVALID_INPUT');
      });
    } finally {
      cleanup();
    }
  });

  test('reconfirm without any code commit says to commit first', async () => {
    const { dir, cleanup } = tempRepo({ commit: false });
    try {
      await initCore(dir);
      const d = await withCore(dir, (kb) => addDecision(kb, { title: 'Early', decision: 'x' }));
      assert.equal(d.item.learned_at, undefined, 'no code commit yet: no learned_at');
      await withCore(dir, (kb) => rejectsWith(reconfirmItem(kb, { id: 'D-001' }), 'WRONG_STATE', /commit the code first/));
    } finally {
      cleanup();
    }
  });

  test('oracle pages are anchored to the manifests they were derived from; a manifest change the pages do not show still confirms them', async () => {
    const { dir, cleanup } = tempRepo();
    try {
      await initCore(dir);
      const first = commitFiles(dir, { 'package.json': JSON.stringify({ name: 'app', dependencies: { react: '^18.0.0' } }) + '\n', 'src/index.ts': 'x\n' });
      const scan = await withCore(dir, (kb) => scanOracle(kb));
      assert.ok(scan.commit);
      const stack = await coreAt(dir).show('oracle', 'stack');
      assert.deepEqual(stack.anchors, ['package.json']);
      assert.equal(stack.learned_at, first);
      const unchanged = await withCore(dir, (kb) => scanOracle(kb));
      assert.equal(unchanged.commit, null, 'nothing moved: no commit');
      const second = commitFiles(dir, { 'package.json': JSON.stringify({ name: 'app', description: 'd', dependencies: { react: '^18.0.0' } }) + '\n' });
      const again = await withCore(dir, (kb) => scanOracle(kb));
      assert.ok(again.commit, 'the manifest changed since the pages were learned: they are confirmed at HEAD');
      assert.equal((await coreAt(dir).show('oracle', 'stack')).learned_at, second);
    } finally {
      cleanup();
    }
  });
});

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openKnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { planMerge } from '../../src/knowledge/sync/merge/merge-stores.ts';
import { BacklogItem, backlogSpec } from '../../src/model/backlog.ts';
import { Decision, decisionSpec } from '../../src/model/decision.ts';
import { encodeItem } from '../../src/model/kind.ts';
import { Memory, memorySpec } from '../../src/model/memory.ts';
import { history } from '../../src/operations/history.ts';
import { emptySnapshot, readSnapshot, writeChanges } from '../../src/store/tree.ts';
import { historyView } from '../../src/ui/views/item.ts';
import { coreAt, runOp, runOpText, withCore } from '../core.ts';
import { cleanEnv, git } from '../helpers.ts';

/**
 * What a merge settled without asking stays in view: every field both clones changed is listed in
 * the sync report of the clone that merged and of the clone that took the merge, and `axme history`
 * shows both sides' versions and the merge that combined them. Two real clones and a bare remote.
 */

const roots: string[] = [];
after(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

function team(n: number): string[] {
  const root = mkdtempSync(join(tmpdir(), 'axme-settled-'));
  roots.push(root);
  const remote = join(root, 'remote.git');
  git(root, ['init', '-q', '--bare', remote]);
  return Array.from({ length: n }, (_, i) => {
    const dir = join(root, `clone-${i}`);
    git(root, ['clone', '-q', remote, dir]);
    git(dir, ['config', 'user.name', `Dev ${i}`]);
    git(dir, ['config', 'user.email', `dev${i}@example.com`]);
    return dir;
  });
}

describe('a concurrent backlog edit on two clones', () => {
  test('both values are in both sync reports (text and JSON) and in axme history, marked as merged', async () => {
    const [a, b] = team(2);
    const [A, B] = [coreAt(a!), coreAt(b!)];
    await A.init();
    await A.addBacklog({ title: 'Add request logging' });
    await A.sync();
    await B.sync();
    const ours = await A.updateBacklog({ id: 'B-001', priority: 'high', status: 'in-progress' });
    const theirs = await B.updateBacklog({ id: 'B-001', priority: 'low', status: 'blocked' });
    await A.sync();
    const merged = await B.sync();
    const took = await A.sync();
    assert.equal(merged.integrated, 'merged');
    assert.equal(took.integrated, 'fast-forward');
    assert.equal(git(a!, ['rev-parse', 'refs/memory/main']), git(b!, ['rev-parse', 'refs/memory/main']));

    const item = await A.show('backlog', 'B-001');
    assert.equal(item.priority, 'high', 'the more urgent priority');
    assert.equal(item.status, 'blocked', 'the later state of work');

    // the clone that merged and the clone that took the merge both see each field and both values
    for (const r of [merged, took]) {
      const json = JSON.parse(JSON.stringify(r));
      const fields = json.settled
        .filter((s: { id: string }) => s.id === 'B-001')
        .map((s: { field: string; value: unknown; sides: Array<{ value: unknown; commit: string }> }) => ({
          field: s.field,
          value: s.value,
          sides: s.sides.map((x) => x.value).sort(),
          commits: s.sides.map((x) => x.commit).sort(),
        }))
        .sort((p: { field: string }, q: { field: string }) => (p.field < q.field ? -1 : 1));
      const commits = [ours.commit!, theirs.commit!].sort();
      assert.deepEqual(
        fields,
        [
          { field: 'priority', value: 'high', sides: ['high', 'low'], commits },
          { field: 'status', value: 'blocked', sides: ['blocked', 'in-progress'], commits },
        ],
        r.integrated,
      );
      assert.ok(
        json.settled.every((s: { merge: string }) => s.merge === merged.merges[0]!.commit),
        'each names the merge commit',
      );
      assert.match(r.text, /B-001 .*priority: kept high .*over low/);
      assert.match(r.text, /B-001 .*status: kept blocked .*over in-progress/);
    }

    // history: both sides' versions, and the merge marked with what it settled
    const h = await runOp(a!, history, { id_or_slug: 'B-001' });
    const commits = h.versions.map((v: { commit: string }) => v.commit);
    assert.ok(commits.includes(ours.commit), 'our edit is in the history');
    assert.ok(commits.includes(theirs.commit), 'their edit is in the history');
    const m = h.versions.find((v: { change: string }) => v.change === 'merged');
    assert.ok(m, JSON.stringify(h.versions.map((v: { change: string; subject: string }) => `${v.change} ${v.subject}`)));
    assert.equal(m.commit, merged.merges[0]!.commit);
    assert.deepEqual(m.merge.settled.map((s: { field: string; value: unknown }) => `${s.field}=${s.value}`).sort(), ['priority=high', 'status=blocked']);
    assert.deepEqual(
      m.merge.settled
        .find((s: { field: string }) => s.field === 'priority')
        .sides.map((x: { value: string }) => x.value)
        .sort(),
      ['high', 'low'],
    );
    const text = await runOpText(a!, history, { id_or_slug: 'B-001' });
    assert.match(text, /merged/);
    assert.match(text, /priority: kept high .*over low/);
    // the page's history of the item: both edits, and the merge with both values
    const page = await withCore(a!, async (kb) =>
      String(
        (
          (await historyView({ kb, at: undefined, cwd: a!, env: cleanEnv(), actions: null }, new URL('http://127.0.0.1/history/backlog/B-001'), [
            'backlog',
            'B-001',
          ])) as { body: unknown }
        ).body,
      ),
    );
    assert.ok(page.includes(ours.commit!.slice(0, 12)) && page.includes(theirs.commit!.slice(0, 12)), 'both edits on the page');
    assert.match(page, /<li>B-001 &quot;Add request logging&quot; priority: kept high \(the more urgent; [0-9a-f]{8}\) over low/);
  });
});

describe('which clashes a merge settles and which it asks about (table-driven)', () => {
  test('priority: the more urgent; enforce: required; status: the lattice; two revocation reasons: both; a title: asked; disjoint fields: nothing to settle; symmetric', async () => {
    const [a] = team(1);
    const kb = await openKnowledgeBase({ cwd: a!, env: cleanEnv(), actor: 'human', backend: 'cli' });
    try {
      const t = '2026-11-01T00:00:00.000Z';
      const d = (o: Record<string, unknown>) =>
        encodeItem(decisionSpec, Decision.parse({ slug: 'use-grpc', id: 'D-001', title: 'Use gRPC', decision: 'grpc', created: t, updated: t, ...o }));
      const bl = (o: Record<string, unknown>) =>
        encodeItem(backlogSpec, BacklogItem.parse({ slug: 'add-logging', id: 'B-001', title: 'Add logging', created: t, updated: t, ...o }));
      const m = (o: Record<string, unknown>) =>
        encodeItem(memorySpec, Memory.parse({ slug: 'tabs', title: 'Tabs', type: 'feedback', body: 'tabs', created: t, updated: t, ...o }));
      const commitOf = async (files: Record<string, string>) => {
        const tree = await writeChanges(kb.repo.backend, emptySnapshot(), new Map(Object.entries(files).map(([p, x]) => [p, Buffer.from(x)])));
        return git(a!, ['commit-tree', tree, '-m', 'seed']).trim();
      };
      const cases: Array<[string, string, string, string, string, Record<string, [unknown, string]>]> = [
        [
          'priority and status',
          'backlog/add-logging.md',
          bl({}),
          bl({ priority: 'low', status: 'in-progress', updated: '2026-11-03T00:00:00.000Z' }),
          bl({ priority: 'high', status: 'blocked', updated: '2026-11-02T00:00:00.000Z' }),
          { priority: ['high', 'more-urgent'], status: ['blocked', 'status-order'] },
        ],
        [
          'two revocations',
          'decisions/use-grpc.md',
          d({}),
          d({ status: 'revoked', revoked_at: '2026-11-02T00:00:00.000Z', revoked_reason: 'too slow' }),
          d({ status: 'revoked', revoked_at: '2026-11-03T00:00:00.000Z', revoked_reason: 'no one uses it' }),
          { revoked_at: ['2026-11-02T00:00:00.000Z', 'earlier'], revoked_reason: ['no one uses it\ntoo slow', 'combined'] },
        ],
        [
          'a title',
          'decisions/use-grpc.md',
          d({}),
          d({ title: 'Use gRPC everywhere', updated: '2026-11-02T00:00:00.000Z' }),
          d({ title: 'Use gRPC inside', updated: '2026-11-03T00:00:00.000Z' }),
          { title: ['Use gRPC inside', 'asked'] },
        ],
        [
          'disjoint fields combine without a clash',
          'memories/tabs.md',
          m({}),
          m({ type: 'pattern', updated: '2026-11-02T00:00:00.000Z' }),
          m({ title: 'Tabs, always', updated: '2026-11-03T00:00:00.000Z', type: 'feedback', body: 'tabs, always' }),
          {},
        ],
      ];
      for (const [name, path, base, x, y, want] of cases) {
        const [cb, cx, cy] = [await commitOf({ [path]: base }), await commitOf({ [path]: x }), await commitOf({ [path]: y })];
        const [sb, sx, sy] = await Promise.all([cb, cx, cy].map((c) => readSnapshot(kb.repo.backend, c)));
        for (const [o, th] of [
          [
            { ...sx!, commit: cx },
            { ...sy!, commit: cy },
          ],
          [
            { ...sy!, commit: cy },
            { ...sx!, commit: cx },
          ],
        ]) {
          const plan = await planMerge({ kb, base: sb!, ours: o!, theirs: th! });
          const got = Object.fromEntries(plan.settled.map((f) => [f.field, [f.value, f.rule]]));
          assert.deepEqual(got, want, name);
          assert.deepEqual(
            plan.conflicts.map((c) => c.fields.join(',')),
            Object.entries(want)
              .filter(([, [, r]]) => r === 'asked')
              .map(([f]) => f),
            `${name}: conflicts`,
          );
          if (name === 'a title') {
            const q = plan.changes.get(plan.questions[0]!)!.toString('utf8');
            assert.match(q, /title: "Use gRPC inside" \(kept\) or "Use gRPC everywhere"/, 'the question names both titles');
          }
        }
      }
    } finally {
      await kb.repo.close();
    }
  });
});

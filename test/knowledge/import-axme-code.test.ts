import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { importAxmeCode } from '../../src/operations/import/axme-code.ts';
import { coreAt, exitCodeOf, fsckCore, initCore, rejectsWith, runOp, withCore } from '../core.ts';
import { axme, git, tempRepo } from '../helpers.ts';

/** An `.axme-code/` tree as AXME Code writes it: every file type, plus one malformed and one unknown file. */
const FIXTURE: Record<string, string> = {
  'decisions/D-001-use-valkey-for-caching.md': `---
id: D-001
slug: use-valkey-for-caching
title: Use Valkey for caching
date: 2026-01-05
source: session
enforce: required
sessionId: 1a2b3c4d-0000
status: superseded
supersededBy: D-002
---

# Use Valkey for caching

Cache sessions in Valkey.

## Reasoning

Redis changed its licence.
`,
  'decisions/D-002-use-redis-8-for-caching.md': `---
id: D-002
slug: use-redis-8-for-caching
title: Use Redis 8 for caching
date: 2026-02-01
source: manual
enforce: advisory
sessionId: 5e6f7a8b-0000
scope: api, web
supersedes: D-001
---

# Use Redis 8 for caching

Back to Redis 8.

## Reasoning

Open source again.
`,
  'decisions/D-003-deploy-on-fridays.md': `---
id: D-003
slug: deploy-on-fridays
title: Deploy on Fridays
date: 2026-01-10
source: init-scan
enforce:
sessionId: 9c0d1e2f-0000
status: revoked
revokedAt: 2026-01-20
revokedReason: Weekend incidents.
---

# Deploy on Fridays

We deploy on Fridays.

## Reasoning

Fewer meetings.
`,
  'decisions/D-004-broken.md': `---
id: D-004
title: Broken
status: maybe
---

# Broken

x
`,
  'memory/feedback/run-tests-before-pushing.md': `---
slug: run-tests-before-pushing
type: feedback
title: Run tests before pushing
source: session
date: 2026-01-07
keywords: tests, ci
sessionId: 1a2b3c4d-0000
---

# Run tests before pushing

Always run npm test before git push.

## Details

CI takes 20 minutes.
`,
  'memory/patterns/errors-carry-a-code.md': `---
slug: errors-carry-a-code
type: pattern
title: Errors carry a code
source: init-scan
date: 2026-01-08
keywords: errors
sessionId: 1a2b3c4d-0000
scope: api
---

# Errors carry a code

Every error has a code callers branch on.

## Details

See src/errors.ts.
`,
  'backlog/B-001-add-rate-limiting.md': `---
id: B-001
slug: add-rate-limiting
title: Add rate limiting
status: in-progress
priority: high
tags: api, security
created: 2026-01-09
updated: 2026-01-12
---

Per-token limits on /api.

## Notes

- 2026-01-12: Started with a token bucket.
`,
  'open-questions.md': `## Q-001 [open] 2026-01-11 09:00:00 source=agent
**Question**: Should the API be versioned in the URL?
**Context**: Mobile clients update slowly.
**Answer**: _(empty)_

## Q-002 [answered] 2026-01-12 10:00:00 source=auditor
**Question**: Which Node version do we support?
**Answer**: Node 20 and later.
**AnsweredAt**: 2026-01-13 11:00:00

## Q-003 [applied] 2026-01-12 12:00:00 source=agent
**Question**: Keep the legacy endpoint?
**Answer**: No.
**AnsweredAt**: 2026-01-13 12:00:00
**Applied**: D-003 revoked
**AppliedAt**: 2026-01-14 12:00:00

## Q-004 [archived] 2026-01-12 13:00:00 source=agent
**Question**: Use GraphQL?
**Answer**: _(empty)_
`,
  'plans/handoff-1a2b3c4d.md': `# Session Handoff

Date: 2026-01-15T18:00:00Z | Session: 1a2b3c4d | Source: agent

Stopped at: rate limiter half done

## Summary
Added the token bucket.

## In Progress
The config knob.

## PRs
- [open] Rate limiting - https://github.com/acme/api/pull/12

## Test Results
All green.

## Blockers
None

## Next Steps
Wire the knob into config.

## Dirty Branches
- feat/rate-limit
`,
  'oracle/stack.md': '# Stack\n\nTypeScript, Node 20.\n',
  'oracle/structure.md': '# Structure\n\nsrc/ holds the code.\n',
  'oracle/patterns.md': '# Patterns\n\nErrors carry codes.\n',
  'oracle/glossary.md': '# Glossary\n\n- KB: knowledge base\n',
  'worklog.jsonl':
    [
      JSON.stringify({ timestamp: '2026-01-15T17:00:00Z', type: 'session_start', sessionId: '1a2b3c4d-0000', data: {} }),
      JSON.stringify({ timestamp: '2026-01-15T18:00:00Z', type: 'decision_saved', sessionId: '1a2b3c4d-0000', data: { id: 'D-002' } }),
      'not json',
    ].join('\n') + '\n',
  'safety/rules.yaml': 'git:\n  protectedBranches:\n    - main\n    - release\nbash:\n  deniedPrefixes:\n    - rm -rf /\n    - npm publish\n',
  'config.yaml': 'model: whatever\n',
};

function writeTree(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

describe('axme import axme-code: an AXME Code .axme-code/ tree in one commit', () => {
  let repo: { dir: string; cleanup: () => void };
  let src: string;
  let first: any;
  const tip = () => git(repo.dir, ['rev-parse', 'refs/memory/main']).trim();

  before(async () => {
    repo = tempRepo({ commit: true });
    src = join(repo.dir, '.axme-code');
    writeTree(src, FIXTURE);
    await coreAt(repo.dir).init();
  });
  after(() => repo.cleanup());

  test('--dry-run shows what would come in and writes nothing', async () => {
    const before = tip();
    const r = await runOp(repo.dir, importAxmeCode, { path: src, dry_run: true });
    assert.equal(r.commit, null);
    assert.equal(r.dry_run, true);
    assert.equal(tip(), before);
    assert.ok(r.items.some((i: any) => i.id === 'D-001' && i.outcome === 'new'));
  });

  test('imports every file type in ONE commit, IDs kept, problems reported', async () => {
    const before = tip();
    first = await runOp(repo.dir, importAxmeCode, { path: src });
    assert.ok(first.commit);
    assert.equal(git(repo.dir, ['rev-list', '--count', `${before}..refs/memory/main`]).trim(), '1');
    const byKind = (k: string) =>
      first.items
        .filter((i: any) => i.kind === k && i.outcome === 'new')
        .map((i: any) => i.id ?? i.slug)
        .sort();
    assert.deepEqual(byKind('decision'), ['D-001', 'D-002', 'D-003']);
    assert.deepEqual(byKind('memory'), ['errors-carry-a-code', 'run-tests-before-pushing']);
    assert.deepEqual(byKind('backlog'), ['B-001']);
    assert.deepEqual(byKind('question'), ['Q-001', 'Q-002', 'Q-003', 'Q-004']);
    assert.deepEqual(byKind('handoff'), ['1a2b3c4d']);
    assert.deepEqual(byKind('oracle'), ['glossary', 'patterns', 'stack', 'structure']);
    assert.equal(first.rules, 'new');
    assert.equal(first.worklog, 2);
    const problems = first.problems.map((p: any) => p.path);
    assert.ok(problems.includes('decisions/D-004-broken.md'), problems.join(', '));
    assert.ok(problems.includes('worklog.jsonl:3'));
    assert.ok(problems.includes('config.yaml'));
    const message = git(repo.dir, ['log', '-1', '--format=%B', 'refs/memory/main']);
    assert.match(message, /AXME Code worklog:/);
    assert.match(message, /decision_saved/);
  });

  test('supersession links, statuses and fields are intact; fsck is clean', async () => {
    const c = coreAt(repo.dir);
    const d1 = await c.show('decision', 'D-001');
    const d2 = await c.show('decision', 'D-002');
    const d3 = await c.show('decision', 'D-003');
    assert.equal(d1.status, 'superseded');
    assert.equal(d1.superseded_by, 'use-redis-8-for-caching');
    assert.equal(d1.enforce, 'required');
    assert.equal(d1.reasoning, 'Redis changed its licence.');
    assert.deepEqual(d2.supersedes, ['use-valkey-for-caching']);
    assert.deepEqual(d2.scope, ['api', 'web']);
    assert.equal(d3.status, 'revoked');
    assert.equal(d3.revoked_reason, 'Weekend incidents.');
    const m = await c.show('memory', 'run-tests-before-pushing');
    assert.equal(m.description, 'Always run npm test before git push.');
    assert.equal(m.body, 'CI takes 20 minutes.');
    assert.deepEqual(m.keywords, ['tests', 'ci']);
    assert.equal((await c.show('memory', 'errors-carry-a-code')).type, 'pattern');
    const b = await c.show('backlog', 'B-001');
    assert.equal(b.status, 'in-progress');
    assert.match(b.notes, /token bucket/);
    const qs = await c.list('question', { all: true });
    assert.deepEqual(qs.map((q: any) => `${q.id}:${q.status}`).sort(), ['Q-001:open', 'Q-002:answered', 'Q-003:applied', 'Q-004:archived']);
    const rules = await c.rules();
    assert.deepEqual(rules.git.protectedBranches, ['main', 'release']);
    const handoff = git(repo.dir, ['show', 'refs/memory/main:handoffs/1a2b3c4d.md']);
    assert.match(handoff, /stopped_at: rate limiter half done/);
    assert.match(handoff, /feat\/rate-limit/);
    assert.match(handoff, /pull\/12/);
    assert.match(git(repo.dir, ['show', 'refs/memory/main:oracle/stack.md']), /TypeScript, Node 20/);
    const fsck = await c.fsck();
    assert.equal(fsck.ok, true, JSON.stringify(fsck.findings));
  });

  test('a second import commits nothing (idempotent)', async () => {
    const before = tip();
    const r = await runOp(repo.dir, importAxmeCode, { path: src });
    assert.equal(r.commit, null);
    assert.equal(tip(), before);
    assert.ok(r.items.every((i: any) => i.outcome === 'exists'));
    assert.equal(r.rules, 'exists');
  });

  test('an ID the store holds for another item is refused, nothing written', async () => {
    const other = tempRepo({ commit: true });
    try {
      const c = coreAt(other.dir);
      await c.init();
      await c.addDecision({ title: 'Something else entirely', decision: 'x' });
      const before = git(other.dir, ['rev-parse', 'refs/memory/main']).trim();
      const err = await withCore(other.dir, (kb) => rejectsWith(importAxmeCode.run(kb, { path: src }), 'WRONG_STATE', /D-001/));
      assert.match(err.message, /nothing was imported/);
      assert.equal(git(other.dir, ['rev-parse', 'refs/memory/main']).trim(), before);
    } finally {
      other.cleanup();
    }
  });

  test('a path that is not an .axme-code folder is INVALID_INPUT (exit 2)', async () => {
    const err = await withCore(repo.dir, (kb) =>
      rejectsWith(importAxmeCode.run(kb, { path: join(repo.dir, 'nope') }), 'INVALID_INPUT', /expected an AXME Code folder/),
    );
    assert.equal(exitCodeOf(err), 2);
  });

  test('the built binary: text, --dry-run, exit codes', async () => {
    const fresh = tempRepo({ commit: true });
    try {
      writeTree(join(fresh.dir, '.axme-code'), FIXTURE);
      // the store made in-process (init is not what this test is about); the import and its outputs from the binary
      await initCore(fresh.dir);
      const tip0 = git(fresh.dir, ['rev-parse', 'refs/memory/main']).trim();
      const dry = await axme(fresh.dir, ['import', 'axme-code', '--dry-run']);
      assert.equal(dry.code, 0, dry.stderr);
      assert.match(dry.stdout, /^Dry run: .* \(nothing written\)/);
      assert.match(dry.stdout, /D-001 use-valkey-for-caching/);
      assert.equal(git(fresh.dir, ['rev-parse', 'refs/memory/main']).trim(), tip0);
      const r = await axme(fresh.dir, ['import', 'axme-code']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^Imported \d+ new from .* in one commit [0-9a-f]{12}/);
      assert.match(r.stdout, /Left out \(\d+\):/);
      assert.match(r.stdout, /decisions\/D-004-broken\.md/);
      assert.equal(git(fresh.dir, ['rev-list', '--count', `${tip0}..refs/memory/main`]).trim(), '1');
      const again = await axme(fresh.dir, ['import', 'axme-code', '.axme-code']);
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stdout, /^Nothing new to import/);
      const fsck = await fsckCore(fresh.dir);
      assert.equal(fsck.ok, true, JSON.stringify(fsck.findings));
      const bad = await axme(fresh.dir, ['import', 'axme-code', 'no-such-folder']);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /expected an AXME Code folder/);
    } finally {
      fresh.cleanup();
    }
  });
});

describe('axme import axme-code: plans, memories already kept under another name, workspaces', () => {
  const decision = (id: string, slug: string, title: string) =>
    `---\nid: ${id}\nslug: ${slug}\ntitle: ${title}\ndate: 2026-01-05\nsource: session\nenforce: advisory\n---\n\n# ${title}\n\n${title}.\n\n## Reasoning\n\nBecause.\n`;

  test("plans/ (not handoffs) become plans: status mapped, AXME's id kept", async () => {
    const repo = tempRepo({ commit: true });
    try {
      const src = join(repo.dir, '.axme-code');
      writeTree(src, {
        'plans/0a1b2c3d-migrate-to-esm.md':
          '---\nid: 0a1b2c3d\ntitle: Migrate to ESM\nstatus: completed\ncreated: 2026-01-02\nupdated: 2026-01-09\n---\n\n# Migrate to ESM\n\n1. Flip "type".\n2. Fix imports.\n',
        'plans/split-the-monolith.md': '---\ntitle: Split the monolith\nstatus: draft\n---\n\n# Split the monolith\n\nOne service per bounded context.\n',
      });
      await coreAt(repo.dir).init();
      const r = await runOp(repo.dir, importAxmeCode, { path: src });
      assert.deepEqual(r.items.map((i: any) => `${i.kind}:${i.slug}:${i.outcome}`).sort(), ['plan:migrate-to-esm:new', 'plan:split-the-monolith:new']);
      const esm = git(repo.dir, ['show', 'refs/memory/main:plans/migrate-to-esm.md']);
      assert.match(esm, /status: done/);
      assert.match(esm, /axme_code_id: 0a1b2c3d/);
      assert.match(esm, /Fix imports\./);
      assert.match(git(repo.dir, ['show', 'refs/memory/main:plans/split-the-monolith.md']), /status: draft/);
    } finally {
      repo.cleanup();
    }
  });

  test('a memory the store keeps under another name (same type, same title) is not imported again; another type is', async () => {
    const repo = tempRepo({ commit: true });
    try {
      const c = coreAt(repo.dir);
      await c.init();
      await c.addMemory({ type: 'feedback', title: 'Run tests before pushing', description: 'Already known.' });
      const src = join(repo.dir, '.axme-code');
      const memory = (type: string, slug: string) =>
        `---\nslug: ${slug}\ntype: ${type}\ntitle: Run tests before pushing\nsource: session\ndate: 2026-01-07\n---\n\n# Run tests before pushing\n\nAlways run npm test before git push.\n`;
      writeTree(src, {
        'memory/feedback/tests-before-push.md': memory('feedback', 'tests-before-push'),
        'memory/patterns/tests-before-push-pattern.md': memory('pattern', 'tests-before-push-pattern'),
      });
      const r = await runOp(repo.dir, importAxmeCode, { path: src });
      assert.deepEqual(r.items.map((i: any) => `${i.slug}:${i.outcome}`).sort(), ['tests-before-push-pattern:new', 'tests-before-push:exists']);
      const files = git(repo.dir, ['ls-tree', '-r', '--name-only', 'refs/memory/main', 'memories/']).trim().split('\n').sort();
      assert.deepEqual(files, ['memories/run-tests-before-pushing.md', 'memories/tests-before-push-pattern.md']);
    } finally {
      repo.cleanup();
    }
  });

  test("in a workspace: the workspace folder's .axme-code goes to the workspace store, a member's to that member; a member's tree imported from another member is refused", async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const root = mkdtempSync(join(tmpdir(), 'axme-ws-import-'));
    try {
      for (const n of ['api', 'web']) {
        const d = join(root, n);
        mkdirSync(d, { recursive: true });
        git(d, ['init', '-q', '-b', 'main']);
        git(d, ['config', 'user.name', 'Test User']);
        git(d, ['config', 'user.email', 'test@example.com']);
        git(d, ['commit', '-q', '--allow-empty', '-m', 'first']);
      }
      assert.equal((await axme(root, ['init', '--workspace', '--no-claude', '--no-git-hooks', '--no-scan'])).code, 0);
      writeTree(join(root, '.axme-code'), { 'decisions/D-001-use-pnpm.md': decision('D-001', 'use-pnpm', 'Use pnpm') });
      writeTree(join(root, 'api', '.axme-code'), { 'decisions/D-001-use-fastify.md': decision('D-001', 'use-fastify', 'Use Fastify') });
      const store = join(root, '.axme.git');

      // the workspace's tree, imported from a member's folder: still the workspace store
      const ws = await axme(join(root, 'web'), ['import', 'axme-code', '../.axme-code', '--json']);
      assert.equal(ws.code, 0, ws.stderr);
      assert.equal(JSON.parse(ws.stdout).store, `workspace ${root}`);
      assert.match(git(store, ['show', 'refs/memory/main:decisions/use-pnpm.md']), /title: Use pnpm/);
      assert.throws(() => git(join(root, 'web'), ['show', 'refs/memory/main:decisions/use-pnpm.md']), 'not in the member');

      // api's tree from web: refused, nothing written
      const tipOf = (d: string) => git(d, ['rev-parse', 'refs/memory/main']).trim();
      const before = [store, join(root, 'api'), join(root, 'web')].map(tipOf);
      const wrong = await axme(join(root, 'web'), ['import', 'axme-code', '../api/.axme-code']);
      assert.equal(wrong.code, 2, wrong.stderr);
      assert.match(wrong.stderr, /belongs to api, not to the store this command writes .*axme -C .*api import axme-code/);
      assert.deepEqual([store, join(root, 'api'), join(root, 'web')].map(tipOf), before);

      // from api itself: api's store
      const own = await axme(join(root, 'api'), ['import', 'axme-code', '--json']);
      assert.equal(own.code, 0, own.stderr);
      assert.equal(JSON.parse(own.stdout).store, 'repository');
      assert.match(git(join(root, 'api'), ['show', 'refs/memory/main:decisions/use-fastify.md']), /title: Use Fastify/);
    } finally {
      rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    }
  });
});

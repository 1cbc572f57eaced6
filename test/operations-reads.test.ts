import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import { closeKnowledgeBase, type KnowledgeBase } from '../src/knowledge/core/kb.ts';
import { isAxmeError } from '../src/model/errors.ts';
import { backlogList, backlogShow } from '../src/operations/backlog/list.ts';
import { backlogAdd } from '../src/operations/backlog/writes.ts';
import { blame, showCommit } from '../src/operations/code.ts';
import { context } from '../src/operations/context.ts';
import { decisionAdd, decisionSupersede } from '../src/operations/decision/add.ts';
import { decisionList } from '../src/operations/decision/list.ts';
import { decisionShow } from '../src/operations/decision/reads.ts';
import { decisionRevoke } from '../src/operations/decision/revoke.ts';
import { fsck } from '../src/operations/fsck.ts';
import { history, log } from '../src/operations/history.ts';
import { OPERATIONS } from '../src/operations/index.ts';
import { memoryAdd } from '../src/operations/memory/add.ts';
import { memoryList } from '../src/operations/memory/list.ts';
import { memoryShow } from '../src/operations/memory/reads.ts';
import type { AnyOperation } from '../src/operations/operation.ts';
import { oracleScan } from '../src/operations/oracle/scan.ts';
import { oracleShow } from '../src/operations/oracle/show.ts';
import { questionList, questionShow } from '../src/operations/question/list.ts';
import { questionAnswer, questionAsk } from '../src/operations/question/writes.ts';
import { check, diff, propose } from '../src/operations/review.ts';
import { safetyShow } from '../src/operations/safety/reads.ts';
import { search } from '../src/operations/search.ts';
import { sessionBeginClose, sessionList, sessionRecover, sessionShow } from '../src/operations/session/session.ts';
import { status } from '../src/operations/status.ts';
import { workspace } from '../src/operations/workspace.ts';
import { axmeIn, axmeInOk } from './cli-in-process.ts';
import { coreAt, initCore } from './core.ts';
import { axme, cleanEnv, git, importCommit, openTestKb, tempRepo } from './helpers.ts';
import { cliText, makeStore } from './store-fixture.ts';

/**
 * The reads are declared once too (src/operations/): each `run` is called here against a real
 * repository, and the CLI commands built from the declarations print what they printed when they
 * were written by hand (the terminal's layout, --json arrays, stderr notes, exit codes).
 */

const HASH = /^[0-9a-f]{40}$/;

/** The JSON of a result must match the declared output schema (the MCP tool's structured content). */
function matchesOutput(op: AnyOperation, result: unknown): Record<string, unknown> {
  const json = op.json(result);
  const parsed = op.output.safeParse(json);
  assert.equal(parsed.success, true, `${op.id}: ${parsed.success ? '' : parsed.error.message}`);
  return json;
}

describe('read declarations', () => {
  test('what the CLI side declares names input fields; its flags are described', () => {
    for (const op of OPERATIONS) {
      if (!op.cli) continue;
      const fields = Object.keys(op.input);
      for (const key of ['names', 'alias', 'help'] as const)
        for (const f of Object.keys(op.cli[key] ?? {})) assert.ok(fields.includes(f), `${op.id}: cli.${key} names ${f}, an input field`);
      for (const f of op.cli.omit ?? []) assert.ok(fields.includes(f), `${op.id}: cli.omit names ${f}`);
      for (const f of op.mcp?.omit ?? []) assert.ok(fields.includes(f), `${op.id}: mcp.omit names ${f}`);
      if (op.cli.variadic) assert.ok(op.cli.positional?.length, `${op.id}: variadic needs a positional`);
      const flags =
        (z.toJSONSchema(z.object(op.cli.flags ?? {}), { io: 'input' }) as { properties?: Record<string, { description?: string }> }).properties ?? {};
      for (const [name, f] of Object.entries(flags)) assert.ok(f.description && f.description.length > 3, `${op.id}: flag ${name} has a description`);
    }
  });

  test('every read of the CLI is a declaration, and the MCP tools still hand-written are gone', () => {
    const commands = new Set(OPERATIONS.filter((o) => o.cli).map((o) => o.cli!.command.join(' ')));
    for (const c of [
      'decision list',
      'decision show',
      'memory list',
      'memory show',
      'backlog list',
      'backlog show',
      'question list',
      'question show',
      'status',
      'search',
      'log',
      'history',
      'fsck',
      'diff',
      'check',
      'propose',
      'safety show',
      'oracle show',
      'oracle scan',
      'context',
      'workspace',
      'session begin-close',
      'session finalize',
      'session list',
      'session show',
      'session recover',
      'show-commit',
      'blame',
    ]) {
      assert.ok(commands.has(c), `axme ${c} is declared`);
    }
    const tools = new Set(OPERATIONS.filter((o) => o.mcp).map((o) => o.mcp!.tool));
    assert.ok(tools.has('axme_context') && tools.has('axme_workspace'));
    assert.equal(context.mcp?.projectAlias, 'workspace_path');
    assert.equal(workspace.folder, true);
  });
});

describe('reads: each run called directly', () => {
  let dir: string;
  let cleanup: () => void;
  let kb: KnowledgeBase;
  before(async () => {
    ({ dir, cleanup } = await makeStore());
    kb = await openTestKb(dir);
    await decisionAdd.run(kb, { title: 'Use Valkey for caching', decision: 'Cache in Valkey.', enforce: 'required', tags: 'cache' }, { allowSecret: false });
    // only a person supersedes a required decision
    const person = await openTestKb(dir, { actor: 'human' });
    await decisionAdd.run(person, { title: 'Use Redis 8 for caching', decision: 'Redis 8.', supersedes: 'D-001' }, { allowSecret: false });
    await closeKnowledgeBase(person);
    await decisionAdd.run(kb, { title: 'Old idea', decision: 'x' }, { allowSecret: false });
    await decisionRevoke.run(kb, { id: 'D-003', reason: 'no longer' }, { allowSecret: false });
    await memoryAdd.run(kb, { type: 'pattern', title: 'Errors carry a code', description: 'Every error has a code.' }, { allowSecret: false });
    await memoryAdd.run(kb, { type: 'feedback', title: 'Run tests before pushing', description: 'Always run npm test.' }, { allowSecret: false });
    await backlogAdd.run(kb, { title: 'Add rate limiting', priority: 'high', tags: 'api' }, { allowSecret: false });
    await questionAsk.run(kb, { question: 'Version the API in the URL?' }, { allowSecret: false });
    await questionAnswer.run(kb, { question_id: 'Q-001', answer: 'In the URL' }, { allowSecret: false });
    writeFileSync(join(dir, 'a.ts'), 'export const a = 1;\nexport const b = 2;\n');
    git(dir, ['add', 'a.ts']);
    git(dir, ['commit', '-q', '-m', 'code\n\nAxme-Decision: D-002']);
  });
  after(async () => {
    await closeKnowledgeBase(kb);
    cleanup();
  });

  test('decision.list, memory.list, backlog.list, question.list: live items by default, lines as the CLI prints them', async () => {
    const live = await decisionList.run(kb, {});
    assert.deepEqual(
      live.items.map((d: { id: string }) => d.id),
      ['D-002'],
    );
    assert.equal(decisionList.text(live), 'D-002  required  Use Redis 8 for caching  (use-redis-8-for-caching)');
    const all = await decisionList.run(kb, { all: true });
    assert.equal(
      decisionList.text(all).split('\n')[0],
      'D-001  required  Use Valkey for caching [superseded by use-redis-8-for-caching]  (use-valkey-for-caching)',
    );
    assert.deepEqual(
      (await decisionList.run(kb, { status: ['revoked'] })).items.map((d: { id: string }) => d.id),
      ['D-003'],
    );
    assert.equal(matchesOutput(decisionList, all).commit, git(dir, ['rev-parse', 'refs/memory/main']).trim());
    assert.equal(memoryList.text(await memoryList.run(kb, { type: 'pattern' })), 'errors-carry-a-code  pattern   Errors carry a code');
    assert.equal(backlogList.text(await backlogList.run(kb, {})), 'B-001  open         high    Add rate limiting  #api');
    assert.equal(questionList.text(await questionList.run(kb, {})), '', 'answered questions are not live');
    assert.equal(questionList.text(await questionList.run(kb, { all: true })), 'Q-001  [answered]  Version the API in the URL?  -> In the URL');
    await assert.rejects(decisionList.run(kb, { at: 'no-such-rev' }), (e) => isAxmeError(e, 'BAD_REVISION'));
  });

  test('decision.get, memory.get, backlog.show, question.show: the item with its location; the stored file on the CLI', async () => {
    const d = await decisionShow.run(kb, { id_or_slug: 'D-001' });
    const json = matchesOutput(decisionShow, d);
    assert.equal(json.id, 'D-001');
    assert.equal(json.location, 'refs/memory/main:decisions/use-valkey-for-caching.md');
    assert.match(d.text, /^---\nid: D-001\n/);
    assert.equal(matchesOutput(memoryShow, await memoryShow.run(kb, { slug: 'errors-carry-a-code' })).type, 'pattern');
    const b = await backlogShow.run(kb, { id: 'B-001' });
    assert.equal(matchesOutput(backlogShow, b).priority, 'high');
    assert.match(backlogShow.text(b), /^---\nid: B-001\n/);
    assert.match(questionShow.text(await questionShow.run(kb, { id: 'Q-001' })), /answer|In the URL/);
    await assert.rejects(decisionShow.run(kb, { id_or_slug: 'D-009' }), (e) => isAxmeError(e, 'NOT_FOUND'));
    await assert.rejects(backlogShow.run(kb, { id: '../etc' }), (e) => isAxmeError(e, 'INVALID_INPUT'));
  });

  test('status, search, log, history', async () => {
    const s = await status.run(kb, {});
    assert.equal(matchesOutput(status, s).ref, 'refs/memory/main');
    assert.match(status.cli!.text!(s, {} as never), /^refs\/memory\/main @ [0-9a-f]{12} \(\S+\)\ndecision: /);
    const found = await search.run(kb, { query: 'valkey caching' });
    assert.ok(found.hits.length >= 1);
    assert.equal(matchesOutput(search, found).query, undefined, 'the query is text only');
    assert.match(search.cli!.text!(found, {} as never), /^\d\.\d{3}  decision  D-00\d  Use /m);
    const entries = await log.run(kb, {});
    assert.equal(
      entries.length,
      Number(git(dir, ['rev-list', '--count', 'refs/memory/main']).trim()),
      'no limit: every commit (the tool gives 20 unless told)',
    );
    assert.equal(log.mcp?.defaults?.limit, 20);
    assert.equal((await log.run(kb, { limit: 2 })).length, 2);
    assert.match(log.cli!.text!(entries, {} as never), /^[0-9a-f]{12}  \S+  agent    question: answer Q-001/);
    const h = await history.run(kb, { id_or_slug: 'D-001' });
    assert.equal(h.versions.length, 2);
    assert.equal(h.versions[0]!.patch, undefined, 'no patch unless asked (the tool asks: mcp.defaults)');
    assert.deepEqual(history.mcp?.defaults, { patch: true });
    const p = await history.run(kb, { id_or_slug: 'D-001', patch: true, kind: 'decision' });
    assert.match(p.versions[0]!.patch!, /^-status: active$/m);
    assert.ok(matchesOutput(history, p).versions);
    assert.match(history.cli!.text!(h, {} as never), /^[0-9a-f]{12}  \S+  human    changed  decision: supersede D-001/);
  });

  test('fsck, check, diff, propose', async () => {
    const f = await fsck.run(kb, {});
    assert.equal(f.ok, true);
    assert.ok(f.objects > 0);
    assert.equal(matchesOutput(fsck, f).ok, true);
    assert.match(fsck.text(f), /^ok: \d+ objects checked at [0-9a-f]{12} \(3 decision, 2 memory, 1 backlog, 1 question\)$/);
    const c = await check.run(kb, {});
    assert.equal(matchesOutput(check, c).ok, true);
    const d = await diff.run(kb, { from: '~2' });
    assert.ok(matchesOutput(diff, d).items);
    assert.match(diff.text(d), /Knowledge changes/);
    assert.match(diff.cli!.text!(d, { args: { format: 'markdown' } } as never), /^## Knowledge changes/);
    assert.doesNotMatch(diff.cli!.text!(d, { args: { color: false }, tty: true, env: {} } as never), /\x1b\[/, '--no-color');
    assert.match(diff.cli!.text!(d, { args: { color: true }, tty: false, env: {} } as never), /\x1b\[/, '--color');
    await assert.rejects(propose.run(kb, {}), (e) => isAxmeError(e) && /no git remote/.test(e.message));
  });

  test('safety.show, oracle.read, oracle.scan, context', async () => {
    const rules = await safetyShow.run(kb, {});
    assert.deepEqual(Object.keys(matchesOutput(safetyShow, rules)), ['rules', 'diagnostics'], "the workspace note is the CLI's");
    const oracle = await oracleShow.run(kb, { budget: 2000 });
    assert.equal(matchesOutput(oracleShow, oracle).page, 1);
    assert.deepEqual(oracleShow.mcp?.omit, ['budget']);
    const tip = git(dir, ['rev-parse', 'refs/memory/main']).trim();
    const scan = await oracleScan.run(kb, { dry_run: true });
    assert.equal(scan.dryRun, true);
    assert.equal(git(dir, ['rev-parse', 'refs/memory/main']).trim(), tip, 'a dry run commits nothing');
    const ctx = await context.run(kb, {});
    const json = matchesOutput(context, ctx);
    assert.deepEqual(Object.keys(json), ['page', 'pages', 'commit', 'counts']);
    assert.match(context.text(ctx), /Add rate limiting/);
    await assert.rejects(context.run(kb, { page: 9 }), (e) => isAxmeError(e, 'INVALID_INPUT') && /page 9 does not exist/.test(e.message));
  });

  test('workspace.status works on a folder, with no knowledge base', async () => {
    const w = await workspace.run({ cwd: dir, env: cleanEnv() }, {});
    const json = matchesOutput(workspace, w);
    assert.equal(json.root, null);
    assert.match(workspace.text(w), /^Not in a workspace: one repository\./);
    const elsewhere = mkdtempSync(join(tmpdir(), 'axme-none-'));
    await assert.rejects(workspace.run({ cwd: elsewhere, env: cleanEnv() }, {}), (e) => isAxmeError(e, 'NOT_A_REPO'));
    const byPath = await workspace.run({ cwd: elsewhere, env: cleanEnv() }, { path: dir });
    assert.deepEqual(workspace.json(byPath), json, "the tool's `path` is resolved from the folder");
  });

  test('sessions: list, show, recover, begin-close', async () => {
    const none = await sessionList.run(kb, {});
    assert.deepEqual(none.rows, []);
    assert.equal(matchesOutput(sessionList, none).sessions instanceof Array, true);
    await assert.rejects(sessionShow.run(kb, { id: 'nope' }), (e) => isAxmeError(e, 'NOT_FOUND') && /axme session list/.test(e.message));
    await assert.rejects(sessionRecover.run(kb, {}), (e) => isAxmeError(e, 'INVALID_INPUT') && /--all/.test(e.message));
    await assert.rejects(sessionRecover.run(kb, { id: 'x', all: true }), (e) => isAxmeError(e, 'INVALID_INPUT'));
    const swept = await sessionRecover.run(kb, { all: true });
    assert.ok('all' in swept && swept.all.errors.length === 0);
    const begin = await sessionBeginClose.run(kb, {});
    assert.equal(matchesOutput(sessionBeginClose, begin).counts instanceof Object, true);
  });

  test("code.show-commit and code.blame run git in the caller's folder", async () => {
    const links = await showCommit.run(kb, { rev: 'HEAD' }, { cwd: dir, env: cleanEnv() });
    assert.match(links.commit, HASH);
    assert.deepEqual(
      links.decisions.map((d) => d.id),
      ['D-002'],
    );
    assert.match(showCommit.text(links), /^[0-9a-f]{12}  code  \(Test User <test@example\.com>, \d{4}-\d\d-\d\d\)\n  decision D-002 Use Redis 8 for caching$/);
    matchesOutput(showCommit, links);
    const blamed = await blame.run(kb, { target: 'a.ts:2' }, { cwd: dir, env: cleanEnv() });
    assert.deepEqual(
      blamed.map((c) => c.lines),
      [[2]],
    );
    assert.match(blame.text(blamed), /\n {2}lines 2\n$/);
    matchesOutput(blame, blamed);
    await assert.rejects(blame.run(kb, { target: 'a.ts:0' }, { cwd: dir, env: cleanEnv() }), (e) => isAxmeError(e, 'INVALID_INPUT'));
    await assert.rejects(showCommit.run(kb, { rev: 'nope' }, { cwd: dir, env: cleanEnv() }), (e) => isAxmeError(e, 'BAD_REVISION'));
  });
});

describe('reads on the CLI print what they printed by hand', () => {
  let dir: string;
  let cleanup: () => void;
  const env = { AXME_NOW: '2026-03-02T10:00:00Z' };
  before(async () => {
    ({ dir, cleanup } = await makeStore({ env }));
    await cliText(dir, decisionAdd, { title: 'Use Valkey for caching', decision: 'Cache in Valkey.', enforce: 'required' }, { env });
    await cliText(dir, decisionSupersede, { id: 'D-001', title: 'Use Redis 8 for caching', decision: 'Redis 8.' }, { env });
    await cliText(dir, memoryAdd, { type: 'feedback', title: 'Small PRs', description: 'Keep pull requests small.' }, { env });
  });
  after(() => cleanup());

  test('list: one line per item; --json a JSON array; a broken file on stderr, exit 0', async () => {
    assert.equal(await axmeInOk(dir, ['decision', 'list']), 'D-002  required  Use Redis 8 for caching  (use-redis-8-for-caching)\n');
    assert.equal(
      await axmeInOk(dir, ['decision', 'list', '--all']),
      'D-001  required  Use Valkey for caching [superseded by use-redis-8-for-caching]  (use-valkey-for-caching)\nD-002  required  Use Redis 8 for caching  (use-redis-8-for-caching)\n',
    );
    const json = await axmeInOk(dir, ['decision', 'list', '--json']);
    assert.ok(Array.isArray(json));
    assert.deepEqual(
      json.map((d: { id: string }) => d.id),
      ['D-002'],
    );
    assert.equal(await axmeInOk(dir, ['memory', 'list', '--type', 'pattern']), '');
    // through the binary: the real process's exit code for a usage error (the other commands here in-process)
    const bad = await axme(dir, ['decision', 'list', '--status', 'nope']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Invalid values/);
  });

  test('show: the stored file; --json the item with path and location', async () => {
    const text = await axmeInOk(dir, ['decision', 'show', 'D-002']);
    assert.match(text, /^---\nid: D-002\ntitle: Use Redis 8 for caching\n/);
    const json = await axmeInOk(dir, ['decision', 'show', 'use-redis-8-for-caching', '--json']);
    assert.equal(json.location, 'refs/memory/main:decisions/use-redis-8-for-caching.md');
    const missing = await axmeIn(dir, ['decision', 'show']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^axme: give <id>: axme decision show <id> /);
  });

  test('status, log, history keep the terminal layout; --json of log is an array', async () => {
    const tip = git(dir, ['rev-parse', 'refs/memory/main']).trim();
    assert.equal(
      await axmeInOk(dir, ['status']),
      `refs/memory/main @ ${tip.slice(0, 12)} (2026-03-02T10:00:00.000Z)\ndecision: 1 superseded, 1 active\nmemory: 1 active\n`,
    );
    const lines = (await axmeInOk(dir, ['log'])).split('\n');
    assert.equal(lines[0], `${tip.slice(0, 12)}  2026-03-02T10:00:00+00:00  human    memory: add Small PRs (feedback)`);
    assert.equal(lines.length, Number(git(dir, ['rev-list', '--count', 'refs/memory/main']).trim()) + 1, 'every commit, then the final newline');
    const two = await axmeInOk(dir, ['log', '-n', '2', '--json']);
    assert.ok(Array.isArray(two) && two.length === 2);
    const h = await axmeInOk(dir, ['history', 'D-001']);
    assert.match(h, /^[0-9a-f]{12}  2026-03-02T10:00:00\+00:00  human    changed  decision: supersede D-001 /);
    assert.doesNotMatch(h, /^@@/m, 'no patch without -p');
    assert.match(await axmeInOk(dir, ['history', 'D-001', '-p']), /^-status: active$/m);
    const hj = await axmeInOk(dir, ['history', 'D-001', '--json']);
    assert.equal(typeof hj.versions[0].text, 'string', 'the CLI keeps the file text of each version');
  });

  test('search: score, ID, title, citation; no words is a usage error', async () => {
    assert.match(
      await axmeInOk(dir, ['search', 'redis', 'caching']),
      /^\d\.\d{3}  decision  D-002  Use Redis 8 for caching  git:[0-9a-f]{40}:decisions\/use-redis-8-for-caching\.md\n/,
    );
    const r = await axmeIn(dir, ['search']);
    assert.equal(r.code, 2);
  });

  test('fsck and check: findings on stdout, the summary on stderr, exit 1 when not ok', async () => {
    const ok = await axmeIn(dir, ['fsck']);
    assert.equal(ok.code, 0);
    assert.equal(ok.stdout, '');
    assert.match(ok.stderr, /^ok: \d+ objects checked at [0-9a-f]{12} \(2 decision, 1 memory\)\n$/);
    const { dir: broken, cleanup: done } = tempRepo({ commit: true });
    try {
      await initCore(broken);
      const index = join(mkdtempSync(join(tmpdir(), 'axme-idx-')), 'index');
      const withIndex = (args: string[], input?: string) =>
        execFileSync('git', args, { cwd: broken, env: cleanEnv({ GIT_INDEX_FILE: index }), input, encoding: 'utf8' });
      withIndex(['read-tree', 'refs/memory/main']);
      const blob = withIndex(['hash-object', '-w', '--stdin'], '---\nid: D-009\ntitle: Broken\nstatus: nope\n---\nx\n').trim();
      withIndex(['update-index', '--add', '--cacheinfo', `100644,${blob},decisions/broken.md`]);
      const commit = withIndex(['commit-tree', withIndex(['write-tree']).trim(), '-p', 'refs/memory/main', '-m', 'hand edit']).trim();
      git(broken, ['update-ref', 'refs/memory/main', commit]);
      // through the binary: the real process exits 1 when the store is not ok
      const f = await axme(broken, ['fsck']);
      assert.equal(f.code, 1);
      assert.match(f.stdout, /^error: decisions\/broken\.md: status: /);
      assert.match(f.stderr, /^FAILED: \d+ objects checked at /);
      const fj = await axmeIn(broken, ['fsck', '--json']);
      assert.equal(fj.code, 1);
      assert.equal(JSON.parse(fj.stdout).ok, false);
      const c = await axmeIn(broken, ['check']);
      assert.equal(c.code, 1);
      assert.match(c.stderr, /^FAILED: 1 finding at /);
      const l = await axmeIn(broken, ['decision', 'list', '--json']);
      assert.equal(l.code, 0);
      assert.deepEqual(JSON.parse(l.stdout), []);
      assert.deepEqual(JSON.parse(l.stderr.trim()).diagnostic.path, 'decisions/broken.md');
    } finally {
      done();
    }
  });

  test('session list, workspace, safety show', async () => {
    const s = await axmeIn(dir, ['session', 'list']);
    assert.equal(s.code, 0);
    assert.equal(s.stdout, '');
    assert.equal(s.stderr, 'axme: no sessions recorded yet (Claude Code hooks record them: axme init)\n');
    const recover = await axmeIn(dir, ['session', 'recover']);
    assert.equal(recover.code, 2);
    assert.match(recover.stderr, /say which session to recover/);
    assert.match(await axmeInOk(dir, ['workspace']), /^Not in a workspace: one repository\.\n {2}\S+ +refs\/memory\/main @ [0-9a-f]{12} /);
    assert.match(await axmeInOk(dir, ['safety', 'show']), /^git:\n {2}protectedBranches:\n/);
    const rules = await axmeInOk(dir, ['safety', 'show', '--json']);
    assert.ok(rules.git && !('rules' in rules), '--json prints the rules object');
  });
});

describe('fsck: supersession links of memories', () => {
  /** A memory file as axme writes it, with the lifecycle fields given. */
  const memoryFile = (title: string, links: string) =>
    `---\ntype: pattern\ntitle: ${title}\ndescription: ${title}.\n${links}learned_at: 669a144292c7bb796af0c20169d956e38aa9fa2e\nsource: human\ncreated: 2026-01-01T00:00:00.000Z\nupdated: 2026-01-01T00:00:00.000Z\n---\n`;

  test('a link to a missing memory, a link one way only and a status that disagrees are errors; a sound pair is not reported', async () => {
    const { dir, cleanup } = tempRepo({ commit: true });
    try {
      const core = coreAt(dir);
      await core.init({ claude: false, gitHooks: false, scan: false });
      const files: Record<string, string> = {
        'memories/sound-old.md': memoryFile('Sound old', 'status: superseded\nsuperseded_by: sound-new\n'),
        'memories/sound-new.md': memoryFile('Sound new', 'status: active\nsupersedes:\n  - sound-old\n'),
        'memories/gone-successor.md': memoryFile('Gone successor', 'status: superseded\nsuperseded_by: no-such-memory\n'),
        'memories/names-a-ghost.md': memoryFile('Names a ghost', 'status: active\nsupersedes:\n  - no-such-memory\n'),
        'memories/one-way-old.md': memoryFile('One way old', 'status: superseded\nsuperseded_by: one-way-new\n'),
        'memories/one-way-new.md': memoryFile('One way new', 'status: active\n'),
        'memories/claims-old.md': memoryFile('Claims old', 'status: active\nsupersedes:\n  - unaware\n'),
        'memories/unaware.md': memoryFile('Unaware', 'status: active\n'),
        'memories/active-but-replaced.md': memoryFile('Active but replaced', 'status: active\nsuperseded_by: replacer\n'),
        'memories/replacer.md': memoryFile('Replacer', 'status: active\nsupersedes:\n  - active-but-replaced\n'),
        'memories/superseded-by-nobody.md': memoryFile('Superseded by nobody', 'status: superseded\n'),
      };
      // the files added by hand in one commit on the store (one git fast-import)
      importCommit(dir, Object.entries(files), { from: git(dir, ['rev-parse', 'refs/memory/main']).trim() });

      const result = await core.fsck();
      const found = result.findings.map((f) => `${f.severity}: ${f.path}: ${f.reason}`);
      assert.equal(result.ok, false);
      for (const [path, reason] of [
        ['memories/gone-successor.md', /superseded_by no-such-memory, which does not exist/],
        ['memories/names-a-ghost.md', /supersedes no-such-memory, which does not exist/],
        ['memories/one-way-old.md', /superseded_by one-way-new, but that memory does not list one-way-old in supersedes/],
        ['memories/claims-old.md', /supersedes unaware, but unaware is not marked superseded_by claims-old/],
        ['memories/active-but-replaced.md', /has superseded_by but status active \(expected superseded\)/],
        ['memories/superseded-by-nobody.md', /status superseded but no superseded_by: name the memory that replaced it/],
      ] as const) {
        assert.ok(
          result.findings.some((f) => f.severity === 'error' && f.path === path && reason.test(f.reason)),
          `${path} ${reason}:\n${found.join('\n')}`,
        );
      }
      assert.deepEqual(
        found.filter((f) => /sound-(old|new)/.test(f)),
        [],
        'the sound pair is not reported',
      );
    } finally {
      cleanup();
    }
  });
});

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axmeIn, axmeInOk } from './cli-in-process.ts';
import { initCore } from './core.ts';
import { axme, axmeOk, CLI, git, tempRepo } from './helpers.ts';

/*
 * Three ways in, by what each shows: an operation run and printed in-process (cliJson, cliText,
 * cliRun) for what a command does; a whole command line in-process (axmeIn: `run` of
 * src/cli/main.ts, the binary's entry) for the parser, the exit codes and the stdout/stderr split;
 * the built binary (axme) for what only a process shows: bytes on a real stdin, -C, a pipe closed
 * early, a repository it must not hang on, diagnostics on the real stderr.
 */

/** Commits files straight onto refs/memory/main with plumbing, as a person editing by hand would. */
function handCommit(dir: string, files: Record<string, string>, message = 'hand edit'): string {
  const index = join(mkdtempSync(join(tmpdir(), 'axme-idx-')), 'index');
  const env = { GIT_INDEX_FILE: index };
  const run = (args: string[], input?: string) => git(dir, ['-c', 'core.hooksPath=/dev/null', ...args], input);
  // GIT_INDEX_FILE must reach git: pass it through a config-free env via `git -c`? No: use env.
  const withIndex = (args: string[], input?: string) => require_exec(dir, args, env, input);
  withIndex(['read-tree', 'refs/memory/main']);
  for (const [path, content] of Object.entries(files)) {
    const blob = run(['hash-object', '-w', '--stdin'], content).trim();
    withIndex(['update-index', '--add', '--cacheinfo', `100644,${blob},${path}`]);
  }
  const tree = withIndex(['write-tree']).trim();
  const parent = run(['rev-parse', 'refs/memory/main']).trim();
  const commit = run(['commit-tree', tree, '-p', parent, '-m', message]).trim();
  run(['update-ref', 'refs/memory/main', commit, parent]);
  return commit;
}

import { execFileSync } from 'node:child_process';
import { backlogAdd, backlogUpdate } from '../src/operations/backlog/writes.ts';
import { context } from '../src/operations/context.ts';
import { decisionAdd, decisionSupersede } from '../src/operations/decision/add.ts';
import { decisionList } from '../src/operations/decision/list.ts';
import { decisionShow } from '../src/operations/decision/reads.ts';
import { decisionRevoke } from '../src/operations/decision/revoke.ts';
import { fsck } from '../src/operations/fsck.ts';
import { history, log } from '../src/operations/history.ts';
import { memoryAdd } from '../src/operations/memory/add.ts';
import { memoryList } from '../src/operations/memory/list.ts';
import { memoryShow } from '../src/operations/memory/reads.ts';
import { memoryRemove } from '../src/operations/memory/remove.ts';
import { questionList, questionShow } from '../src/operations/question/list.ts';
import { questionAnswer, questionAsk, questionStatus } from '../src/operations/question/writes.ts';
import { safetyAdd, safetyRemove, safetyReset, safetySet } from '../src/operations/safety/edits.ts';
import { safetyShow } from '../src/operations/safety/reads.ts';
import { search } from '../src/operations/search.ts';
import { sessionBeginClose, sessionFinalize } from '../src/operations/session/session.ts';
import { status } from '../src/operations/status.ts';
import { exitCodeOf, rejectsWith } from './core.ts';
import { cleanEnv } from './helpers.ts';
import { cliJson, cliRun, cliText, makeStore } from './store-fixture.ts';

function require_exec(cwd: string, args: string[], env: NodeJS.ProcessEnv, input?: string): string {
  return execFileSync('git', args, { cwd, env: cleanEnv(env), input, encoding: 'utf8' });
}

describe('a fresh repository', () => {
  let dir: string;
  let cleanup: () => void;
  before(() => ({ dir, cleanup } = tempRepo({ commit: true })));
  after(() => cleanup());

  test('init, one commit per add with trailers, readable Markdown, HEAD/index/work tree untouched', async () => {
    const head = git(dir, ['rev-parse', 'HEAD']);
    const indexMtime = statSync(join(dir, '.git/index')).mtimeMs;
    // --no-claude: the store alone never touches the work tree (the Claude Code files are tested in hooks.test.ts)
    const init = await axmeInOk(dir, ['init', '--no-claude', '--json']);
    assert.equal(init.created, true);
    assert.deepEqual(init.written.sort(), ['axme.yaml', 'safety/rules.yaml']);
    assert.deepEqual(init.agentFiles, []);
    const again = (await initCore(dir)).store;
    assert.equal(again.created, false);
    assert.equal(again.commit, null, 'a second init writes nothing');

    const d = await axmeInOk(dir, [
      'decision',
      'add',
      '--title',
      'Use Valkey for caching',
      '--decision',
      'Valkey replaces Redis.',
      '--reasoning',
      'Licence change.',
      '--enforce',
      'required',
      '--json',
    ]);
    assert.equal(d.id, 'D-001');
    assert.equal(d.slug, 'use-valkey-for-caching');
    assert.equal(d.location, 'refs/memory/main:decisions/use-valkey-for-caching.md');
    const m = await cliJson(dir, memoryAdd, {
      type: 'feedback',
      title: 'Run the tests first',
      description: 'npm test before every commit',
      keywords: 'test, ci',
    });
    assert.equal(m.slug, 'run-the-tests-first');
    const b = await cliJson(dir, backlogAdd, { title: 'Add metrics', priority: 'high' });
    assert.equal(b.id, 'B-001');

    const log = git(dir, ['log', '--format=%s%n%(trailers:only)%x00', 'refs/memory/main'])
      .split('\0')
      .map((s) => s.trim())
      .filter(Boolean);
    assert.equal(log.length, 4, 'init + three adds = four commits');
    assert.match(log[0]!, /^backlog: add B-001 Add metrics\nAxme-Event: backlog.added\nAxme-Item: backlog\/add-metrics.md\nAxme-Actor: human$/);
    assert.match(log[1]!, /^memory: add Run the tests first \(feedback\)\nAxme-Event: memory.added\nAxme-Item: memories\/run-the-tests-first.md/);
    assert.match(
      log[2]!,
      /^decision: add D-001 Use Valkey for caching\nAxme-Event: decision.added\nAxme-Item: decisions\/use-valkey-for-caching.md\nAxme-Actor: human$/,
    );
    assert.match(log[3]!, /^store: init/);
    assert.equal(git(dir, ['log', '--format=%an <%ae>', '-1', 'refs/memory/main']).trim(), 'Test User <test@example.com>');

    const file = git(dir, ['show', 'refs/memory/main:decisions/use-valkey-for-caching.md']);
    assert.equal(
      file,
      [
        '---',
        'id: D-001',
        'title: Use Valkey for caching',
        'status: active',
        'enforce: required',
        `learned_at: ${git(dir, ['rev-parse', 'HEAD']).trim()}`,
        'source: human',
        `created: ${d.created}`,
        `updated: ${d.created}`,
        '---',
        '',
        'Valkey replaces Redis.',
        '',
        '## Reasoning',
        '',
        'Licence change.',
        '',
      ].join('\n'),
    );
    git(dir, ['fsck', '--strict', '--no-progress']);
    assert.equal(git(dir, ['rev-parse', 'HEAD']), head);
    assert.equal(git(dir, ['status', '--porcelain']), '');
    assert.equal(statSync(join(dir, '.git/index')).mtimeMs, indexMtime, 'the index file is not rewritten');
    assert.match(git(dir, ['reflog', 'show', 'refs/memory/main']), /axme: backlog: add B-001/);
  });

  test('duplicates return the existing item and write nothing', async () => {
    const tip = git(dir, ['rev-parse', 'refs/memory/main']);
    const dup = await cliJson(dir, decisionAdd, { title: 'valkey caching!', decision: 'again' });
    assert.equal(dup.duplicate, true);
    assert.equal(dup.id, 'D-001');
    const text = await cliText(dir, decisionAdd, { title: 'Use valkey for caching', decision: 'again' });
    assert.match(text, /^Decision already stored: D-001 - Use Valkey for caching -> refs\/memory\/main:decisions\/use-valkey-for-caching.md\n$/);
    assert.equal(git(dir, ['rev-parse', 'refs/memory/main']), tip);
  });

  test('list, show and --json', async () => {
    const list = await cliJson(dir, decisionList);
    assert.deepEqual(
      list.map((d: { id: string }) => d.id),
      ['D-001'],
    );
    assert.match(await cliText(dir, decisionList), /^D-001  required  Use Valkey for caching  \(use-valkey-for-caching\)\n$/);
    const show = await cliJson(dir, decisionShow, { id_or_slug: 'd-001' });
    assert.equal(show.slug, 'use-valkey-for-caching');
    assert.equal(show.reasoning, 'Licence change.');
    assert.match(await cliText(dir, decisionShow, { id_or_slug: 'use-valkey-for-caching' }), /^---\nid: D-001\n/);
    // the keywords given as one comma-separated flag value, as `--keywords 'test, ci'` passes them
    assert.match(await cliText(dir, memoryShow, { slug: 'run-the-tests-first' }), /keywords:\n  - test\n  - ci\n/);
  });

  test('supersede: both items in one commit, --at shows the old state', async () => {
    const before = git(dir, ['rev-parse', 'refs/memory/main']).trim();
    const r = await cliJson(dir, decisionSupersede, { id: 'D-001', title: 'Use Valkey 8 for caching', decision: 'Pin Valkey 8.' });
    assert.equal(r.id, 'D-002');
    assert.deepEqual(r.supersedes, ['use-valkey-for-caching']);
    assert.equal(r.superseded.status, 'superseded');
    assert.equal(r.superseded.superseded_by, r.slug);
    const changed = git(dir, ['diff-tree', '--no-commit-id', '--name-only', '-r', 'refs/memory/main']).trim().split('\n').sort();
    assert.deepEqual(changed, ['decisions/use-valkey-8-for-caching.md', 'decisions/use-valkey-for-caching.md']);
    assert.equal(git(dir, ['rev-parse', 'refs/memory/main~1']).trim(), before, 'exactly one commit');
    const now = await cliJson(dir, decisionList, { all: true });
    assert.deepEqual(
      now.map((d: { id: string; status: string }) => `${d.id}:${d.status}`),
      ['D-001:superseded', 'D-002:active'],
    );
    const old = await cliJson(dir, decisionList, { all: true, at: '~1' });
    assert.deepEqual(
      old.map((d: { id: string; status: string }) => `${d.id}:${d.status}`),
      ['D-001:active'],
    );
    const byCommit = await cliJson(dir, decisionShow, { id_or_slug: 'D-001', at: before });
    assert.equal(byCommit.status, 'active');
    const again = await axmeIn(dir, ['decision', 'supersede', 'D-001', '--title', 'Other', '--decision', 'x']);
    assert.equal(again.code, 1, 'WRONG_STATE: a failure, not a usage error');
    assert.match(again.stderr, /already superseded by D-002/);
    const check = await cliJson(dir, fsck);
    assert.equal(check.ok, true, JSON.stringify(check.findings));
  });

  test('history of an item lists its versions with diffs', async () => {
    const h = await cliJson(dir, history, { id_or_slug: 'D-001', patch: true });
    assert.equal(h.path, 'decisions/use-valkey-for-caching.md');
    assert.deepEqual(
      h.versions.map((v: { change: string; event: string }) => `${v.change}:${v.event}`),
      ['changed:decision.superseded', 'added:decision.added'],
    );
    assert.match(h.versions[0].patch, /-status: active\n\+status: superseded/);
    assert.match(h.versions[0].text, /superseded_by: use-valkey-8-for-caching/);
  });

  test('worklog: log with --limit and --json', async () => {
    const entries = await cliJson(dir, log);
    assert.equal(entries[0].event, 'decision.superseded');
    assert.equal(entries.at(-1).event, 'store.initialized');
    assert.deepEqual(entries[0].items.sort(), ['decisions/use-valkey-8-for-caching.md', 'decisions/use-valkey-for-caching.md']);
    const two = await cliText(dir, log, { limit: 2 });
    assert.equal(two.trim().split('\n').length, 2);
    assert.match(two, /human\s+decision: supersede D-001/);
  });

  test('backlog update, question ask/answer, memory remove, revoke', async () => {
    const u = await cliJson(dir, backlogUpdate, { id: 'B-001', status: 'in-progress', notes: 'started on the exporter' });
    assert.equal(u.status, 'in-progress');
    assert.match(u.notes, /^- \d{4}-\d{2}-\d{2}: started on the exporter$/);
    const same = await cliJson(dir, backlogUpdate, { id: 'B-001', status: 'in-progress' });
    assert.equal(same.changed, false);
    assert.equal(
      exitCodeOf(await rejectsWith(cliRun(dir, backlogUpdate, { id: 'B-001' }), 'INVALID_INPUT', /nothing to update/)),
      2,
      'nothing to update is a usage error',
    );

    assert.equal(
      (await cliText(dir, questionAsk, { question: 'Which region do we deploy to?', context: 'latency' })).trim(),
      'Question recorded: Q-001 [open]',
    );
    const a = await cliJson(dir, questionAnswer, { question_id: 'Q-001', answer: 'eu-west-1' });
    assert.equal(a.status, 'answered');
    assert.equal((await cliJson(dir, questionList)).length, 0, 'answered questions leave the default list');
    assert.equal((await cliJson(dir, questionList, { all: true }))[0].answer, 'eu-west-1');
    // the lifecycle: answered -> applied -> archived, each move a commit with its time; reopening clears the answer into the context
    const tip = () => git(dir, ['rev-parse', 'refs/memory/main']).trim();
    let t = tip();
    const applied = await cliJson(dir, questionStatus, { question_id: 'Q-001', status: 'applied' });
    assert.equal(applied.status, 'applied');
    assert.match(applied.applied_at, /^\d{4}-\d{2}-\d{2}T/);
    assert.notEqual(tip(), t);
    assert.match(git(dir, ['log', '-1', '--format=%s%n%b', 'refs/memory/main']), /question: apply Q-001[\s\S]*Axme-Event: question.applied/);
    t = tip();
    assert.equal((await cliJson(dir, questionStatus, { question_id: 'Q-001', status: 'applied' })).changed, false);
    assert.equal(tip(), t, 'no move, no commit');
    const archived = await cliJson(dir, questionStatus, { question_id: 'Q-001', status: 'archived' });
    assert.equal(archived.status, 'archived');
    assert.ok(archived.archived_at && archived.applied_at, 'every move keeps its time');
    await cliText(dir, questionAsk, { question: 'Do we need IPv6?' });
    const early = await rejectsWith(cliRun(dir, questionStatus, { question_id: 'Q-002', status: 'applied' }), 'WRONG_STATE', /no answer yet: answer it first/);
    assert.equal(exitCodeOf(early), 1, 'an unanswered question cannot be applied (a state conflict, not a usage error)');
    assert.equal(
      exitCodeOf(await rejectsWith(cliRun(dir, questionStatus, { question_id: 'Q-002', status: 'done' }), 'INVALID_INPUT')),
      2,
      'an unknown status is a usage error',
    );
    const reopened = await cliJson(dir, questionStatus, { question_id: 'Q-001', status: 'open' });
    assert.equal(reopened.status, 'open');
    assert.equal(reopened.answer, '', 'an open question has no answer');
    assert.equal(reopened.answered_at ?? reopened.applied_at ?? reopened.archived_at, undefined, 'nor the stamps of its earlier life');
    assert.match(reopened.context, /^latency\n\nEarlier answer \(\d{4}-\d{2}-\d{2}\), reopened \d{4}-\d{2}-\d{2}: eu-west-1$/);
    assert.match(
      git(dir, ['show', 'refs/memory/main~1:questions/which-region-do-we-deploy-to.md']),
      /## Answer\n\neu-west-1/,
      'the answered version stays in history',
    );
    assert.match(await cliText(dir, context), /## Open questions for the user \(ask them\)\n[\s\S]*Q-001/);
    await cliText(dir, questionStatus, { question_id: 'Q-001', status: 'archived' });
    await cliText(dir, questionStatus, { question_id: 'Q-002', status: 'archived' });

    assert.match(await cliText(dir, memoryRemove, { slug: 'run-the-tests-first' }), /Memory archived/);
    assert.equal((await cliJson(dir, memoryList)).length, 0);
    assert.equal((await cliJson(dir, memoryList, { status: ['archived'] }))[0].status, 'archived');

    const rv = await cliJson(dir, decisionRevoke, { id: 'D-002', reason: 'We dropped caching.' });
    assert.equal(rv.status, 'revoked');
    assert.equal(rv.revoked_reason, 'We dropped caching.');
  });

  test('safety rules: show, add, remove, set; comments in the file survive', async () => {
    const rules = await cliJson(dir, safetyShow);
    assert.deepEqual(rules.git.protectedBranches, ['main', 'master']);
    assert.ok(rules.bash.deniedPrefixes.includes('npm publish'));
    // the one safety edit as a command line: positional arguments
    assert.equal((await axmeInOk(dir, ['safety', 'add', 'bash_deny', 'terraform destroy'])).trim(), 'Safety rule added: bash_deny = terraform destroy');
    assert.ok((await cliJson(dir, safetyShow)).bash.deniedPrefixes.includes('terraform destroy'));
    assert.match(await cliText(dir, safetyAdd, { rule_type: 'bash_deny', value: 'terraform destroy' }), /already present/);
    await cliText(dir, safetyRemove, { rule_type: 'git_protected_branch', value: 'master' });
    assert.deepEqual((await cliJson(dir, safetyShow)).git.protectedBranches, ['main']);
    const missing = await rejectsWith(cliRun(dir, safetyRemove, { rule_type: 'fs_deny', value: '/nope' }), 'NOT_FOUND', /has no rule "\/nope"/);
    assert.equal(exitCodeOf(missing), 1);
    await cliText(dir, safetySet, { key: 'git.allowForcePush', value: 'true' });
    assert.equal((await cliJson(dir, safetyShow)).git.allowForcePush, true);
    assert.equal(exitCodeOf(await rejectsWith(cliRun(dir, safetySet, { key: 'git.requireAxmeSuffix', value: 'sometimes' }), 'INVALID_INPUT')), 2);
    const file = git(dir, ['show', 'refs/memory/main:safety/rules.yaml']);
    assert.match(file, /^# axme safety rules/, 'the header comment survives edits');
    assert.match(file, /allowForcePush: true/);
  });
});

describe('bad input never corrupts the store', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { claude: true, gitHooks: true, scan: 'if-new' }, commit: false }));
  });
  after(() => cleanup());

  test('hostile titles cannot escape their folder', async () => {
    for (const title of ['../../x', '../../../etc/passwd', '/abs/path', '..', '...', 'a/../../b']) {
      const r = await cliJson(dir, decisionAdd, { title, decision: 'd' });
      assert.match(r.path, /^decisions\/[a-z0-9-]+\.md$/, title);
    }
    const files = git(dir, ['ls-tree', '-r', '--name-only', 'refs/memory/main']).trim().split('\n');
    assert.ok(
      files.every((f) => /^(axme\.yaml|safety\/rules\.yaml|decisions\/[a-z0-9-]+\.md)$/.test(f)),
      files.join(','),
    );
    const show = await rejectsWith(cliRun(dir, decisionShow, { id_or_slug: '../../x' }), 'INVALID_INPUT', /neither an ID/);
    assert.equal(exitCodeOf(show), 2);
  });

  test('a 10 MB description is refused with a limit message, nothing written', async () => {
    const tip = git(dir, ['rev-parse', 'refs/memory/main']);
    const big = 'x'.repeat(10 * 1024 * 1024);
    const r = await axme(dir, ['memory', 'add', '--type', 'pattern', '--title', 'Big', '--stdin', 'description'], { input: big });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /limit/);
    const r2 = await rejectsWith(
      cliRun(dir, backlogAdd, { title: 'Big', description: 'y'.repeat(200 * 1024) }),
      'INVALID_INPUT',
      /description: is 200\.0 KB, over the 64\.0 KB limit/,
    );
    assert.equal(exitCodeOf(r2), 2);
    assert.equal(git(dir, ['rev-parse', 'refs/memory/main']), tip);
  });

  test('binary content (NUL bytes) is refused', async () => {
    const r = await axme(dir, ['decision', 'add', '--title', 'Bin', '--stdin', 'decision'], { input: Buffer.from([0x61, 0x00, 0x62]) });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /binary data \(a NUL byte at offset 1\)/);
  });

  test('credentials are refused unless --allow-secret', async () => {
    const token = `ghp_${'a1B2'.repeat(9)}`;
    // the refusal as a command line (its message names the flag); the override through the operation
    const r = await axmeIn(dir, ['memory', 'add', '--type', 'feedback', '--title', 'Token', '--description', `use ${token} for the API`]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /looks like it contains a GitHub token \(pattern github-token\).*--allow-secret/s);
    const ok = await cliJson(dir, memoryAdd, { type: 'feedback', title: 'Token', description: `use ${token} for the API` }, { allowSecret: true });
    assert.equal(ok.duplicate, false);
  });

  test('a hand-committed broken YAML file is reported; other items are still served', async () => {
    await cliText(dir, decisionAdd, { title: 'Keep me', decision: 'still here' });
    handCommit(dir, {
      'decisions/broken.md': '---\nid: D-900\ntitle: [unclosed\n---\nbody\n',
      'decisions/bad-status.md': '---\nid: D-901\ntitle: Bad\nstatus: maybe\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\nx\n',
      'safety/rules.yaml': 'git: [\n',
    });
    const list = await cliRun(dir, decisionList, {}, { json: true });
    assert.equal(list.code, 0);
    const items = JSON.parse(list.stdout) as Array<{ title: string }>;
    assert.ok(items.some((d) => d.title === 'Keep me'));
    assert.match(list.stderr, /"path":"decisions\/broken\.md","severity":"error","reason":"frontmatter is not valid YAML/);
    assert.match(list.stderr, /"path":"decisions\/bad-status\.md","severity":"error","reason":"status: /);
    assert.match((await cliRun(dir, decisionList, {})).stderr, /^axme: error: decisions\/broken\.md: frontmatter is not valid YAML/m);
    // the exit code of a failed check, as the command line returns it
    const check = await axmeIn(dir, ['fsck']);
    assert.equal(check.code, 1);
    assert.match(check.stdout, /decisions\/broken\.md/);
    assert.match(check.stdout, /safety\/rules\.yaml: not valid YAML.*default safety rules apply/);
    assert.match(check.stderr, /^FAILED/m);
    // Writes still work around the broken files, and never reuse their slugs.
    const again = await cliJson(dir, decisionAdd, { title: 'Broken', decision: 'new' });
    assert.equal(again.path, 'decisions/broken-2.md');
    // the broken rules file is not edited over; reset recovers and keeps the old one in history
    const add = await rejectsWith(cliRun(dir, safetyAdd, { rule_type: 'bash_deny', value: 'x' }), 'CORRUPT', /axme safety reset/);
    assert.equal(exitCodeOf(add), 1);
    await cliText(dir, safetyReset);
    const hist = await cliJson(dir, history, { id_or_slug: 'safety/rules.yaml' });
    assert.equal(hist.versions[1].text, 'git: [\n');
  });
});

describe('errors and exit codes', () => {
  test('outside a repository: exit 2 and what to do', async () => {
    const plain = mkdtempSync(join(tmpdir(), 'axme-norepo-'));
    try {
      const r = await axme(plain, ['decision', 'list']);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /not inside a git repository.*git init/);
      assert.equal(r.stdout, '');
      const j = await axmeIn(plain, ['decision', 'list', '--json']);
      assert.equal(JSON.parse(j.stderr).error.code, 'NOT_A_REPO');
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });

  test('before init: exit 2 with `axme init`; unknown item: exit 1; bad flags: exit 2', async () => {
    const { dir, cleanup } = tempRepo();
    try {
      const r = await axmeIn(dir, ['decision', 'list']);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /run `axme init` first/);
      await initCore(dir, { claude: true, gitHooks: true, scan: 'if-new' });
      const nf = await rejectsWith(cliRun(dir, decisionShow, { id_or_slug: 'D-042' }), 'NOT_FOUND', /no decision D-042.*axme decision list/);
      assert.equal(exitCodeOf(nf), 1);
      const bad = await axmeIn(dir, ['decision', 'add', '--title', 'x', '--decision', 'y', '--enforce', 'sometimes']);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /Invalid values/);
      assert.equal((await axmeIn(dir, ['frobnicate'])).code, 2);
      assert.equal(exitCodeOf(await rejectsWith(cliRun(dir, decisionList, { at: 'no-such-rev' }), 'BAD_REVISION')), 2);
      const help = await axmeIn(dir, ['--help']);
      assert.equal(help.code, 0);
      assert.match(help.stdout, /axme decision +architectural decisions/);
    } finally {
      cleanup();
    }
  });

  test('--at accepts dates; a date before the first commit is a clear error', async () => {
    const { dir, cleanup } = tempRepo();
    try {
      await initCore(dir, {}, { env: { AXME_NOW: '2026-01-10T12:00:00Z' } });
      await cliText(dir, decisionAdd, { title: 'January', decision: 'x' }, { env: { AXME_NOW: '2026-01-15T12:00:00Z' } });
      await cliText(dir, decisionAdd, { title: 'March', decision: 'y' }, { env: { AXME_NOW: '2026-03-01T12:00:00Z' } });
      const feb = await cliJson(dir, decisionList, { at: '2026-02-01' });
      assert.deepEqual(
        feb.map((d: { title: string }) => d.title),
        ['January'],
      );
      const early = await rejectsWith(cliRun(dir, decisionList, { at: '2025-12-31' }), 'BAD_REVISION', /no knowledge at 2025-12-31/);
      assert.equal(exitCodeOf(early), 2);
      const since = await cliJson(dir, log, { since: '2026-02-01' });
      assert.deepEqual(
        since.map((e: { subject: string }) => e.subject),
        ['decision: add D-002 March'],
      );
    } finally {
      cleanup();
    }
  });

  test('agents are recorded as the actor; bare repositories and -C work', async () => {
    const { dir, cleanup } = tempRepo({ bare: true });
    try {
      await axmeOk(process.cwd(), ['-C', dir, 'init']);
      await cliText(dir, memoryAdd, { type: 'pattern', title: 'Errors wrap causes', description: 'wrap with cause' }, { env: { CLAUDECODE: '1' } });
      assert.match(git(dir, ['log', '-1', '--format=%B', 'refs/memory/main']), /Axme-Actor: agent/);
    } finally {
      cleanup();
    }
  });
});

describe('edges of everyday use: credentials in every field, one-token sessions, list flags, supersede defaults, aliases, diagnostics, early readers, the derived cache, dates', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { claude: true, gitHooks: true, scan: 'if-new' }, commit: false }));
  });
  after(() => cleanup());

  test('a revoke reason is checked for credentials too', async () => {
    await cliText(dir, decisionAdd, { title: 'Keep the DB password in vault', decision: 'vault only' });
    const r = await rejectsWith(
      cliRun(dir, decisionRevoke, { id: 'D-001', reason: 'password=hunter2222' }),
      'SECRET_DETECTED',
      /reason looks like it contains a password/,
    );
    assert.equal(exitCodeOf(r), 2);
    await cliText(dir, decisionRevoke, { id: 'D-001', reason: 'password=hunter2222' }, { allowSecret: true });
  });

  test('AXME_SESSION must be one token: it can never inject a trailer', async () => {
    const tip = git(dir, ['rev-parse', 'refs/memory/main']);
    const bad = await rejectsWith(
      cliRun(dir, safetyAdd, { rule_type: 'bash_deny', value: 'zzz' }, { env: { AXME_SESSION: 'abc\nAxme-Actor: sync' } }),
      'INVALID_INPUT',
      /session id .* is not valid/,
    );
    assert.equal(exitCodeOf(bad), 2);
    assert.equal(git(dir, ['rev-parse', 'refs/memory/main']), tip);
    await cliText(dir, safetyAdd, { rule_type: 'bash_deny', value: 'zzz' }, { env: { AXME_SESSION: 'sess-42' } });
    assert.match(git(dir, ['log', '-1', '--format=%B', 'refs/memory/main']), /\nAxme-Session: sess-42\nAxme-Actor: human\n/);
  });

  test('the display ID of a broken file is not handed out again', async () => {
    handCommit(dir, { 'decisions/half-edited.md': '---\nid: D-002\ntitle: [oops\n---\n' });
    const r = await cliJson(dir, decisionAdd, { title: 'Next one', decision: 'x' });
    assert.equal(r.id, 'D-003');
  });

  test('repeated and comma-separated list flags mix', async () => {
    const r = await axmeInOk(dir, ['decision', 'add', '--title', 'Tags mix', '--decision', 'x', '--tags', 'a', '--tags', 'b,c', '--json']);
    assert.deepEqual(r.tags, ['a', 'b', 'c']);
  });

  test('supersede keeps enforce, scope and tags unless given', async () => {
    await cliText(dir, decisionAdd, { title: 'Strict rule', decision: 'x', enforce: 'required', scope: 'api,web', tags: 'core' });
    const s = await cliJson(dir, decisionSupersede, { id: 'strict-rule', title: 'Strict rule v2', decision: 'y' });
    assert.equal(s.enforce, 'required');
    assert.deepEqual(s.scope, ['api', 'web']);
    assert.deepEqual(s.tags, ['core']);
    const t = await cliJson(dir, decisionSupersede, { id: 'strict-rule-v2', title: 'Strict rule v3', decision: 'z', enforce: 'advisory' });
    assert.equal(t.enforce, 'advisory');
  });

  test("an alias equal to another item's ID is the renumbering scheme, not an error", async () => {
    handCommit(dir, {
      'decisions/renumbered.md':
        '---\nid: D-050\ntitle: Renumbered\nstatus: active\nenforce: advisory\naliases:\n  - D-003\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\n\nx\n',
      'decisions/half-edited.md': '---\nid: D-002\ntitle: Fixed now\nstatus: active\nenforce: advisory\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\n\nx\n',
    });
    const f = await cliJson(dir, fsck);
    assert.equal(f.ok, true, JSON.stringify(f.findings));
    assert.equal((await cliJson(dir, decisionShow, { id_or_slug: 'D-003' })).slug, 'next-one', 'an ID wins over an alias');
  });

  test('diagnostics are JSON lines on stderr with --json', async () => {
    handCommit(dir, { 'decisions/zz-broken.md': 'not frontmatter at all' });
    const r = await axme(dir, ['decision', 'list', '--json']);
    assert.equal(r.code, 0);
    const diag = r.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { diagnostic: { path: string } });
    assert.ok(diag.some((d) => d.diagnostic.path === 'decisions/zz-broken.md'));
    JSON.parse(r.stdout);
  });

  test('a reader that stops early (| head -1) is not an error', async () => {
    const r = spawnSync('sh', ['-c', `"${process.execPath}" "${CLI}" decision list --all | head -1`], { cwd: dir, env: cleanEnv(), encoding: 'utf8' });
    assert.equal(r.status, 0);
    assert.equal(r.stdout.trim().split('\n').length, 1);
    assert.doesNotMatch(r.stderr, /EPIPE|Error/);
  });

  test('the parse cache is derived: deleting it changes no answer', async () => {
    const before = await cliJson(dir, decisionList, { all: true });
    const beforeOld = await cliJson(dir, decisionList, { all: true, at: '~3' });
    rmSync(join(dir, '.git', 'axme', 'cache'), { recursive: true, force: true });
    assert.deepEqual(await cliJson(dir, decisionList, { all: true }), before);
    assert.deepEqual(await cliJson(dir, decisionList, { all: true, at: '~3' }), beforeOld);
    // a damaged cache file is a miss, not a wrong answer
    for (const f of readdirSync(join(dir, '.git', 'axme', 'cache')))
      writeFileSync(join(dir, '.git', 'axme', 'cache', f), '{"v":2,"data":{"entries":[{"name":"x.md"');
    assert.deepEqual(await cliJson(dir, decisionList, { all: true }), before);
  });

  test('log --since a date includes that day', async () => {
    const { dir: d2, cleanup: c2 } = tempRepo();
    try {
      await initCore(d2, {}, { env: { AXME_NOW: '2026-03-10T12:00:00Z' } });
      await cliText(d2, decisionAdd, { title: 'On the 11th', decision: 'x' }, { env: { AXME_NOW: '2026-03-11T08:00:00Z' } });
      const e = await cliJson(d2, log, { since: '2026-03-11' });
      assert.deepEqual(
        e.map((x: { subject: string }) => x.subject),
        ['decision: add D-001 On the 11th'],
      );
    } finally {
      c2();
    }
  });
});

describe('agent twins on the CLI', () => {
  test('search tells identifiers apart by a lone digit', async () => {
    const { dir, cleanup } = tempRepo();
    try {
      await initCore(dir);
      await cliText(dir, decisionAdd, { title: 'svc-5 caches in Valkey', decision: 'Valkey for svc-5.' });
      await cliText(dir, decisionAdd, { title: 'svc-6 caches in memory', decision: 'In-process LRU for svc-6.' });
      assert.equal((await cliJson(dir, search, { query: 'svc-6 cache' })).hits[0].slug, 'svc-6-caches-in-memory');
      assert.equal((await cliJson(dir, search, { query: 'svc-5 cache' })).hits[0].slug, 'svc-5-caches-in-valkey');
    } finally {
      cleanup();
    }
  });

  test('context, search, status, session begin-close and finalize', async () => {
    const { dir, cleanup } = tempRepo();
    try {
      await initCore(dir, { claude: true, gitHooks: true, scan: 'if-new' });
      await cliText(dir, decisionAdd, { title: 'Use Postgres for storage', decision: 'Postgres 16 is the system of record.', enforce: 'required' });
      await cliText(dir, memoryAdd, {
        type: 'pattern',
        title: 'Repositories wrap SQL',
        description: 'All SQL lives in repository classes.',
        keywords: 'postgres,sql',
      });
      const ctx = await cliText(dir, context);
      assert.match(ctx, /## Required decisions[^]*D-001 Use Postgres for storage: Postgres 16 is the system of record\./);
      assert.equal((await cliJson(dir, context)).counts.required_decisions, 1);
      // the query as separate words: the variadic positional of the command line
      const s = await axmeInOk(dir, ['search', 'postgres', 'sql', '--json']);
      assert.deepEqual(s.hits.map((h: { slug: string }) => h.slug).sort(), ['repositories-wrap-sql', 'use-postgres-for-storage']);
      assert.match(
        await cliText(dir, search, { query: 'postgres' }),
        /^\d+\.\d{3}  decision  D-001  Use Postgres for storage  git:[0-9a-f]{40}:decisions\/use-postgres-for-storage\.md$/m,
      );
      const st = await cliJson(dir, status);
      assert.deepEqual(st.counts.decision, { active: 1 });
      assert.match(await cliText(dir, sessionBeginClose), /Newest decisions: D-001 Use Postgres for storage/);
      const before = git(dir, ['rev-parse', 'refs/memory/main']).trim();
      const fin = await axmeInOk(dir, ['session', 'finalize', '--json'], {
        env: { AXME_SESSION: 'cli-close' },
        input: JSON.stringify({
          decisions: [{ title: 'Use Postgres 17', decision: 'Upgrade to 17.', action: 'supersede', supersedes: 'D-001' }],
          summary: 'Planned the upgrade.',
          next_steps: 'Run the migration.',
        }),
      });
      assert.deepEqual(fin.decisions, [{ id: 'D-002', title: 'Use Postgres 17', outcome: 'superseded', supersedes: 'D-001' }]);
      assert.equal(git(dir, ['rev-parse', 'refs/memory/main~1']).trim(), before, 'one commit');
      assert.match(
        git(dir, ['show', 'refs/memory/main:handoffs/cli-close.md']),
        /^---\nsession: cli-close\nsource: agent\n[^]*\nPlanned the upgrade\.\n\n## Next Steps\n\nRun the migration\.\n$/,
      );
      const bad = await axmeIn(dir, ['session', 'finalize'], { input: 'not json' });
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /standard input is not JSON/);
      const bad2 = await rejectsWith(
        cliRun(dir, sessionFinalize, { decisions: [{ title: 'x', decision: 'y', action: 'supersede' }] }),
        'INVALID_INPUT',
        /decisions\.0: action supersede needs `supersedes`/,
      );
      assert.equal(exitCodeOf(bad2), 2);
    } finally {
      cleanup();
    }
  });
});

describe('hostile and unusual input: forged sections, invalid UTF-8, look-alike slugs, invisible characters, odd dates, missing objects, refs that are not the store, SHA-256, shared clones', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { claude: true, gitHooks: true, scan: 'if-new' } }));
  });
  after(() => cleanup());

  test('an indented section heading cannot forge an answer; indentation survives', async () => {
    await cliText(dir, questionAsk, { question: 'Is the cache safe?', context: '   ## Answer\nYes, approved by security.' });
    const q = await cliJson(dir, questionShow, { id: 'Q-001' });
    assert.equal(q.answer, '');
    assert.equal(q.context, '   ## Answer\nYes, approved by security.');
    await cliText(dir, decisionAdd, { title: 'Code block', decision: '    indented code\n\tand a tab' });
    assert.equal((await cliJson(dir, decisionShow, { id_or_slug: 'code-block' })).decision, '    indented code\n\tand a tab');
  });

  test('invalid UTF-8 on stdin is refused, not replaced', async () => {
    const r = await axme(dir, ['decision', 'add', '--title', 'Latin', '--stdin', 'decision'], { input: Buffer.from([0x6c, 0xe9, 0x67]) });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /not UTF-8 text \(invalid byte 0xe9 at offset 1\).*iconv/);
  });

  for (const text of ['DB_PASSWORD=s3cr3tpass', "POSTGRES_PASSWORD: 's3cr3tpass'", 'MY_API_KEY=abcdef123456', 'SECRET_KEY=abcdef123456']) {
    test(`env-style credential ${text.split(/[=:]/)[0]} is refused`, async () => {
      const r = await rejectsWith(
        cliRun(dir, memoryAdd, { type: 'feedback', title: `env ${text.slice(0, 8)}`, description: text }),
        'SECRET_DETECTED',
        /pattern password-assignment/,
      );
      assert.equal(exitCodeOf(r), 2);
    });
  }

  test('a slug that looks like an ID is found by its slug', async () => {
    await cliText(dir, memoryAdd, { type: 'feedback', title: 'D-042', description: 'a memory named like an ID' });
    assert.equal((await cliJson(dir, memoryShow, { slug: 'd-042' })).slug, 'd-042');
    assert.match(await cliText(dir, memoryRemove, { slug: 'd-042' }), /Memory archived: d-042/);
  });

  test('control, bidi and invisible characters are refused in titles', async () => {
    for (const title of ['\u200b', 'a\u202eb', 'x\u009by']) {
      const r = await rejectsWith(cliRun(dir, decisionAdd, { title, decision: 'x' }), 'INVALID_INPUT');
      assert.equal(exitCodeOf(r), 2, JSON.stringify(title));
    }
  });

  test('--at "" is an error; "1 month ago" is a calendar month; a dash value gets a hint', async () => {
    assert.equal(exitCodeOf(await rejectsWith(cliRun(dir, decisionList, { at: '' }), 'BAD_REVISION', /--at is empty/)), 2);
    const { parseDateSpec } = await import('../src/store/revision.ts');
    assert.equal(parseDateSpec('1 month ago', new Date('2026-03-02T10:00:00Z'))?.toISOString(), '2026-02-02T10:00:00.000Z');
    const dash = await axmeIn(dir, ['decision', 'add', '--title', 'Lists', '--decision', '- a']);
    assert.equal(dash.code, 2);
    assert.match(dash.stderr, /must be attached \(--title="-x"\)/);
    assert.equal((await axmeInOk(dir, ['decision', 'add', '--title', 'Lists', '--decision=- a\n- b', '--json'])).decision, '- a\n- b');
  });

  test("a flag given a value other than true or false is a usage error; an option's plural names the one meant", async () => {
    for (const args of [
      ['decision', 'list', '--json=yes'],
      ['init', '--dry-run=1'],
    ]) {
      const r = await axmeIn(dir, args);
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.stdout, '', 'nothing ran');
      assert.match(r.stderr, /^axme: --(json|dry-run) is a flag: give it alone \(--\1\) or as --\1=true or --\1=false, not "(yes|1)"/);
    }
    assert.ok(Array.isArray(JSON.parse((await axmeIn(dir, ['decision', 'list', '--json=true'])).stdout)));
    const plural = await axmeIn(dir, ['decision', 'add', '--title', 'Anchored', '--decision', 'x', '--anchors', 'src/**']);
    assert.equal(plural.code, 2);
    assert.match(plural.stderr, /^axme: --anchors is not an option: did you mean --anchor\?/);
  });

  test('a missing object is a finding on its file; other items are still served', async () => {
    const { dir: d2, cleanup: c2 } = tempRepo();
    try {
      await initCore(d2);
      await cliText(d2, decisionAdd, { title: 'Keep', decision: 'k' });
      await cliText(d2, decisionAdd, { title: 'Lose', decision: 'l' });
      const oid = git(d2, ['rev-parse', 'refs/memory/main:decisions/lose.md']).trim();
      rmSync(join(d2, '.git', 'objects', oid.slice(0, 2), oid.slice(2)));
      rmSync(join(d2, '.git', 'axme'), { recursive: true, force: true });
      const list = await cliRun(d2, decisionList, {}, { json: true });
      assert.equal(list.code, 0, list.stderr);
      assert.deepEqual(
        JSON.parse(list.stdout).map((x: { slug: string }) => x.slug),
        ['keep'],
      );
      assert.match(list.stderr, /decisions\/lose\.md.*cannot read the file's object/);
      const check = await cliRun(d2, fsck, {}, { json: true });
      assert.equal(check.code, 1);
      assert.ok(JSON.parse(check.stdout).findings.some((f: { path: string }) => f.path === 'decisions/lose.md'));
    } finally {
      c2();
    }
  });

  test('writes refuse a ref that points at a code commit; log refuses a blob', async () => {
    const { dir: d3, cleanup: c3 } = tempRepo();
    try {
      writeFileSync(join(d3, 'main.c'), 'int main(void) { return 0; }\n');
      git(d3, ['add', 'main.c']);
      git(d3, ['commit', '-q', '-m', 'code']);
      git(d3, ['update-ref', 'refs/memory/main', 'HEAD']);
      const w = await rejectsWith(cliRun(d3, decisionAdd, { title: 'x', decision: 'y' }), 'CORRUPT', /not a memory commit.*nothing was written/);
      assert.equal(exitCodeOf(w), 1);
      assert.equal(exitCodeOf(await rejectsWith(initCore(d3), 'CORRUPT')), 1);
      git(d3, ['update-ref', 'refs/memory/main', git(d3, ['hash-object', '-w', '--stdin'], 'hi').trim()]);
      assert.equal(exitCodeOf(await rejectsWith(cliRun(d3, log, {}), 'CORRUPT')), 1);
    } finally {
      c3();
    }
  });

  test('SHA-256 repositories get a clear error instead of a hang', async () => {
    const d4 = mkdtempSync(join(tmpdir(), 'axme-sha256-'));
    try {
      git(d4, ['init', '-q', '--object-format=sha256']);
      const r = await axme(d4, ['init']);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /sha256 object names; axme supports SHA-1 repositories only/);
    } finally {
      rmSync(d4, { recursive: true, force: true });
    }
  });

  test('a clone with alternates (git clone --shared) works with either backend', async () => {
    const d5 = mkdtempSync(join(tmpdir(), 'axme-shared-'));
    try {
      git(d5, ['clone', '-q', '--shared', dir, 'clone']);
      const clone = join(d5, 'clone');
      git(clone, ['fetch', '-q', 'origin', 'refs/memory/main:refs/memory/main']);
      for (const backend of ['isogit', 'cli']) {
        const r = await axmeIn(clone, ['decision', 'list', '--json'], { env: { AXME_BACKEND: backend } });
        assert.equal(r.code, 0, `${backend}: ${r.stderr}`);
        assert.ok(JSON.parse(r.stdout).length >= 2);
      }
    } finally {
      rmSync(d5, { recursive: true, force: true });
    }
  });
});

test('history reports a missing historical object as damage, not as a removal', async () => {
  const { dir, cleanup } = tempRepo();
  try {
    await initCore(dir, { claude: true, gitHooks: true, scan: 'if-new' });
    await cliText(dir, backlogAdd, { title: 'a' });
    await cliText(dir, backlogUpdate, { id: 'B-001', notes: 'n' });
    const oid = git(dir, ['rev-parse', 'refs/memory/main~1:backlog/a.md']).trim();
    rmSync(join(dir, '.git', 'objects', oid.slice(0, 2), oid.slice(2)));
    const r = await rejectsWith(
      cliRun(dir, history, { id_or_slug: 'B-001' }),
      'CORRUPT',
      /backlog\/a\.md in commit [0-9a-f]{12} cannot be read \(its object is missing\)/,
    );
    assert.equal(exitCodeOf(r), 1);
  } finally {
    cleanup();
  }
});

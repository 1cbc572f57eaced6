import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { initStore } from '../../src/knowledge/admin/init-store.ts';
import { type KnowledgeBase, openKnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { addBacklogItem } from '../../src/knowledge/items/backlog/add-backlog-item.ts';
import { updateBacklogItem } from '../../src/knowledge/items/backlog/update-backlog-item.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import { revokeDecision } from '../../src/knowledge/items/decision/revoke-decision.ts';
import { supersedeDecision } from '../../src/knowledge/items/decision/supersede-decision.ts';
import { listItems } from '../../src/knowledge/items/list-items.ts';
import { addMemory } from '../../src/knowledge/items/memory/add-memory.ts';
import { updateMemory } from '../../src/knowledge/items/memory/update-memory.ts';
import { answerQuestion } from '../../src/knowledge/items/question/answer-question.ts';
import { askQuestion } from '../../src/knowledge/items/question/ask-question.ts';
import { planMerge } from '../../src/knowledge/sync/merge/merge-stores.ts';
import { merge3 } from '../../src/knowledge/sync/merge/text3.ts';
import { mergeLists, mergeValues } from '../../src/knowledge/sync/merge/values.ts';
import { syncStore } from '../../src/knowledge/sync/sync-store.ts';
import { parseYaml } from '../../src/model/frontmatter.ts';
import { backlogAdd } from '../../src/operations/backlog/writes.ts';
import { decisionAdd } from '../../src/operations/decision/add.ts';
import { memoryAdd } from '../../src/operations/memory/add.ts';
import { resolve as resolveCommit } from '../../src/store/remote.ts';
import { emptySnapshot, readSnapshot, writeChanges } from '../../src/store/tree.ts';
import { axmeIn, axmeInOk } from '../cli-in-process.ts';
import { coreAt, exitCodeOf, initCore, rejectsWith, syncCore, withCore } from '../core.ts';
import { startGitHttpsServer } from '../git-https-server.ts';
import { axme, axmeOk, cleanEnv, git } from '../helpers.ts';
import { cliText } from '../store-fixture.ts';
import { copyTeam } from './fixture-copies.ts';

const run = promisify(execFile);
const REF = 'refs/memory/main';
const roots: string[] = [];
const kbs: KnowledgeBase[] = [];
after(async () => {
  await Promise.all(kbs.map((kb) => kb.repo.close()));
  for (const r of roots) rmSync(r, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

/** A bare "remote" and three clones of it, each with its own identity, made once in `dir`. */
function makeTeam(dir: string): string {
  git(dir, ['init', '-q', '--bare', join(dir, 'remote.git')]);
  for (let i = 0; i < 3; i++) {
    const clone = join(dir, `clone-${i}`);
    git(dir, ['clone', '-q', join(dir, 'remote.git'), clone]);
    git(clone, ['config', 'user.name', `Dev ${i}`]);
    git(clone, ['config', 'user.email', `dev${i}@example.com`]);
  }
  return dir;
}

let bareTeam: string | undefined;
let syncedTeam: Promise<string> | undefined;

/** A team of its own: a copy of the template team (makeTeam), its first `n` clones pointed at the copy's remote. */
function copyOf(template: string, n: number): { root: string; remote: string; clones: string[] } {
  const { root, remote, dirs } = copyTeam(
    template,
    Array.from({ length: n }, (_, i) => `clone-${i}`),
    'axme-sync-',
  );
  roots.push(root);
  return { root, remote, clones: dirs };
}

/** A bare "remote" and `n` clones of it (at most 3), each with its own identity, no store yet. */
function team(n: number): { root: string; remote: string; clones: string[] } {
  if (!bareTeam) {
    bareTeam = mkdtempSync(join(tmpdir(), 'axme-sync-template-'));
    roots.push(bareTeam);
    makeTeam(bareTeam);
  }
  return copyOf(bareTeam, n);
}

/** As `team`, with the store made by the first clone (`axme init`) and synced to all three. */
async function initedTeam(n: number): Promise<{ root: string; remote: string; clones: string[] }> {
  syncedTeam ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'axme-sync-template-'));
    roots.push(dir);
    makeTeam(dir);
    await initCore(join(dir, 'clone-0'));
    for (let i = 0; i < 3; i++) await syncCore(join(dir, `clone-${i}`));
    return dir;
  })();
  return copyOf(await syncedTeam, n);
}

async function kbOf(dir: string, clock: () => Date = () => new Date()): Promise<KnowledgeBase> {
  const kb = await openKnowledgeBase({ cwd: dir, env: cleanEnv(), now: clock, actor: 'human', backend: 'cli' });
  kbs.push(kb);
  return kb;
}

/** A commit on top of `parent` with `files` replaced, written by plain git (not through axme). */
async function handCommit(dir: string, parent: string, files: Record<string, string>): Promise<string> {
  const env = { ...cleanEnv(), GIT_INDEX_FILE: join(dir, '.git', `hand-index-${process.pid}`) };
  await run('git', ['read-tree', parent], { cwd: dir, env });
  for (const [path, text] of Object.entries(files)) {
    const blob = git(dir, ['hash-object', '-w', '--stdin'], text).trim();
    await run('git', ['update-index', '--add', '--cacheinfo', `100644,${blob},${path}`], { cwd: dir, env });
  }
  const treeOid = (await run('git', ['write-tree'], { cwd: dir, env })).stdout.trim();
  return (await run('git', ['commit-tree', treeOid, '-p', parent, '-m', 'hand edit'], { cwd: dir, env })).stdout.trim();
}

const tree = (dir: string) => git(dir, ['rev-parse', `${REF}^{tree}`]).trim();
const files = (dir: string, ref = REF) => git(dir, ['ls-tree', '-r', '--name-only', ref]).trim().split('\n').filter(Boolean);

describe('merge rules (table-driven)', () => {
  test('diff3 on text: disjoint edits combine, the same edit once, two appends both, a real clash is refused; symmetric', () => {
    const cases: Array<[string, string, string, string, string | null]> = [
      ['edits on different lines', 'a\nb\nc\nd\ne', 'A\nb\nc\nd\ne', 'a\nb\nc\nd\nE', 'A\nb\nc\nd\nE'],
      ['the same edit', 'a\nb\nc', 'a\nB\nc', 'a\nB\nc', 'a\nB\nc'],
      ['two appends at the end', 'a', 'a\nx', 'a\ny', 'a\nx\ny'],
      ['a delete and a distant append', 'a\nb\nc', 'a\nc', 'a\nb\nc\nd', 'a\nc\nd'],
      ['one side only', 'a', 'a', 'b', 'b'],
      ['both replace the same line', 'a\nb\nc', 'a\nX\nc', 'a\nY\nc', null],
      ['adjacent lines', 'a\nb\nc', 'a\nB\nc', 'a\nb\nC', null],
      ['delete against edit', 'a\nb\nc', 'a\nc', 'a\nB\nc', null],
      ['both fill an empty field', '', 'one answer', 'another answer', null],
    ];
    for (const [name, base, x, y, want] of cases) {
      for (const [p, q] of [
        [x, y],
        [y, x],
      ]) {
        const r = merge3(base, p!, q!);
        assert.equal(r.ok ? r.text : null, want, name);
      }
    }
  });

  test('values: lists, status lattice, winners, appended notes, safety strictness; symmetric', () => {
    const rules = (winner: 'ours' | 'theirs') => ({ textFields: new Set(['body']), appendFields: new Set(['notes']), winner });
    const cases: Array<[string, unknown, unknown, unknown, unknown, string[]?]> = [
      ['list: removals honoured, additions sorted', ['a', 'b', 'c'], ['a', 'c', 'z'], ['a', 'b', 'c', 'm'], ['a', 'c', 'm', 'z']],
      ['status: revoked beats superseded', { status: 'active' }, { status: 'revoked' }, { status: 'superseded' }, { status: 'revoked' }],
      ['status: done beats in-progress', { status: 'open' }, { status: 'done' }, { status: 'in-progress' }, { status: 'done' }],
      ['one side changed a scalar', { t: 1, u: 1 }, { t: 2, u: 1 }, { t: 1, u: 3 }, { t: 2, u: 3 }],
      [
        'notes appended on both sides',
        { notes: '- a' },
        { notes: '- a\n- from ours' },
        { notes: '- a\n- from theirs' },
        { notes: '- a\n- from ours\n- from theirs' },
      ],
      ['notes into an empty field', { notes: '' }, { notes: '- x' }, { notes: '- y' }, { notes: '- x\n- y' }],
      ['removed on one side, changed on the other: kept', { k: 1 }, {}, { k: 2 }, { k: 2 }],
      ['nested objects key by key', { git: { a: 1, b: 1 } }, { git: { a: 2, b: 1 } }, { git: { a: 1, b: 3 } }, { git: { a: 2, b: 3 } }],
    ];
    for (const [name, b, x, y, want] of cases) {
      assert.deepEqual(mergeValues(b, x, y, rules('ours')).value, want, `${name} (ours, theirs)`);
      assert.deepEqual(mergeValues(b, y, x, rules('theirs')).value, want, `${name} (theirs, ours)`);
    }
    // a clash on a text field keeps the winner's text and reports the field
    const clash = mergeValues({ body: 'a' }, { body: 'b' }, { body: 'c' }, rules('theirs'));
    assert.deepEqual(clash, { value: { body: 'c' }, conflicts: ['body'], clashes: [{ field: 'body', ours: 'b', theirs: 'c', value: 'c', rule: 'asked' }] });
    // every field both sides changed is reported with both values and the rule that settled it
    assert.deepEqual(
      mergeValues({ status: 'open', tags: ['a'] }, { status: 'done', tags: ['a', 'x'] }, { status: 'blocked', tags: ['a', 'y'] }, rules('ours')).clashes,
      [
        { field: 'status', ours: 'done', theirs: 'blocked', value: 'done', rule: 'status-order' },
        { field: 'tags', ours: ['a', 'x'], theirs: ['a', 'y'], value: ['a', 'x', 'y'], rule: 'combined' },
      ],
    );
    assert.deepEqual(mergeLists([], ['b', 'a'], ['c', 'a']), ['a', 'b', 'c']);
  });
});

describe('sync through the CLI: exit codes and what it prints', () => {
  test('nothing on either side is a usage error (exit 2); --json is the sync result; a sync with nothing new says so and changes nothing', async () => {
    const {
      clones: [a, b],
    } = team(2);
    const none = await axmeIn(a!, ['sync']);
    assert.equal(none.code, 2, 'nothing on either side: a usage error');
    assert.match(none.stderr, /neither this repository nor origin has knowledge yet/);
    await initCore(a!);
    await cliText(a!, decisionAdd, { title: 'Use Postgres', decision: 'pg' });
    const first = await axmeInOk(a!, ['sync', '--json']);
    assert.equal(first.integrated, 'ahead');
    assert.equal(first.pushed.memory, true);
    assert.equal(typeof first.text, 'string');
    await syncCore(b!);
    const tip = git(a!, ['rev-parse', REF]);
    assert.match(await axmeInOk(a!, ['sync']), /already up to date/);
    assert.equal(git(a!, ['rev-parse', REF]), tip);
  });

  test('an unknown remote and a bad --rounds exit 2 naming the problem; an unreachable remote exits 1', async () => {
    const {
      clones: [a],
    } = team(1);
    await initCore(a!);
    const bad = await axmeIn(a!, ['sync', 'upstream']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /no git remote named "upstream": the remotes are origin/);
    const rounds = await axmeIn(a!, ['sync', '--rounds', 'abc']);
    assert.equal(rounds.code, 2, rounds.stderr);
    assert.match(rounds.stderr, /--rounds takes a whole number from 1 to 100, not "abc"/);
    git(a!, ['remote', 'add', 'gone', join(a!, 'no-such-remote.git')]);
    const gone = await axmeIn(a!, ['sync', 'gone']);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /cannot reach remote gone/);
  });
});

/**
 * The git processes one `syncStore` on `dir` runs, each as its arguments: the real git, found on
 * PATH through a script that logs each command line first (the knowledge base is opened before
 * the log starts: only the sync's own processes are counted).
 */
async function gitProcessesOfSync(root: string, dir: string): Promise<{ result: Awaited<ReturnType<typeof syncStore>>; commands: string[] }> {
  const bin = join(root, 'git-logging-bin');
  const log = join(root, 'git-commands.log');
  mkdirSync(bin, { recursive: true });
  const real = join(git(root, ['--exec-path']).trim(), 'git');
  writeFileSync(join(bin, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> "$AXME_TEST_GIT_LOG"\nexec '${real}' "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  const env = { PATH: `${bin}:${process.env.PATH}`, AXME_TEST_GIT_LOG: log };
  return withCore(
    dir,
    async (kb) => {
      writeFileSync(log, '');
      const result = await syncStore(kb, { env: cleanEnv(env) });
      return { result, commands: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
    },
    { env },
  );
}

describe('syncStore over a local bare remote', () => {
  test('first sync pushes; a clone without a store fast-forwards; diverged clones merge with renumbering; trees agree', async () => {
    const {
      clones: [a, b],
    } = team(2);
    const [A, B] = [coreAt(a!), coreAt(b!)];
    const none = await rejectsWith(A.sync(), 'NOT_INITIALIZED', /neither this repository nor origin has knowledge yet/);
    assert.equal(exitCodeOf(none), 2, 'nothing on either side: a usage error');
    await A.init();
    await A.addDecision({ title: 'Use Postgres', decision: 'pg' });
    const first = await A.sync();
    assert.equal(first.integrated, 'ahead');
    assert.equal(first.pushed.memory, true);
    const ff = await B.sync();
    assert.equal(ff.integrated, 'fast-forward');
    assert.equal(tree(a!), tree(b!));
    // sync configured the remote: a plain git fetch (the remote has no notes yet) brings knowledge too
    assert.deepEqual(git(b!, ['config', '--get-all', 'remote.origin.fetch']).trim().split('\n').slice(1), [
      '+refs/memory/*:refs/memory-remotes/origin/*',
      '+refs/notes/axme*:refs/notes/remotes/origin/axme*',
    ]);
    assert.equal(ff.configured.length, 2);
    assert.deepEqual((await B.sync()).configured, [], 'configured once');

    await A.addDecision({ title: 'Use Kafka', decision: 'events' });
    const ahead = await A.sync();
    assert.equal(ahead.integrated, 'ahead', 'the remote tip is an ancestor of ours: nothing to take');
    assert.deepEqual(ahead.merges, []);
    git(b!, ['fetch', '-q']);
    assert.equal(git(b!, ['rev-parse', 'refs/memory-remotes/origin/main']), git(a!, ['rev-parse', REF]), 'git fetch alone updated the tracking ref');
    await B.addDecision({ title: 'Use Redis', decision: 'cache' });
    await A.sync();
    const merged = await B.sync();
    assert.equal(merged.integrated, 'merged');
    assert.equal(merged.merges[0]!.renumbered.length, 1);
    await A.sync();
    assert.equal(tree(a!), tree(b!));
    const ids = (await A.list('decision')).map((d: { id: string; title: string }) => `${d.id} ${d.title}`).sort();
    assert.deepEqual(ids, ['D-001 Use Postgres', 'D-002 Use Kafka', 'D-003 Use Redis']);
    const redis = await A.show('decision', 'D-002');
    assert.equal(redis.title, 'Use Kafka');
    const renamed = await A.show('decision', 'use-redis');
    assert.deepEqual(renamed.aliases, ['D-002'], 'the later item keeps its old number as an alias');
    const head = git(b!, ['log', '-1', '--format=%P%n%B', REF]);
    assert.equal(head.split('\n')[0]!.split(' ').length, 2, 'a merge commit with both parents');
    assert.match(head, /^Axme-Actor: sync$/m);
    git(a!, ['fsck', '--strict', '--no-progress']);
    // a sync with nothing new changes nothing
    const tip = git(a!, ['rev-parse', REF]);
    const again = await A.sync();
    assert.equal(again.integrated, 'up-to-date');
    assert.match(again.text, /already up to date/);
    assert.equal(git(a!, ['rev-parse', REF]), tip);
  });

  test('a sync with nothing new runs at most 2 git processes: it asks the remote what it holds, fetches and pushes nothing', async () => {
    const {
      root,
      clones: [a, b],
    } = await initedTeam(2);
    for (const dir of [a!, b!]) {
      const tip = git(dir, ['rev-parse', REF]);
      const { result, commands } = await gitProcessesOfSync(root, dir);
      assert.equal(result.integrated, 'up-to-date');
      assert.deepEqual(result.pushed, { memory: false, notes: false });
      assert.equal(git(dir, ['rev-parse', REF]), tip, 'nothing changed');
      assert.ok(commands.length <= 2, `${commands.length} git processes for a sync with nothing new:\n${commands.join('\n')}`);
      assert.equal(commands.filter((c) => /^ls-remote /.test(c)).length, 1, 'the remote is asked once');
      assert.deepEqual(
        commands.filter((c) => /^(fetch|push) /.test(c)),
        [],
        'nothing fetched or pushed',
      );
    }
  });

  test('the refs a sync reads are the commits git names, read without git where the files tell: a tag peeled, a blob or nothing is none, packed or loose', async () => {
    const {
      clones: [a],
    } = team(1);
    git(a!, ['commit', '-q', '--allow-empty', '-m', 'code']);
    const commit = git(a!, ['rev-parse', 'HEAD']).trim();
    git(a!, ['tag', '-a', '-m', 'a tag', 'v1']);
    git(a!, ['update-ref', 'refs/memory/commit', commit]);
    git(a!, ['update-ref', 'refs/memory/tag', git(a!, ['rev-parse', 'v1']).trim()]);
    git(a!, ['update-ref', 'refs/memory/blob', git(a!, ['hash-object', '-w', '--stdin'], 'not a commit').trim()]);
    const names = ['refs/memory/commit', 'refs/memory/tag', 'refs/memory/blob', 'refs/memory/none', 'HEAD', 'v1'];
    const want = [commit, commit, null, null, commit, commit];
    for (const packed of [false, true]) {
      if (packed) git(a!, ['gc', '-q']);
      const got = await withCore(a!, (kb) => Promise.all(names.map((n) => resolveCommit(kb.repo, n))));
      assert.deepEqual(got, want, packed ? 'packed' : 'loose');
    }
    // a ref each worktree keeps in its own git dir, read from a linked worktree: git's answer, not "none"
    const linked = `${a!}-linked`;
    git(a!, ['worktree', 'add', '-q', '--detach', linked]);
    try {
      git(linked, ['update-ref', 'refs/worktree/mine', commit]);
      assert.equal(await withCore(linked, (kb) => resolveCommit(kb.repo, 'refs/worktree/mine')), commit);
    } finally {
      git(a!, ['worktree', 'remove', '--force', linked]);
    }
  });

  test('init adds the knowledge refspecs to each remote: a plain git fetch brings the knowledge; without fetch config it skips', async () => {
    const {
      clones: [a, b, c],
    } = team(3);
    const [A, B, C] = [coreAt(a!), coreAt(b!), coreAt(c!)];
    const r = await A.init();
    assert.deepEqual(r.remotes, [
      { remote: 'origin', added: ['+refs/memory/*:refs/memory-remotes/origin/*', '+refs/notes/axme*:refs/notes/remotes/origin/axme*'] },
    ]);
    assert.match(
      await axmeInOk(b!, ['init', '--no-claude', '--no-git-hooks', '--no-scan']),
      /Configured remote origin: a plain git fetch brings its knowledge too/,
    );
    assert.equal((await B.init()).remotes[0]!.added.length, 0, 'a second init adds nothing');
    await A.addDecision({ title: 'Fetched by plain git', decision: 'x' });
    await A.sync();
    const local = git(b!, ['rev-parse', REF]).trim();
    git(b!, ['fetch', '-q', 'origin']);
    assert.equal(git(b!, ['rev-parse', 'refs/memory-remotes/origin/main']).trim(), git(a!, ['rev-parse', REF]).trim());
    assert.equal(git(b!, ['rev-parse', REF]).trim(), local, 'a fetch never moves the local store');
    const skipped = await axmeInOk(c!, ['init', '--no-claude', '--no-git-hooks', '--no-scan', '--no-fetch-config', '--json']);
    assert.deepEqual(skipped.remotes, []);
    assert.deepEqual((await C.init({ fetchConfig: false })).remotes, []);
    assert.equal(git(c!, ['config', '--get-all', 'remote.origin.fetch']).trim(), '+refs/heads/*:refs/remotes/origin/*');
  });

  test('two clones that each ran init before their first sync merge against an empty base', async () => {
    const {
      clones: [a, b],
    } = team(2);
    const [A, B] = [coreAt(a!), coreAt(b!)];
    for (const [S, title] of [
      [A, 'Alpha rule'],
      [B, 'Beta rule'],
    ] as const) {
      await S.init();
      await S.addDecision({ title, decision: title });
      await S.safety('add', 'bash_deny', S === A ? 'terraform destroy' : 'kubectl delete');
    }
    // an exception only one store ever granted
    await A.safety('add', 'bash_allow', 'npm publish --dry-run');
    await A.sync();
    const r = await B.sync();
    assert.equal(r.integrated, 'merged');
    assert.equal(r.merges[0]!.base, null);
    await A.sync();
    assert.equal(tree(a!), tree(b!));
    const rules = await A.rules();
    assert.ok(rules.bash.deniedPrefixes.includes('terraform destroy') && rules.bash.deniedPrefixes.includes('kubectl delete'), 'both denies kept');
    assert.deepEqual(rules.bash.allowedPrefixes, [], 'without common history, an allow needs both stores (like a workspace)');
    // with a common history, a teammate's deliberate change is an edit that merges like any other,
    // but one that lets more through is held until a person here takes it (docs/sync.md, "Safety rules")
    await B.safety('add', 'bash_allow', 'npm publish --dry-run');
    await A.safety('add', 'bash_deny', 'helm uninstall');
    await B.sync();
    await rejectsWith(A.sync(), 'WRONG_STATE', /loosens what binds agents here — safety\/rules\.yaml would let more through/);
    await withCore(a!, (kb) => syncStore(kb, { acceptLoosening: true }));
    await B.sync();
    assert.equal(tree(a!), tree(b!));
    const after = await A.rules();
    assert.deepEqual(after.bash.allowedPrefixes, ['npm publish --dry-run']);
    assert.ok(after.bash.deniedPrefixes.includes('helm uninstall'));
    assert.equal((await A.list('decision')).length, 2);
    assert.equal((await A.fsck()).ok, true);
  });

  test('conflicting edits of one item become a question; statuses follow the lattice; notes from both kept', async () => {
    const {
      clones: [a, b],
    } = team(2);
    const [A, B] = [coreAt(a!), coreAt(b!)];
    await A.init();
    await A.ask('Which region?');
    await A.addDecision({ title: 'Use gRPC', decision: 'grpc everywhere' });
    await A.addBacklog({ title: 'Export metrics' });
    await A.sync();
    await B.sync();
    await A.answer('Q-001', 'eu-west-1');
    await B.answer('Q-001', 'us-east-1');
    await A.revoke('D-001', 'dropped');
    await B.supersede({ id: 'D-001', title: 'Use gRPC with JSON fallback', decision: 'both' });
    await A.updateBacklog({ id: 'B-001', notes: 'started the exporter', status: 'in-progress' });
    await B.updateBacklog({ id: 'B-001', notes: 'reviewed the design', status: 'blocked' });
    await A.sync();
    const r = await B.sync();
    await A.sync();
    assert.equal(tree(a!), tree(b!));
    const conflicts = r.merges[0]!.conflicts.map((c) => `${c.path} ${c.fields.join(',')}`);
    // the revocation against the supersession is a lifecycle clash: a conflict too (see the tests below)
    assert.deepEqual(conflicts, ['decisions/use-grpc.md status,superseded_by', 'questions/which-region.md answer']);
    const open = await A.list('question');
    const asked = open.find((q: { question: string }) => /Two clones changed Q-001/.test(q.question));
    assert.ok(asked, JSON.stringify(open));
    assert.match(asked.context, /git show [0-9a-f]{40}:questions\/which-region\.md/);
    const d1 = await A.show('decision', 'D-001');
    assert.equal(d1.status, 'revoked', 'revoked > superseded');
    assert.equal(d1.superseded_by, undefined);
    const b1 = await A.show('backlog', 'B-001');
    assert.match(b1.notes, /started the exporter/);
    assert.match(b1.notes, /reviewed the design/);
    assert.equal(b1.status, 'blocked', 'blocked > in-progress');
    assert.equal((await A.fsck()).ok, true);
  });

  test("a memory's description changed differently on two clones is a clash of text: one kept, a question names the other, nothing settled silently", async () => {
    const {
      clones: [a, b],
    } = team(2);
    const [A, B] = [coreAt(a!), coreAt(b!)];
    await A.init();
    await A.addMemory({ type: 'feedback', title: 'Run tests', description: 'Run the suite.' });
    await A.sync();
    await B.sync();
    await withCore(a!, (kb) => updateMemory(kb, { slug: 'run-tests', description: 'Run npm test before pushing.' }));
    await withCore(b!, (kb) => updateMemory(kb, { slug: 'run-tests', description: 'Run make check before pushing.' }));
    await A.sync();
    const r = await B.sync();
    assert.deepEqual(
      r.merges[0]!.conflicts.map((c) => `${c.path} ${c.fields.join(',')}`),
      ['memories/run-tests.md description'],
    );
    const asked = (await B.list('question')).find((q: { question: string }) => /Two clones changed/.test(q.question));
    assert.ok(asked, 'a question asks which description stands');
    assert.match(asked.context, /git show [0-9a-f]{40}:memories\/run-tests\.md/);
    assert.equal((await B.fsck()).ok, true);
  });

  test('one decision superseded differently on two clones: both successors stay active, a question names both, fsck passes', async () => {
    const {
      clones: [a, b],
    } = team(2);
    const [A, B] = [coreAt(a!), coreAt(b!)];
    await A.init();
    await A.addDecision({ title: 'Use Postgres', decision: 'pg' });
    await A.sync();
    await B.sync();
    await A.supersede({ id: 'D-001', title: 'Use Postgres 16', decision: 'pg16' });
    await B.supersede({ id: 'D-001', title: 'Use CockroachDB', decision: 'crdb' });
    await A.sync();
    const r = await B.sync();
    await A.sync();
    assert.equal(tree(a!), tree(b!));
    assert.deepEqual(
      r.merges[0]!.conflicts.map((c) => `${c.path} ${c.fields.join(',')}`),
      ['decisions/use-postgres.md superseded_by'],
    );
    const active = (await A.list('decision')).map((d: { title: string }) => d.title).sort();
    assert.deepEqual(active, ['Use CockroachDB', 'Use Postgres 16'], 'neither successor is lost or hidden');
    const asked = (await A.list('question')).find((q: { question: string }) => /superseded on both clones/.test(q.question));
    assert.ok(asked, 'a question asks which successor stands');
    assert.match(asked.question, /decisions\/use-postgres-16\.md/);
    assert.match(asked.question, /decisions\/use-cockroachdb\.md/);
    const fsck = await A.fsck();
    assert.equal(fsck.ok, true, JSON.stringify(fsck.findings));
    assert.ok(fsck.findings.some((f) => f.severity === 'warning' && /superseded separately on two clones/.test(f.reason)));
    // settling it: revoking the loser leaves a clean graph with one successor
    const loser = (await A.show('decision', 'D-001')).superseded_by === 'use-postgres-16' ? 'use-cockroachdb' : 'use-postgres-16';
    await A.revoke(loser, 'settled: one successor');
    assert.equal((await A.list('decision')).length, 1);
    assert.deepEqual((await A.fsck()).findings, [], 'settled: fsck has nothing more to say');
  });

  for (const revoker of [0, 1]) {
    test(`revoked on one clone, superseded on the other (the ${revoker === 0 ? 'syncing clone' : 'remote'} revoked): revoked without a successor link, a question, fsck warns until settled`, async () => {
      const { clones } = team(2);
      const [a, b] = clones as [string, string];
      const [A, B] = [coreAt(a), coreAt(b)];
      await A.init();
      await A.addDecision({ title: 'Use gRPC', decision: 'grpc everywhere' });
      await A.sync();
      await B.sync();
      // b syncs second and merges; `revoker` says which side revoked
      const [rev, sup] = revoker === 0 ? [B, A] : [A, B];
      await rev.revoke('D-001', 'dropped: REST is enough');
      await sup.supersede({ id: 'D-001', title: 'Use gRPC with JSON fallback', decision: 'both' });
      await A.sync();
      const r = await B.sync();
      await A.sync();
      assert.equal(tree(a), tree(b));
      const [conflict] = r.merges[0]!.conflicts;
      assert.deepEqual(
        r.merges[0]!.conflicts.map((c) => `${c.path} ${c.fields.join(',')}`),
        ['decisions/use-grpc.md status,superseded_by'],
      );
      // kept: the revoking side's tip (b's own tip is the merge's first parent, a's the second)
      assert.equal(conflict!.kept, git(b, ['rev-parse', `${r.merges[0]!.commit}^${revoker === 0 ? 1 : 2}`]).trim());
      const old = await A.show('decision', 'D-001');
      assert.equal(old.status, 'revoked', 'a revocation is never undone by a merge');
      assert.equal(old.superseded_by, undefined, 'a revoked decision carries no successor link');
      assert.equal(old.revoked_reason, 'dropped: REST is enough');
      const next = await A.show('decision', 'use-grpc-with-json-fallback');
      assert.equal(next.status, 'active');
      assert.deepEqual(next.supersedes, ['use-grpc']);
      const asked = (await A.list('question')).find((q: { question: string }) => /Two clones changed D-001/.test(q.question));
      assert.ok(asked, 'a question asks whether the revocation or the successor stands');
      assert.match(asked.question, /revoked on one clone .*superseded by decisions\/use-grpc-with-json-fallback\.md on the other/);
      assert.match(asked.context, /git show [0-9a-f]{40}:decisions\/use-grpc\.md/);
      assert.equal(git(a, ['show', `${REF}:${conflict!.question}`]).includes('Two clones changed D-001'), true, 'the conflict names its question');
      const fsck = await A.fsck();
      assert.equal(fsck.ok, true, JSON.stringify(fsck.findings));
      assert.deepEqual(
        fsck.findings.map((f) => `${f.severity} ${f.path}`),
        ['warning decisions/use-grpc-with-json-fallback.md'],
      );
      assert.match(fsck.findings[0]!.reason, /supersedes use-grpc, which was revoked/);
      // settling it the one way the question offers: revoke the successor too
      await A.revoke('use-grpc-with-json-fallback', 'the revocation stands');
      assert.deepEqual((await A.fsck()).findings, []);
    });
  }

  test('fsck reports contradictory lifecycle states a store may already hold (an older merge, a hand edit)', async () => {
    const {
      clones: [a],
    } = team(1);
    const A = coreAt(a!);
    await A.init();
    await A.addDecision({ title: 'Use gRPC', decision: 'grpc' });
    await A.supersede({ id: 'D-001', title: 'Use gRPC with JSON fallback', decision: 'both' });
    await A.addDecision({ title: 'Use Kafka', decision: 'events' });
    const clean = git(a!, ['rev-parse', REF]).trim();
    const cases: Array<[string, string, RegExp, string, string, RegExp]> = [
      // what an older axme's merge of a revocation and a supersession left
      [
        'revoked with a successor link',
        'decisions/use-grpc.md',
        /^status: superseded$/m,
        "status: revoked\nrevoked_at: '2026-11-01T10:00:00.000Z'\nrevoked_reason: dropped",
        'warning',
        /status revoked but superseded_by use-grpc-with-json-fallback: .*revoke use-grpc-with-json-fallback too/,
      ],
      [
        'active yet revoked_at',
        'decisions/use-kafka.md',
        /^status: active$/m,
        "status: active\nrevoked_at: '2026-11-01T10:00:00.000Z'",
        'error',
        /status active but revoked_at set: .*axme decision revoke use-kafka/,
      ],
      [
        'superseded yet revoked_reason',
        'decisions/use-grpc.md',
        /^status: superseded$/m,
        'status: superseded\nrevoked_reason: dropped',
        'error',
        /status superseded but revoked_reason set: .*remove revoked_reason/,
      ],
    ];
    for (const [name, path, from, to, severity, reason] of cases) {
      const text = git(a!, ['show', `${clean}:${path}`]);
      assert.match(text, from, name);
      const commit = await handCommit(a!, clean, { [path]: text.replace(from, to) });
      const fsck = await A.fsck({ at: commit });
      // `axme fsck` exits 1 unless ok: an error finding fails it, a warning does not
      assert.equal(fsck.ok, severity !== 'error', `${name}: ${JSON.stringify(fsck.findings)}`);
      const found = fsck.findings.filter((f) => f.path === path);
      assert.equal(found.length, 1, `${name}: ${JSON.stringify(fsck.findings)}`);
      assert.equal(found[0]!.severity, severity, name);
      assert.match(found[0]!.reason, reason, name);
    }
    // the exit code of the command: 1 for the last (an error finding)
    const last = await handCommit(a!, clean, {
      'decisions/use-kafka.md': git(a!, ['show', `${clean}:decisions/use-kafka.md`]).replace(
        /^status: active$/m,
        "status: active\nrevoked_at: '2026-11-01T10:00:00.000Z'",
      ),
    });
    const checked = await axmeIn(a!, ['fsck', '--json', '--at', last]);
    assert.equal(checked.code, 1, checked.stderr);
    assert.equal(JSON.parse(checked.stdout).ok, false);
  });

  test('two conflicts in one sync: each line of the text and of the result names its own question file, which holds that conflict', async () => {
    const {
      root,
      clones: [a, b],
    } = team(2);
    const [A, B] = [coreAt(a!), coreAt(b!)];
    // two long questions whose slugs share their first 48 characters, and a short one
    const asked = [
      'Which region?',
      'Which database engine should the billing service use for invoices?',
      'Which database engine should the billing service use for refunds?',
    ];
    await A.init();
    for (const q of asked) await A.ask(q);
    await A.sync();
    await B.sync();
    for (const id of ['Q-001', 'Q-002', 'Q-003']) await A.answer(id, `a says ${id}`);
    for (const id of ['Q-001', 'Q-002', 'Q-003']) await B.answer(id, `b says ${id}`);
    await A.sync();
    // a copy of the team in the same state: one clone syncs through the CLI (text), the copy through the core
    const copy = mkdtempSync(join(tmpdir(), 'axme-sync-copy-'));
    roots.push(copy);
    cpSync(root, copy, { recursive: true });
    const b2 = join(copy, 'clone-1');
    git(b2, ['remote', 'set-url', 'origin', join(copy, 'remote.git')]);
    const text = (await axmeInOk(b!, ['sync'])) as string;
    const json = await coreAt(b2).sync();
    assert.equal(tree(b!), tree(b2), 'both merged the same pair');
    const paths = files(a!)
      .filter((p) => p.startsWith('questions/'))
      .sort();
    assert.equal(paths.length, 3);
    const check = (dir: string, pairs: Array<[string, string]>, surface: string) => {
      assert.deepEqual(pairs.map(([p]) => p).sort(), paths, surface);
      assert.equal(new Set(pairs.map(([, q]) => q)).size, 3, `${surface}: one question file per conflict: ${JSON.stringify(pairs)}`);
      for (const [path, question] of pairs) {
        const body = git(dir, ['show', `${REF}:${question}`]);
        assert.match(
          body,
          new RegExp(`Sync kept the version of commit [0-9a-f]{40} in place \\(${path.replace(/[./]/g, '\\$&')}\\)`),
          `${surface}: ${question} is about ${path}`,
        );
        assert.match(body, /^status: open$/m);
      }
    };
    const lines = (t: string) =>
      [...t.matchAll(/^Conflict in (\S+) \(answer\): kept one version, asked about it in (\S+)\.$/gm)].map((m) => [m[1]!, m[2]!] as [string, string]);
    check(b!, lines(text), 'CLI text');
    check(b2, lines(json.text), 'result text');
    check(
      b2,
      json.merges[0]!.conflicts.map((c) => [c.path, c.question!] as [string, string]),
      'result conflicts',
    );
    assert.deepEqual([...json.merges[0]!.questions].sort(), json.merges[0]!.conflicts.map((c) => c.question).sort());
    assert.equal((await B.fsck()).ok, true);
  });

  test('a remote store that does not validate is refused; nothing changes', async () => {
    const {
      clones: [a, b],
    } = await initedTeam(2);
    const B = coreAt(b!);
    await B.addDecision({ title: 'Local work', decision: 'x' });
    // a hand-made commit on a's store with a broken item, pushed by plain git
    const idx = join(a!, '.git', 'tmp-index');
    const env = { ...cleanEnv(), GIT_INDEX_FILE: idx };
    await run('git', ['read-tree', REF], { cwd: a!, env });
    const blob = git(a!, ['hash-object', '-w', '--stdin'], '---\nid: D-009\ntitle: [broken\n---\nx\n').trim();
    await run('git', ['update-index', '--add', '--cacheinfo', `100644,${blob},decisions/broken.md`], { cwd: a!, env });
    const treeOid = (await run('git', ['write-tree'], { cwd: a!, env })).stdout.trim();
    const commit = (await run('git', ['commit-tree', treeOid, '-p', REF, '-m', 'hand edit'], { cwd: a!, env })).stdout.trim();
    git(a!, ['update-ref', REF, commit]);
    git(a!, ['push', '-q', 'origin', `${REF}:${REF}`]);
    const before = git(b!, ['rev-parse', REF]);
    const err = await rejectsWith(B.sync(), 'CORRUPT', /refusing to merge origin's knowledge .*decisions\/broken\.md/);
    // one file, said in the singular
    assert.match((err as Error).message, /: 1 file does not validate — .*fix it where it was written/);
    assert.equal(exitCodeOf(err), 1);
    assert.equal(git(b!, ['rev-parse', REF]), before, 'the local store is untouched');
  });

  test('a push race: two clones syncing at once both land, by fetch-merge-retry', async () => {
    const {
      clones: [a, b, c],
    } = await initedTeam(3);
    const [A, B, C] = [coreAt(a!), coreAt(b!), coreAt(c!)];
    await B.addMemory({ type: 'pattern', title: 'From b', description: 'b' });
    await C.addMemory({ type: 'pattern', title: 'From c', description: 'c' });
    const [rb, rc] = await Promise.all([B.sync(), C.sync()]);
    assert.ok(rb.pushed.memory || rc.pushed.memory);
    for (const S of [B, C, A]) await S.sync();
    for (const S of [A, B]) await S.sync();
    assert.equal(tree(a!), tree(b!));
    assert.equal(tree(b!), tree(c!));
    const slugs = (await A.list('memory')).map((m: { slug: string }) => m.slug).sort();
    assert.deepEqual(slugs, ['from-b', 'from-c']);
  });

  test('notes on code commits from two clones are merged line by line', async () => {
    const {
      clones: [a, b],
    } = await initedTeam(2);
    const [A, B] = [coreAt(a!), coreAt(b!)];
    git(a!, ['commit', '-q', '--allow-empty', '-m', 'code']);
    git(a!, ['push', '-q', 'origin', 'HEAD:main']);
    git(b!, ['pull', '-q', 'origin', 'main']);
    git(a!, ['notes', '--ref=refs/notes/axme', 'add', '-m', 'session: s-a', 'HEAD']);
    git(b!, ['notes', '--ref=refs/notes/axme', 'add', '-m', 'pr: 7', 'HEAD']);
    await A.sync();
    await B.sync();
    await A.sync();
    for (const d of [a!, b!]) assert.equal(git(d, ['notes', '--ref=refs/notes/axme', 'show', 'HEAD']).trim(), 'pr: 7\nsession: s-a');
  });

  test('an unknown remote or none at all is a usage error naming the remotes; a bad round count too; an unreachable remote is left unconfigured', async () => {
    const {
      clones: [a],
    } = team(1);
    const A = coreAt(a!);
    await A.init();
    const bad = await rejectsWith(A.sync({ remote: 'upstream' }), 'INVALID_INPUT', /no git remote named "upstream": the remotes are origin/);
    assert.equal(exitCodeOf(bad), 2);
    for (const rounds of [0, Number.NaN, 1.5, 101]) {
      const r = await rejectsWith(A.sync({ rounds }), 'INVALID_INPUT', /--rounds takes a whole number from 1 to 100, not "/);
      assert.equal(exitCodeOf(r), 2, `rounds ${rounds}`);
    }
    // a remote that cannot be reached: a failure, and its fetch configuration is left alone
    git(a!, ['remote', 'add', 'gone', join(a!, 'no-such-remote.git')]);
    const gone = await rejectsWith(A.sync({ remote: 'gone' }), 'GIT_FAILED', /cannot reach remote gone/);
    assert.equal(exitCodeOf(gone), 1);
    assert.equal(git(a!, ['config', '--get-all', 'remote.gone.fetch']).trim(), '+refs/heads/*:refs/remotes/gone/*');
    git(a!, ['remote', 'remove', 'gone']);
    git(a!, ['remote', 'remove', 'origin']);
    const none = await rejectsWith(A.sync(), 'INVALID_INPUT', /git remote add origin/);
    assert.equal(exitCodeOf(none), 2);
  });
});

describe("sync over HTTPS with the user's git credentials", () => {
  test('two clones sync through a real smart-HTTP server over TLS, credentials from a git credential helper; a wrong password fails clearly and changes nothing', async () => {
    const root = mkdtempSync(join(tmpdir(), 'axme-https-'));
    roots.push(root);
    git(root, ['init', '-q', '--bare', join(root, 'team.git')]);
    const server = await startGitHttpsServer({ root, user: 'dev', password: 's3cret' });
    try {
      const clone = (name: string, password: string) => {
        const dir = join(root, name);
        git(root, ['init', '-q', dir]);
        git(dir, ['config', 'user.name', name]);
        git(dir, ['config', 'user.email', `${name}@example.com`]);
        git(dir, ['config', 'http.sslCAInfo', server.caFile]);
        git(dir, ['config', 'credential.helper', `!f() { test "$1" = get && echo username=dev && echo password=${password}; }; f`]);
        git(dir, ['remote', 'add', 'origin', `${server.url}team.git`]);
        return dir;
      };
      const env = { GIT_TERMINAL_PROMPT: '0' };
      const [a, b, bad] = [clone('a', 's3cret'), clone('b', 's3cret'), clone('bad', 'wrong')];
      await initCore(a);
      await cliText(a, decisionAdd, { title: 'Served over HTTPS', decision: 'x' });
      assert.equal((await syncCore(a, {}, { env })).pushed.memory, true);
      assert.equal((await syncCore(b, {}, { env })).integrated, 'fast-forward');
      await cliText(b, memoryAdd, { type: 'feedback', title: 'From b over HTTPS', description: 'y' });
      await cliText(a, backlogAdd, { title: 'From a over HTTPS' });
      await syncCore(b, {}, { env });
      // through the built binary once: a real process whose git finds the credentials on its own
      assert.equal((await axmeOk(a, ['sync', '--json'], { env })).integrated, 'merged');
      await syncCore(b, {}, { env });
      assert.equal(tree(a), tree(b));
      assert.equal(git(root, ['--git-dir', join(root, 'team.git'), 'rev-parse', `${REF}^{tree}`]).trim(), tree(a), 'the server holds the merged store');

      await initCore(bad);
      const before = git(bad, ['rev-parse', REF]);
      const refusedBefore = server.refused();
      const r = await axme(bad, ['sync'], { env });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /cannot reach remote origin: .*Authentication failed/);
      assert.ok(server.refused() > refusedBefore, 'the server saw the wrong credentials');
      assert.equal(git(bad, ['rev-parse', REF]), before, 'nothing changed');
    } finally {
      await server.close();
    }
  });
});

describe('determinism', () => {
  test('merging the same pair in either order gives the same tree', async () => {
    const {
      clones: [a],
    } = team(1);
    let t = Date.parse('2026-11-01T00:00:00.000Z');
    const clock = () => new Date((t += 1000));
    const kb = await kbOf(a!, clock);
    await initStore(kb);
    await addDecision(kb, { title: 'Base decision', decision: 'one\ntwo\nthree' });
    const base = git(a!, ['rev-parse', REF]).trim();
    git(a!, ['update-ref', 'refs/memory/x', base]);
    git(a!, ['update-ref', 'refs/memory/y', base]);
    const kx = { ...kb, ref: 'refs/memory/x' };
    const ky = { ...kb, ref: 'refs/memory/y' };
    await addDecision(kx, { title: 'X decision', decision: 'x' });
    await addDecision(ky, { title: 'Y decision', decision: 'y' });
    await addBacklogItem(kx, { title: 'Shared work' });
    await addBacklogItem(ky, { title: 'Shared work' });
    await updateBacklogItem(kx, { id: 'B-001', notes: 'x note' });
    await updateBacklogItem(ky, { id: 'B-001', notes: 'y note', status: 'done' });
    const [x, y] = [git(a!, ['rev-parse', 'refs/memory/x']).trim(), git(a!, ['rev-parse', 'refs/memory/y']).trim()];
    const snap = (c: string) => readSnapshot(kb.repo.backend, c);
    const [sb, sx, sy] = await Promise.all([snap(base), snap(x), snap(y)]);
    const p1 = await planMerge({ kb, base: sb, ours: { ...sx, commit: x }, theirs: { ...sy, commit: y } });
    const p2 = await planMerge({ kb, base: sb, ours: { ...sy, commit: y }, theirs: { ...sx, commit: x } });
    const t1 = await writeChanges(kb.repo.backend, sx, p1.changes);
    const t2 = await writeChanges(kb.repo.backend, sy, p2.changes);
    assert.equal(t1, t2);
    assert.equal(p1.renumbered.length, 1, 'D-002 was taken on both sides');
  });
});

describe('determinism without common history', () => {
  test('two stores whose rules files differ in keys and key order merge to one tree either way, and to the stricter rules', async () => {
    const {
      clones: [a],
    } = team(1);
    const kb = await kbOf(a!);
    const commitOf = async (files: Record<string, string>) => {
      const tree = await writeChanges(kb.repo.backend, emptySnapshot(), new Map(Object.entries(files).map(([p, t]) => [p, Buffer.from(t)])));
      return git(a!, ['commit-tree', tree, '-m', 'seed']).trim();
    };
    const x = await commitOf({
      'axme.yaml': 'format: 1\nkind: repo\n',
      'safety/rules.yaml': 'bash:\n  deniedPrefixes: [make deploy]\n  allowedPrefixes: [npm publish --dry-run]\ngit:\n  allowForcePush: true\n',
    });
    const y = await commitOf({
      'axme.yaml': 'kind: repo\nformat: 1\n',
      'safety/rules.yaml':
        'github:\n  unverifiedPr: allow\ngit:\n  protectedBranches: [release]\n  allowForcePush: true\nfilesystem:\n  readOnlyPaths: [docs/]\n',
    });
    const [sx, sy] = await Promise.all([readSnapshot(kb.repo.backend, x), readSnapshot(kb.repo.backend, y)]);
    const p1 = await planMerge({ kb, base: null, ours: { ...sx, commit: x }, theirs: { ...sy, commit: y } });
    const p2 = await planMerge({ kb, base: null, ours: { ...sy, commit: y }, theirs: { ...sx, commit: x } });
    const [t1, t2] = [await writeChanges(kb.repo.backend, sx, p1.changes), await writeChanges(kb.repo.backend, sy, p2.changes)];
    assert.equal(t1, t2, 'the same tree whichever side is ours');
    const rules = parseYaml(git(a!, ['cat-file', 'blob', `${t1}:safety/rules.yaml`])) as {
      git: { allowForcePush: boolean; protectedBranches: string[] };
      bash: { allowedPrefixes: string[] };
      github: { unverifiedPr: string };
    };
    assert.equal(rules.git.allowForcePush, true, 'both allow it');
    assert.ok(rules.git.protectedBranches.includes('release') && rules.git.protectedBranches.includes('main'));
    assert.deepEqual(rules.bash.allowedPrefixes, [], 'an allow only one side granted is dropped');
    assert.equal(rules.github.unverifiedPr, 'deny');
  });
});

describe('unknown front-matter fields through a merge', () => {
  test('both sides edit a decision with a tagged unknown field: one tree either way, the tag kept as a person wrote it', async () => {
    const {
      clones: [a],
    } = team(1);
    const kb = await kbOf(a!);
    const file = (extra: string, reasoning: string, tags: string) =>
      [
        '---',
        'id: D-001',
        'title: Tagged',
        'status: active',
        'enforce: advisory',
        `tags: [${tags}]`,
        'created: 2026-01-01T00:00:00.000Z',
        'updated: 2026-01-01T00:00:00.000Z',
        extra,
        '---',
        '',
        'Tagged.',
        '',
        '## Reasoning',
        '',
        reasoning,
        '',
      ].join('\n');
    const commitOf = async (text: string, parents: string[] = []) => {
      const tree = await writeChanges(
        kb.repo.backend,
        emptySnapshot(),
        new Map([
          ['axme.yaml', Buffer.from('format: 1\nkind: repo\n')],
          ['decisions/tagged.md', Buffer.from(text)],
        ]),
      );
      return git(a!, ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-m', 'seed']).trim();
    };
    const base = await commitOf(file('# kept with the field\nbar: !!binary aGVsbG8=', 'Because.', 'a'));
    // ours: another tag, the unknown field untouched; theirs: new reasoning, the same value quoted differently
    const x = await commitOf(file('# kept with the field\nbar: !!binary aGVsbG8=', 'Because.', 'a, b'), [base]);
    const y = await commitOf(file('# kept with the field\nbar: !!binary "aGVsbG8="', 'Because, and more.', 'a'), [base]);
    const [sb, sx, sy] = await Promise.all([base, x, y].map((c) => readSnapshot(kb.repo.backend, c)));
    const p1 = await planMerge({ kb, base: sb!, ours: { ...sx!, commit: x }, theirs: { ...sy!, commit: y } });
    const p2 = await planMerge({ kb, base: sb!, ours: { ...sy!, commit: y }, theirs: { ...sx!, commit: x } });
    const [t1, t2] = [await writeChanges(kb.repo.backend, sx!, p1.changes), await writeChanges(kb.repo.backend, sy!, p2.changes)];
    assert.equal(t1, t2, 'the same tree whichever side is ours');
    const merged = git(a!, ['cat-file', 'blob', `${t1}:decisions/tagged.md`]);
    assert.match(merged, /# kept with the field\nbar: !!binary "?aGVsbG8="?\n/, 'the tag and its comment are written as one side wrote them');
    assert.doesNotMatch(merged, /Buffer|data: \[/);
    assert.match(merged, /tags: \[ a, b \]|tags:\n  - a\n  - b|tags: \[a, b\]/);
    assert.match(merged, /Because, and more\./);
  });
});

describe('random work on 3 clones, then sync rounds', () => {
  test('all clones end with the same tree; every item ever added is present; clashes are questions; fsck clean', { timeout: 300_000 }, async () => {
    const { clones } = await initedTeam(3);
    let seed = 20261122;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const stores = clones.map((c) => coreAt(c));
    const kbsOf = await Promise.all(clones.map((c) => kbOf(c)));
    const added = new Set<string>();
    const titles = ['Cache tokens', 'Retry uploads', 'Pin Node', 'Split the API', 'Log in JSON', 'Use UTC'];
    for (let round = 0; round < 3; round++) {
      for (let ci = 0; ci < clones.length; ci++) {
        const kb = kbsOf[ci]!;
        for (let op = 0; op < 6; op++) {
          const title = `${titles[rand(titles.length)]}${rand(3) === 0 ? '' : ` ${ci}-${round}-${op}`}`;
          const choice = rand(8);
          try {
            if (choice === 0) added.add((await addDecision(kb, { title, decision: `text ${ci} ${round}` })).path);
            else if (choice === 1) added.add((await addMemory(kb, { type: 'pattern', title, description: `from ${ci}` })).path);
            else if (choice === 2) added.add((await addBacklogItem(kb, { title })).path);
            else if (choice === 3) added.add((await askQuestion(kb, { question: `${title}?` })).path);
            else {
              const [decisions, backlog, questions] = await Promise.all([
                listItems(kb, { kind: 'decision' }),
                listItems(kb, { kind: 'backlog' }),
                listItems(kb, { kind: 'question' }),
              ]);
              const pick = <T>(l: T[]) => l[rand(l.length)];
              const d = pick(decisions.items as Array<{ id: string }>);
              const bi = pick(backlog.items as Array<{ id: string }>);
              const q = pick(questions.items as Array<{ id: string }>);
              if (choice === 4 && d) added.add((await supersedeDecision(kb, { id: d.id, title: `${title} v2`, decision: 'newer' })).path);
              else if (choice === 5 && d) await revokeDecision(kb, { id: d.id, reason: `revoked on ${ci}` });
              else if (choice === 6 && bi)
                await updateBacklogItem(kb, { id: bi.id, notes: `note from ${ci}`, status: (['open', 'in-progress', 'done', 'blocked'] as const)[rand(4)] });
              else if (choice === 7 && q) await answerQuestion(kb, { question_id: q.id, answer: `answer from clone ${ci}` });
            }
          } catch (err) {
            // an operation refused by the rules (e.g. superseding a revoked decision) is fine
            if (!(err as { code?: string }).code) throw err;
          }
        }
      }
      for (const S of stores) await S.sync();
    }
    for (const S of stores.slice(0, 2)) await S.sync();
    const trees = clones.map(tree);
    assert.equal(new Set(trees).size, 1, `trees differ: ${trees.join(' ')}`);
    const final = new Set(files(clones[0]!));
    for (const p of added) assert.ok(final.has(p), `${p} was lost`);
    for (const c of clones) git(c, ['fsck', '--strict', '--no-progress']);
    const fsck = await stores[0]!.fsck();
    assert.deepEqual(
      fsck.findings.filter((d) => d.severity === 'error'),
      [],
    );
    assert.equal(fsck.ok, true);
    const log = git(clones[0]!, ['log', '--format=%s', REF]);
    assert.match(log, /sync: merge origin/);
    // the seeded run answers one question differently on two clones, and reuses display IDs
    const asked = (await stores[0]!.list('question')).filter((q: { question: string }) => /^Two clones changed/.test(q.question));
    assert.ok(asked.length >= 1, 'a clash became a question');
    const body = git(clones[0]!, ['log', '--format=%B', REF]);
    assert.match(body, /Renumbered [DBQ]-\d+ -> [DBQ]-\d+/);
    console.log(
      `random sync: ${asked.length} conflict questions, ${(body.match(/Renumbered/g) ?? []).length} renumberings, ${(log.match(/sync: merge/g) ?? []).length} merges, ${added.size} items added`,
    );
  });
});

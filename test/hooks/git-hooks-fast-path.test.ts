import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { safetySet } from '../../src/operations/safety/edits.ts';
import { initCore } from '../core.ts';
import { CLI, cleanEnv, git, tempRepo } from '../helpers.ts';
import { cliText } from '../store-fixture.ts';
import { until } from '../until.ts';

/**
 * The git hooks' shell fast path (src/setup/launch.ts, knowledge/history/git-hook-files.ts): what
 * needs no Node is decided without it, and every doubt still runs axme. AXME_BIN is a wrapper that
 * logs each start of axme, so the tests see when Node ran.
 */
describe("git hooks' fast path: Node only when it is needed, never less safe", () => {
  let dir: string;
  let cleanup: () => void;
  let log: string;
  let env: NodeJS.ProcessEnv;
  const started = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) : []);
  const commit = (args: string[], extra: NodeJS.ProcessEnv = {}) => {
    writeFileSync(log, '');
    return spawnSync('git', ['commit', '-q', '--allow-empty', ...args], { cwd: dir, env: { ...env, ...extra }, encoding: 'utf8' });
  };
  const noteOf = (rev: string) => spawnSync('git', ['notes', '--ref=axme', 'show', rev], { cwd: dir, env, encoding: 'utf8' }).stdout;
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    log = join(dir, '..', `${dir.split('/').pop()}-axme-starts.log`);
    const wrapper = join(dir, '..', `${dir.split('/').pop()}-axme-wrapper`);
    writeFileSync(wrapper, `#!/bin/sh\necho "$*" >> ${JSON.stringify(log)}\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"\n`);
    chmodSync(wrapper, 0o755);
    env = cleanEnv({ AXME_BIN: wrapper, AXME_NODE: '' });
    await initCore(dir, { gitHooks: true }, { env });
    // a person's first commit runs Node (there are no facts yet), which leaves the facts for the shell
    const r = commit(['-m', 'first commit of a person']);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(existsSync(join(dir, '.git', 'axme', 'git-hook-facts')));
  });
  after(() => cleanup());

  test("an agent's commit starts Node once: commit-msg; post-commit attaches the note it left from the shell", () => {
    const r = commit(['-m', 'agent work per D-001', '-m', '#!axme pr=none repo=acme/app'], { CLAUDECODE: '1' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(
      started().map((l) => l.split(' ').slice(0, 2).join(' ')),
      ['git-hook commit-msg'],
    );
    const note = noteOf('HEAD');
    assert.match(note, /^decisions: D-001$/m);
    assert.match(note, /^pr: none$/m);
    assert.match(note, /^repo: acme\/app$/m);
    assert.match(note, /^memory: [0-9a-f]{40}$/m);
    assert.ok(!existsSync(join(dir, '.git', 'axme', 'work', 'pending-note.meta')), 'the pending note is consumed');
  });

  test("a person's plain commit starts no Node at all, and gets no note", () => {
    const r = commit(['-m', 'tidy the README']);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(started(), []);
    assert.equal(noteOf('HEAD'), '');
  });

  test("a person's commit that cites a decision still gets its note", () => {
    const r = commit(['-m', 'cache with Valkey, per D-001']);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(
      started().map((l) => l.split(' ').slice(0, 2).join(' ')),
      ['git-hook commit-msg'],
    );
    assert.match(noteOf('HEAD'), /^decisions: D-001$/m);
  });

  test('a note left by a commit that did not happen never lands on the next one (even one made with --no-verify)', () => {
    // commit-msg leaves the note, then git aborts: the message is empty once comments are stripped
    const aborted = commit(['--cleanup=strip', '-m', '# nothing but a comment per D-001']);
    assert.notEqual(aborted.status, 0);
    const r = commit(['--no-verify', '-m', 'made without hooks']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(noteOf('HEAD'), '', 'no stale note attached');
  });

  test('an agent session opened since the facts were written: an unmarked commit below its harness is bound again', () => {
    const sh = (command: string, input = '') => spawnSync('sh', ['-c', command], { cwd: dir, env, input, encoding: 'utf8' });
    const start = sh(
      `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} hook session-start`,
      JSON.stringify({ session_id: 'fast-path', hook_event_name: 'SessionStart', source: 'startup', cwd: dir, transcript_path: null }),
    );
    assert.equal(start.status, 0, start.stderr);
    writeFileSync(log, '');
    const r = sh('git commit -q --allow-empty -m "no marker, CLAUDECODE unset"');
    assert.equal(r.status, 1, "rejected: the session's harness (this process) is an ancestor");
    assert.match(r.stderr, /it runs inside agent session/);
    assert.ok(started().length > 0, 'Node ran: the facts did not hold');
    sh(
      `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} hook session-end`,
      JSON.stringify({ session_id: 'fast-path', hook_event_name: 'SessionEnd', reason: 'other', cwd: dir, transcript_path: null }),
    );
  });

  test('a change of the rules moves the memory tip: the shell stops trusting its facts', async () => {
    await cliText(dir, safetySet, { key: 'git.requireAxmeSuffix', value: 'always' }, { env });
    const r = commit(['-m', 'a person, now bound by always']);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /git\.requireAxmeSuffix is always/);
    await cliText(dir, safetySet, { key: 'git.requireAxmeSuffix', value: 'agents' }, { env });
  });

  test("a person's push of commits that cite no PR starts no Node; one citing a PR is checked", () => {
    const remote = join(dir, '..', `${dir.split('/').pop()}-remote.git`);
    git(dir, ['init', '-q', '--bare', remote]);
    git(dir, ['remote', 'add', 'origin', remote]);
    // the facts again: a commit through Node writes them, once the sessions folder has been still
    // for a while (the session of an earlier test ended a moment ago) — that while is made to pass
    const sessions = join(dir, '.git', 'axme', 'sessions');
    const past = new Date(Date.now() - 60_000);
    utimesSync(sessions, past, past);
    commit(['-m', 'refresh per D-001']);
    assert.ok(existsSync(join(dir, '.git', 'axme', 'git-hook-facts')), 'the facts were written');
    writeFileSync(log, '');
    const push = spawnSync('git', ['push', '-q', 'origin', 'HEAD:refs/heads/feature'], { cwd: dir, env, encoding: 'utf8' });
    assert.equal(push.status, 0, push.stderr);
    assert.deepEqual(started(), [], 'no pushed commit names a PR number');
    // a commit carrying PR 7 in its trailers (made without hooks: GitHub is not reachable from tests)
    assert.equal(commit(['--no-verify', '-m', 'for review', '-m', 'Axme-PR: 7\nAxme-Repo: acme/app']).status, 0);
    writeFileSync(log, '');
    spawnSync('git', ['push', '-q', 'origin', 'HEAD:refs/heads/feature'], { cwd: dir, env, encoding: 'utf8' });
    assert.ok(
      started().some((l) => l.startsWith('git-hook pre-push')),
      'a commit citing PR 7: pre-push asks about it',
    );
  });
});

describe('two worktrees committing at once: each commit gets its own note', () => {
  test("A's and B's commit-msg, then A's post-commit, then B's: each note lands on its own commit", async () => {
    const { dir, cleanup } = tempRepo({ commit: true });
    const base = join(dir, '..', dir.split('/').pop()!);
    const [wtA, wtB] = [`${base}-wt-a`, `${base}-wt-b`];
    try {
      const env = cleanEnv({ AXME_BIN: CLI, AXME_NODE: process.execPath, CLAUDECODE: '1' });
      await initCore(dir, { gitHooks: true }, { env: cleanEnv() });
      git(dir, ['worktree', 'add', '-q', wtA, '-b', 'agent-a']);
      git(dir, ['worktree', 'add', '-q', wtB, '-b', 'agent-b']);
      // each commit-msg, once axme's part has run, waits for the test to let it go on to post-commit
      appendFileSync(
        join(dir, '.git', 'hooks', 'commit-msg'),
        `\nif [ -n "$PAUSE_AT" ]; then touch "$PAUSE_AT.ready"; while [ ! -f "$PAUSE_AT" ]; do sleep 0.05; done; fi\n`,
      );
      /** Starts an agent's commit in `cwd`; it stops between commit-msg and post-commit until `go()`. */
      const startCommit = async (cwd: string, repo: string) => {
        const pause = `${cwd}.pause`;
        // the worst case: the same parent and the same subject, so only the worktree tells them apart
        const child = spawn('git', ['commit', '-q', '--allow-empty', '-m', 'fix lint', '-m', `#!axme pr=none repo=${repo}`], {
          cwd,
          env: { ...env, PAUSE_AT: pause },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr!.on('data', (c) => (stderr += c));
        const done = new Promise<number | null>((r) => child.on('close', r));
        await until(`the commit-msg hook in ${cwd} runs`, () => existsSync(`${pause}.ready`), { detail: () => stderr });
        return {
          go: async () => {
            writeFileSync(pause, '');
            assert.equal(await done, 0, stderr);
          },
        };
      };
      const a = await startCommit(wtA, 'acme/alpha');
      const b = await startCommit(wtB, 'acme/beta');
      await a.go();
      await b.go();
      const noteOf = (rev: string) => spawnSync('git', ['notes', '--ref=axme', 'show', rev], { cwd: dir, encoding: 'utf8' }).stdout;
      assert.match(noteOf('agent-a'), /^repo: acme\/alpha$/m, "A's commit has A's note");
      assert.match(noteOf('agent-b'), /^repo: acme\/beta$/m, "B's commit has B's note");
    } finally {
      for (const p of [`${wtA}.pause`, `${wtB}.pause`]) writeFileSync(p, ''); // no hook left waiting
      spawnSync('git', ['worktree', 'remove', '--force', wtA], { cwd: dir });
      spawnSync('git', ['worktree', 'remove', '--force', wtB], { cwd: dir });
      for (const p of [wtA, wtB, `${wtA}.pause`, `${wtB}.pause`, `${wtA}.pause.ready`, `${wtB}.pause.ready`]) rmSync(p, { recursive: true, force: true });
      cleanup();
    }
  });
});

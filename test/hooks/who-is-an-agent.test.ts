import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CLI, cleanEnv, git } from '../helpers.ts';
import { makeStore } from '../store-fixture.ts';
import { until } from '../until.ts';

/**
 * Who the git hooks take for an agent, and what a person's commit costs. The hooks are the real
 * ones `axme init` installs; commits are real `git commit`s, run through a shell the way a
 * person (an interactive shell: `bash -s` reads the commands the person types) or a harness
 * (`sh -c <command>`) runs them.
 */
describe('who is an agent: a person is never bound without knowing why', () => {
  let dir: string;
  let cleanup: () => void;
  const env = cleanEnv();
  const payload = (id: string) => JSON.stringify({ session_id: id, hook_event_name: 'SessionStart', source: 'startup', cwd: dir, transcript_path: null });
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { gitHooks: true } }));
  });
  after(() => cleanup());

  test('a SessionStart fed by hand from a terminal binds nothing: that terminal commits as a person', () => {
    // the person's shell: no -c, it reads what is typed (here: from stdin)
    const typed = `echo '${payload('typed-by-hand')}' | ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} hook session-start >/dev/null\ngit commit -q --allow-empty -m "a person's commit without a marker"\necho "exit=$?"\n`;
    const r = spawnSync('bash', ['-s'], { cwd: dir, env, input: typed, encoding: 'utf8' });
    assert.match(r.stdout, /exit=0/, r.stderr);
    assert.equal(git(dir, ['log', '-1', '--format=%s']).trim(), "a person's commit without a marker");
  });

  test("under a harness (a command shell below a process), the commit is an agent's and the rejection names the session and why", () => {
    // this test process plays the harness: it runs the hook and the commit through sh -c, as Claude Code does
    const sh = (command: string, input = '') => spawnSync('sh', ['-c', command], { cwd: dir, env, input, encoding: 'utf8' });
    assert.equal(sh(`${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} hook session-start`, payload('under-a-harness')).status, 0);
    const r = sh('git commit -q --allow-empty -m "an agent\'s commit without a marker"');
    assert.equal(r.status, 1);
    const sessions = readdirSync(join(dir, '.git', 'axme', 'sessions')).filter((n) => n.endsWith('.json'));
    const owned = sessions.map(
      (n) => JSON.parse(readFileSync(join(dir, '.git', 'axme', 'sessions', n), 'utf8')) as { id: string; harnessSessionId: string; ownerPid: number },
    );
    const agentSession = owned.find((s) => s.harnessSessionId === 'under-a-harness')!;
    assert.equal(agentSession.ownerPid, process.pid, 'the harness is the process above the command shell');
    assert.equal(owned.find((s) => s.harnessSessionId === 'typed-by-hand')!.ownerPid, 0, 'the hand-fed session has no owner');
    assert.match(r.stderr, new RegExp(`taken for an agent's commit: it runs inside agent session ${agentSession.id}`));
    assert.match(r.stderr, /#!axme pr=<N\|none> repo=<owner>\/<name>/);
  });

  test('CLAUDECODE=1 is named as the reason when it is what binds', () => {
    const r = spawnSync('git', ['commit', '-q', '--allow-empty', '-m', 'no marker'], { cwd: dir, env: { ...env, CLAUDECODE: '1' }, encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /taken for an agent's commit: CLAUDECODE=1 is set/);
  });
});

describe("post-commit: a person's plain commit gets no note; one that cites a decision does", () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { gitHooks: true } }));
  });
  after(() => cleanup());
  const noteOf = (rev: string) => spawnSync('git', ['notes', '--ref=axme', 'show', rev], { cwd: dir, env: cleanEnv(), encoding: 'utf8' });

  test('a plain commit: no note, and an amend of it has none to carry', () => {
    git(dir, ['commit', '-q', '--allow-empty', '-m', 'tidy the README']);
    assert.notEqual(noteOf('HEAD').status, 0, 'no note');
    git(dir, ['commit', '-q', '--amend', '--allow-empty', '-m', 'tidy the README files']);
    assert.notEqual(noteOf('HEAD').status, 0);
    assert.equal(spawnSync('git', ['rev-parse', '--verify', '-q', 'refs/notes/axme'], { cwd: dir, env: cleanEnv() }).status, 1, 'no notes ref was created');
  });

  test('a commit citing D-001 gets its note; an amend carries it over', () => {
    git(dir, ['commit', '-q', '--allow-empty', '-m', 'cache with Valkey, per D-001']);
    const note = noteOf('HEAD');
    assert.equal(note.status, 0, note.stderr);
    assert.match(note.stdout, /^decisions: D-001$/m);
    assert.match(note.stdout, /^branch: main$/m);
    git(dir, ['commit', '-q', '--amend', '--allow-empty', '-m', 'cache with Valkey (D-001)']);
    assert.match(noteOf('HEAD').stdout, /^decisions: D-001$/m);
  });
});

describe('the harness of a hook, from the process tree', () => {
  test("past command shells (sh -c) to the process that started them; a person's shell (no -c) is no harness", async () => {
    const { spawn } = await import('node:child_process');
    const { harnessOf } = await import('../../src/session/owner.ts');
    assert.equal(harnessOf(process.pid), process.pid, 'a process that is not a shell is the harness');
    const command = spawn('sh', ['-c', 'sleep 30'], { stdio: 'ignore' });
    const typed = spawn('bash', ['-s'], { stdio: ['pipe', 'ignore', 'ignore'] });
    typed.stdin.write('sleep 30\n');
    try {
      // wait until both children are the shells (not the forked node before exec), however loaded the machine
      const comm = (pid: number) => {
        try {
          return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
        } catch {
          return '';
        }
      };
      await until('both children are the shells', () => comm(command.pid!) === 'sh' && comm(typed.pid!) === 'bash');
      assert.equal(harnessOf(command.pid!), process.pid, 'sh -c is skipped');
      assert.equal(harnessOf(typed.pid!), null, "bash reading what is typed is a person's shell");
    } finally {
      command.kill();
      typed.kill();
    }
  });
});

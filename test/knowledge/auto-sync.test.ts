import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runAutoSync } from '../../src/knowledge/sync/auto-sync.ts';
import { decisionAdd } from '../../src/operations/decision/add.ts';
import { initCore } from '../core.ts';
import { CLI, cleanEnv, git } from '../helpers.ts';
import { hookInProcess } from '../hooks/hook-in-process.ts';
import { cliText } from '../store-fixture.ts';
import { until } from '../until.ts';

/**
 * sync.auto: the session hooks share the knowledge in the background. Real hooks (the built
 * binary fed Claude Code's payloads), a real bare remote; the background runs are waited for by
 * their outcome file, never by the clock.
 */
describe('sync.auto: knowledge kept in step by the session hooks, in the background', () => {
  let root: string;
  let remote: string;
  let dir: string;
  // the default: no AXME_SYNC_AUTO, so a repository with a remote syncs at session start and end
  const env = { ...cleanEnv(), AXME_SYNC_AUTO: '' };
  const hook = (event: string, sessionId: string) =>
    spawnSync(process.execPath, [CLI, 'hook', event], {
      cwd: dir,
      env,
      input: JSON.stringify({
        session_id: sessionId,
        hook_event_name: event === 'session-start' ? 'SessionStart' : 'SessionEnd',
        source: 'startup',
        reason: 'other',
        cwd: dir,
        transcript_path: null,
      }),
      encoding: 'utf8',
    });
  const record = () => {
    const p = join(dir, '.git', 'axme', 'auto-sync.json');
    return existsSync(p) ? (JSON.parse(readFileSync(p, 'utf8')) as { mode: string; last?: { at: string; reason: string; ok: boolean; error?: string } }) : null;
  };
  /** Waits until a background run newer than `since` has recorded its outcome. */
  const outcome = async (since: string) => {
    return until(
      'a background sync finishes',
      () => {
        const last = record()?.last;
        return last && last.at > since && !existsSync(join(dir, '.git', 'axme', 'auto-sync.pid')) && last;
      },
      { detail: () => readFileSync(join(dir, '.git', 'axme', 'auto-sync.log'), 'utf8') },
    );
  };
  const remoteTip = () => git(root, ['--git-dir', remote, 'rev-parse', '-q', '--verify', 'refs/memory/main']).trim();

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'axme-auto-sync-'));
    remote = join(root, 'remote.git');
    git(root, ['init', '-q', '--bare', remote]);
    dir = join(root, 'work');
    git(root, ['clone', '-q', remote, dir]);
    await initCore(dir);
  });
  after(() => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

  test('a session start shares what was saved since, without waiting for it', async () => {
    await cliText(dir, decisionAdd, { title: 'Saved before the session', decision: 'Shared by the hook.' });
    const since = new Date().toISOString();
    const r = hook('session-start', 'auto-1');
    assert.equal(r.status, 0, r.stderr);
    const last = await outcome(since);
    assert.equal(last.ok, true, last.error);
    assert.equal(last.reason, 'session-start');
    assert.equal(record()!.mode, 'session');
    assert.equal(remoteTip(), git(dir, ['rev-parse', 'refs/memory/main']).trim());
  });

  test('a session end shares what the session saved', async () => {
    await cliText(dir, decisionAdd, { title: 'Saved during the session', decision: 'Shared at its end.' });
    const since = new Date().toISOString();
    assert.equal(hook('session-end', 'auto-1').status, 0);
    const last = await outcome(since);
    assert.equal(last.ok, true, last.error);
    assert.equal(last.reason, 'session-end');
    assert.equal(remoteTip(), git(dir, ['rev-parse', 'refs/memory/main']).trim());
  });

  test('a hook answered inside another program starts axme for its background sync, not that program', async () => {
    // this test process is the host (its own script is a test file): the sync must still be axme's
    await cliText(dir, decisionAdd, { title: 'Saved before an in-process start', decision: 'Shared by the built axme.' });
    const since = new Date().toISOString();
    const r = await hookInProcess('session-start', {
      cwd: dir,
      env: { AXME_SYNC_AUTO: '' },
      input: JSON.stringify({ session_id: 'auto-in-1', hook_event_name: 'SessionStart', source: 'startup', cwd: dir, transcript_path: null }),
    });
    assert.equal(r.code, 0, r.stderr);
    const last = await outcome(since);
    assert.equal(last.ok, true, last.error);
    assert.equal(last.reason, 'session-start');
    assert.equal(remoteTip(), git(dir, ['rev-parse', 'refs/memory/main']).trim());
  });

  test('a failed background sync is told once, in the next session context, with what to run', async () => {
    git(dir, ['remote', 'set-url', 'origin', join(root, 'nowhere.git')]);
    const since = new Date().toISOString();
    assert.equal(hook('session-start', 'auto-2').status, 0);
    const last = await outcome(since);
    assert.equal(last.ok, false);
    const since2 = new Date().toISOString();
    const next = hook('session-start', 'auto-3');
    assert.match(next.stdout, /the background sync with origin at session-start failed at .*cannot reach remote origin.*run `axme sync` to see why/);
    // that session start tried again (and failed again: the remote is still gone)
    assert.equal((await outcome(since2)).ok, false);
    git(dir, ['remote', 'set-url', 'origin', remote]);
  });

  test('sync.auto commit: the knowledge also goes to the remote after each commit, in the background', async () => {
    await initCore(dir, { gitHooks: true }, { env }); // the git hooks
    const commitEnv = { ...env, AXME_SYNC_AUTO: 'commit' };
    const since0 = new Date().toISOString(); // before the hook: its background run may record before the hook returns
    const start = spawnSync(process.execPath, [CLI, 'hook', 'session-start'], {
      cwd: dir,
      env: commitEnv,
      input: JSON.stringify({ session_id: 'auto-5', hook_event_name: 'SessionStart', source: 'startup', cwd: dir, transcript_path: null }),
      encoding: 'utf8',
    });
    assert.equal(start.status, 0, start.stderr);
    assert.equal(record()!.mode, 'commit');
    await outcome(since0);
    await cliText(dir, decisionAdd, { title: 'Saved before a commit', decision: 'Shared after it.' }, { env });
    const since = new Date().toISOString();
    const c = spawnSync(
      'git',
      ['-c', 'user.name=A', '-c', 'user.email=a@example.com', 'commit', '-q', '--allow-empty', '-m', 'code change', '-m', '#!axme pr=none repo=acme/app'],
      { cwd: dir, env, encoding: 'utf8' },
    );
    assert.equal(c.status, 0, c.stderr);
    const last = await outcome(since);
    assert.equal(last.reason, 'commit');
    assert.equal(last.ok, true, last.error);
    assert.equal(remoteTip(), git(dir, ['rev-parse', 'refs/memory/main']).trim());
    spawnSync(process.execPath, [CLI, 'hook', 'session-start'], {
      cwd: dir,
      env: { ...env, AXME_SYNC_AUTO: 'off' },
      input: JSON.stringify({ session_id: 'auto-6', hook_event_name: 'SessionStart', source: 'startup', cwd: dir, transcript_path: null }),
      encoding: 'utf8',
    });
  });

  test('AXME_SYNC_AUTO=off: no background sync', async () => {
    const before = record()!.last!.at;
    const r = spawnSync(process.execPath, [CLI, 'hook', 'session-start'], {
      cwd: dir,
      env: { ...env, AXME_SYNC_AUTO: 'off' },
      input: JSON.stringify({ session_id: 'auto-4', hook_event_name: 'SessionStart', source: 'startup', cwd: dir, transcript_path: null }),
      encoding: 'utf8',
    });
    assert.equal(r.status, 0);
    assert.equal(record()!.mode, 'off');
    assert.ok(!existsSync(join(dir, '.git', 'axme', 'auto-sync.pid')), 'none started');
    assert.equal(record()!.last!.at, before);
  });

  test("one background sync at a time: a live run's lock makes another do nothing; a dead one's is taken over", () => {
    const lock = join(dir, '.git', 'axme', 'auto-sync.pid');
    const before = record()!.last!.at;
    writeFileSync(lock, `${process.pid} ${new Date().toISOString()}\n`); // this test process: alive
    const held = spawnSync(process.execPath, [CLI, 'sync', '--auto', 'manual'], { cwd: dir, env, encoding: 'utf8' });
    assert.equal(held.status, 0, held.stderr);
    assert.match(held.stderr, /another background sync is running/);
    assert.equal(record()!.last!.at, before, 'nothing ran');
    assert.match(readFileSync(lock, 'utf8'), new RegExp(`^${process.pid} `), "the live run's lock is left alone");
    writeFileSync(lock, '999999999\n'); // a run that died, in the old one-number form
    const taken = spawnSync(process.execPath, [CLI, 'sync', '--auto', 'manual'], { cwd: dir, env, encoding: 'utf8' });
    assert.equal(taken.status, 0, taken.stderr);
    assert.equal(record()!.last!.reason, 'manual');
    assert.equal(record()!.last!.ok, true, record()!.last!.error);
    assert.ok(!existsSync(lock), 'released at the end');
  });

  test('two runs at once in one process: the second does nothing while the first holds the lock', async () => {
    let calls = 0;
    let finish!: () => void;
    const slow = () => {
      calls++;
      return new Promise<{ remote: string; text: string }>((resolve) => (finish = () => resolve({ remote: 'origin', text: 'synced' })));
    };
    const common = join(dir, '.git');
    const first = runAutoSync(
      common,
      'manual',
      () => new Date(),
      slow,
      () => assert.fail('no timeout'),
    );
    assert.equal(
      await runAutoSync(
        common,
        'manual',
        () => new Date(),
        slow,
        () => assert.fail('no timeout'),
      ),
      null,
    );
    assert.equal(calls, 1);
    finish();
    assert.deepEqual(await first, { remote: 'origin', text: 'synced' });
    assert.ok(!existsSync(join(common, 'axme', 'auto-sync.pid')));
  });
});

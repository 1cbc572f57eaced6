import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { decisionAdd } from '../../src/operations/decision/add.ts';
import { coreAt, initCore } from '../core.ts';
import { CLI, cleanEnv, git, tempRepo } from '../helpers.ts';
import { cliJson } from '../store-fixture.ts';

const ROUNDS = 24;

/** Starts `axme decision add` and SIGKILLs it after `delayMs` (if it is still running). */
function addAndKill(dir: string, title: string, delayMs: number): Promise<'killed' | 'finished'> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'decision', 'add', '--title', title, '--decision', 'x'], { cwd: dir, env: cleanEnv(), stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve(signal === 'SIGKILL' ? 'killed' : 'finished');
    });
  });
}

test('a writer killed with SIGKILL at any moment never corrupts the store or loses committed items', { timeout: 300_000 }, async (t) => {
  const { dir, cleanup } = tempRepo();
  try {
    await initCore(dir, { claude: true, gitHooks: true, scan: 'if-new' });
    let committed = new Set<string>();
    const outcomes = { killed: 0, finished: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      // spread the kill over start-up, reading, object writing and the ref update
      outcomes[await addAndKill(dir, `Crash round ${round}`, 40 + Math.floor(Math.random() * 400))]++;
      assert.equal(git(dir, ['cat-file', '-t', 'refs/memory/main']).trim(), 'commit', `round ${round}: the ref points to a commit`);
      const items = (await coreAt(dir).list('decision')) as Array<{ title: string }>;
      const now = new Set(items.map((d) => d.title));
      for (const t of committed) assert.ok(now.has(t), `round ${round}: ${t} was committed earlier and is still there`);
      committed = now;
    }
    t.diagnostic(`writers killed: ${outcomes.killed}, finished before the kill: ${outcomes.finished}`);
    assert.ok(outcomes.killed > 0, `some writers were killed (${JSON.stringify(outcomes)})`);
    const fsck = await coreAt(dir).fsck();
    assert.equal(fsck.ok, true, JSON.stringify(fsck.findings));
    git(dir, ['fsck', '--strict', '--no-progress']);
    // every round's item that was reported committed is present; a later write still works
    const last = await cliJson(dir, decisionAdd, { title: 'After the crashes', decision: 'ok' });
    assert.equal(last.duplicate, false);
  } finally {
    cleanup();
  }
});

test('stale locks left by dead writers do not block the next writer', { timeout: 60_000 }, async () => {
  const { dir, cleanup } = tempRepo();
  try {
    await initCore(dir, { claude: true, gitHooks: true, scan: 'if-new' });
    // the advisory lock of a writer whose process is gone
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => dead.on('exit', r));
    mkdirSync(join(dir, '.git/axme'), { recursive: true });
    writeFileSync(join(dir, '.git/axme/write.lock'), `${dead.pid} ${(await import('node:os')).hostname()} 0 dead`);
    // git's own ref lock, left behind a minute ago by a crashed update
    const refLock = join(dir, '.git/refs/memory/main.lock');
    writeFileSync(refLock, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(refLock, old, old);
    // the next writer in this process: the locks it meets are the files a dead process left
    const r = await cliJson(dir, decisionAdd, { title: 'After a crash', decision: 'works' });
    assert.equal(r.id, 'D-001');
    assert.equal(git(dir, ['show', 'refs/memory/main:decisions/after-a-crash.md']).includes('works'), true);
  } finally {
    cleanup();
  }
});

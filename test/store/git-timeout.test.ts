import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runGit } from '../../src/store/git.ts';
import { processAlive } from '../../src/store/processes.ts';
import { cleanEnv } from '../helpers.ts';
import { HANG_BOUND_MS } from '../until.ts';

test('a git command that outlives its timeout is stopped and reported as UNAVAILABLE', { timeout: HANG_BOUND_MS }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'axme-git-timeout-'));
  const pidFile = join(dir, 'pid');
  try {
    // the alias's shell names itself, then sleeps past the test's own bound: an answer at all
    // means the timeout answered, not git's end (nor that of what git started, holding its pipes)
    await assert.rejects(
      runGit(['-c', `alias.slow=!echo $$ > '${pidFile}' && exec sleep 900`, 'slow'], { env: cleanEnv(), timeoutMs: 300 }),
      (err: Error & { code?: string }) => err.code === 'UNAVAILABLE' && /did not finish within/.test(err.message),
    );
    const ok = await runGit(['version'], { env: cleanEnv(), timeoutMs: HANG_BOUND_MS });
    assert.match(ok.stdout.toString(), /^git version/);
  } finally {
    // the sleep, if it started (SIGTERM to git need not reach it; one started after this look ends by itself)
    let pid = 0;
    try {
      pid = Number.parseInt(readFileSync(pidFile, 'utf8'), 10);
    } catch {
      // stopped before the shell ran
    }
    if (pid > 0 && processAlive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

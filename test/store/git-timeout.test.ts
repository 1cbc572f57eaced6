import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runGit } from '../../src/store/git.ts';
import { cleanEnv } from '../helpers.ts';

test('a git command that outlives its timeout is stopped and reported as UNAVAILABLE', async () => {
  const started = Date.now();
  await assert.rejects(
    runGit(['-c', 'alias.slow=!sleep 20', 'slow'], { env: cleanEnv(), timeoutMs: 300 }),
    (err: Error & { code?: string }) => err.code === 'UNAVAILABLE' && /did not finish within 0 s|did not finish within/.test(err.message),
  );
  assert.ok(Date.now() - started < 15_000, 'stopped, not waited for');
  const ok = await runGit(['version'], { env: cleanEnv(), timeoutMs: 10_000 });
  assert.match(ok.stdout.toString(), /^git version/);
});

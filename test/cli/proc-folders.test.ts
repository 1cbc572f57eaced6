/**
 * A folder axme makes from a path it was given through the environment (XDG_CACHE_HOME for the
 * models) where the file system takes none (/proc/nope): the command ends at once with a
 * FILE_SYSTEM error saying what to do, never a hang (Node 20's recursive mkdir spins there).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, test } from 'node:test';
import { fileSystemError } from '../../src/model/file-system-error.ts';
import { makeFolder } from '../../src/model/make-folder.ts';
import { CLI, cleanEnv, tempRepo } from '../helpers.ts';
import { HANG_BOUND_MS } from '../until.ts';

/** Runs the built CLI to its exit; one that has not exited within HANG_BOUND_MS is killed and reported `hung` (the bound is against a hang only). */
function runBounded(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string; hung: boolean }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: cleanEnv(env), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let hung = false;
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const killer = setTimeout(() => {
    hung = true;
    child.kill('SIGKILL');
  }, HANG_BOUND_MS);
  return new Promise((resolve) => child.on('exit', (code) => (clearTimeout(killer), resolve({ code, stderr, hung }))));
}

describe('a folder under /proc', { skip: process.platform !== 'linux' }, () => {
  test('fileSystemError says a mkdir refused under /proc as FILE_SYSTEM, with what to do', () => {
    let err: unknown;
    try {
      makeFolder('/proc/nope/axme');
    } catch (e) {
      err = e;
    }
    const said = fileSystemError(err);
    assert.equal(said?.code, 'FILE_SYSTEM');
    assert.match(said!.message, /cannot mkdir \/proc\/nope: .*takes no new folder.*give a path on a disk you can write to/);
  });

  test('axme models pull with XDG_CACHE_HOME=/proc/nope: exit 1 at once, saying what to do', async () => {
    const repo = tempRepo({ commit: true });
    try {
      const r = await runBounded(repo.dir, ['models', 'pull'], { XDG_CACHE_HOME: '/proc/nope', AXME_MODELS_URL: 'http://127.0.0.1:9' });
      assert.equal(r.hung, false, 'axme models pull did not exit');
      assert.equal(r.code, 1, r.stderr);
      assert.doesNotMatch(r.stderr, /internal/i);
      assert.match(r.stderr, /cannot mkdir \/proc\/nope: .*give a path on a disk you can write to/);
    } finally {
      repo.cleanup();
    }
  });
});

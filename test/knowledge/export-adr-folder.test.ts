/**
 * `axme export adr` to a folder it cannot use says which path is wrong and what to do: a path
 * under a file (ENOTDIR) and a folder it may not write to (EACCES) are INVALID_INPUT (exit 2),
 * never an internal error (docs/import.md, "Exporting ADRs").
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { exportAdr } from '../../src/operations/export/adr.ts';
import { coreAt, exitCodeOf, rejectsWith, withCore } from '../core.ts';
import { axme, CLI, cleanEnv, tempRepo } from '../helpers.ts';
import { HANG_BOUND_MS } from '../until.ts';

async function repoWithDecision() {
  const repo = tempRepo({ commit: true });
  await coreAt(repo.dir).init();
  await coreAt(repo.dir).addDecision({ title: 'Use queues for email', decision: 'Send email through the job queue.' });
  return repo;
}

/** Runs the built CLI to its exit; one that has not exited within HANG_BOUND_MS is killed and reported `hung` (the bound is against a hang only). */
function runBounded(cwd: string, args: string[]): Promise<{ code: number | null; stderr: string; hung: boolean }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: cleanEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let hung = false;
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const killer = setTimeout(() => {
    hung = true;
    child.kill('SIGKILL');
  }, HANG_BOUND_MS);
  return new Promise((resolve) => child.on('exit', (code) => (clearTimeout(killer), resolve({ code, stderr, hung }))));
}

describe('axme export adr: a folder it cannot use', () => {
  test('a folder the file system makes none of (/proc/nope, /proc/nope/deeper): refused at once, exit 2, saying what to do', {
    skip: process.platform !== 'linux',
  }, async () => {
    const repo = await repoWithDecision();
    try {
      for (const dir of ['/proc/nope', '/proc/nope/deeper']) {
        const r = await runBounded(repo.dir, ['export', 'adr', dir]);
        assert.equal(r.hung, false, `axme export adr ${dir} did not exit`);
        assert.equal(r.code, 2, r.stderr);
        assert.doesNotMatch(r.stderr, /internal/i);
        assert.match(r.stderr, /cannot make the folder \/proc\/nope: .*export to a folder on a disk you can write to/);
      }
    } finally {
      repo.cleanup();
    }
  });

  test('a path under a file: INVALID_INPUT naming the file, exit 2, in the core and the CLI', async () => {
    const repo = await repoWithDecision();
    try {
      writeFileSync(join(repo.dir, 'notes.txt'), 'x\n');
      const err = await withCore(repo.dir, (kb) =>
        rejectsWith(exportAdr.run(kb, { dir: join(repo.dir, 'notes.txt', 'sub') }), 'INVALID_INPUT', /notes\.txt is a file, not a folder.*give a folder/),
      );
      assert.equal(exitCodeOf(err), 2);
      const r = await axme(repo.dir, ['export', 'adr', 'notes.txt/sub']);
      assert.equal(r.code, 2, r.stderr);
      assert.doesNotMatch(r.stderr, /internal/i);
      assert.match(r.stderr, /notes\.txt is a file, not a folder/);
    } finally {
      repo.cleanup();
    }
  });

  test('a folder it may not write to: INVALID_INPUT naming the folder, exit 2, nothing written', async () => {
    const repo = await repoWithDecision();
    try {
      const out = join(repo.dir, 'out');
      mkdirSync(out);
      chmodSync(out, 0o555);
      // root may write anywhere: run the CLI as an unprivileged user then
      const asRoot = process.getuid?.() === 0;
      let r: { code: number; stderr: string };
      if (asRoot) {
        spawnSync('chmod', ['-R', 'a+rX', repo.dir]);
        const p = spawnSync(process.execPath, [CLI, 'export', 'adr', 'out'], {
          cwd: repo.dir,
          uid: 65534,
          gid: 65534,
          encoding: 'utf8',
          env: { PATH: process.env.PATH, HOME: repo.dir, GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'safe.directory', GIT_CONFIG_VALUE_0: '*' },
        });
        r = { code: p.status ?? -1, stderr: p.stderr };
      } else r = await axme(repo.dir, ['export', 'adr', 'out']);
      assert.equal(r.code, 2, r.stderr);
      assert.doesNotMatch(r.stderr, /internal/i);
      assert.match(r.stderr, /cannot write to .*out.*export to a folder you can write to/);
      assert.deepEqual(readdirSync(out), []);
      assert.ok(!existsSync(join(out, 'README.md')));
    } finally {
      chmodSync(join(repo.dir, 'out'), 0o755);
      repo.cleanup();
    }
  });
});

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axmeOk, CLI, cleanEnv, git, tempRepo } from '../helpers.ts';

// An agent's `axme <write>` through the shell inside the kernel sandbox, where the repository's
// .git is read-only (real bubblewrap binds its refs read-only here, as the sandbox does): the
// error says what to do — the operation's MCP tool, or running it outside the sandbox — instead of
// "cannot lock refs/memory/main: EROFS: read-only file system".

const hasBwrap = spawnSync('bwrap', ['--ro-bind', '/', '/', 'true']).status === 0;

describe('a knowledge write refused by a read-only git folder says what to do', { skip: !hasBwrap && 'bubblewrap cannot run here' }, () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    await axmeOk(dir, ['init']);
  });
  after(() => cleanup());

  const inReadOnly = (args: string[]) => {
    const refs = join(dir, '.git', 'refs');
    return spawnSync('bwrap', ['--bind', '/', '/', '--ro-bind', refs, refs, '--dev', '/dev', '--chdir', dir, process.execPath, CLI, ...args], {
      cwd: dir,
      env: cleanEnv({ CLAUDECODE: '1' }),
      encoding: 'utf8',
    });
  };

  for (const row of [
    { args: ['decision', 'add', '--title', 'Use Postgres', '--decision', 'We use Postgres.'], tool: 'axme_save_decision' },
    { args: ['memory', 'add', '--title', 'Run tsx', '--description', 'Run tests through tsx.', '--type', 'feedback'], tool: 'axme_save_memory' },
  ]) {
    test(`axme ${row.args.slice(0, 2).join(' ')}`, () => {
      const tip = git(dir, ['rev-parse', 'refs/memory/main']);
      const r = inReadOnly(row.args);
      assert.equal(r.status, 1, r.stderr);
      assert.doesNotMatch(r.stderr, /cannot lock/);
      assert.match(r.stderr, /read-only/);
      assert.ok(r.stderr.includes(`use the MCP tool ${row.tool}`), r.stderr);
      assert.match(r.stderr, /outside the sandbox/);
      assert.equal(git(dir, ['rev-parse', 'refs/memory/main']), tip, 'nothing written');
    });
  }
});

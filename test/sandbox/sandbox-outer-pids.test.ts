/**
 * A command in axme's sandbox knows the processes above the sandbox (SANDBOX_OUTER_PIDS_ENV): its
 * process namespace hides them, and a git hook there finds the agent session it runs in by its
 * harness being an ancestor. Read back only inside a sandbox: outside, the variable names nothing.
 * Real bubblewrap, the built binary.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SANDBOX_OUTER_PIDS_ENV } from '../../src/model/sandbox.ts';
import { outerAncestors } from '../../src/session/owner.ts';
import { CLI, cleanEnv, sandboxProject } from '../helpers.ts';

const bwrapWorks = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--', '/bin/true']).status === 0;

test('outside a sandbox the variable is not read: a process cannot name another session owner as its ancestor', () => {
  assert.deepEqual(outerAncestors({ [SANDBOX_OUTER_PIDS_ENV]: `${process.ppid} 4242` }), []);
});

describe('axme sandbox -c hands the command its ancestors outside', { skip: !bwrapWorks && 'bubblewrap cannot start a sandbox here' }, () => {
  let project: string;
  let home: string;
  let cleanup: () => void;
  before(() => ({ project, home, cleanup } = sandboxProject('outer-pids-')));
  after(() => cleanup());

  test('the ids above the sandbox, this test among them, and read back inside it', async () => {
    const probe = `import { outerAncestors } from ${JSON.stringify(join(process.cwd(), 'src/session/owner.ts'))}; console.log(JSON.stringify(outerAncestors(process.env)));`;
    const child = spawn(
      process.execPath,
      [CLI, 'sandbox', '-c', `cat /proc/1/comm; echo "pids:$${SANDBOX_OUTER_PIDS_ENV}"; ${process.execPath} --import tsx -e '${probe}'`],
      { cwd: project, env: cleanEnv({ HOME: home, AXME_SANDBOX: 'auto' }), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0, err);
    const [comm, listed, read] = out.trim().split('\n');
    assert.equal(comm, 'bwrap', 'the command ran in its own process namespace');
    const pids = listed!
      .replace(/^pids:/, '')
      .trim()
      .split(/\s+/)
      .map(Number);
    assert.ok(
      pids.includes(child.pid!) && pids.includes(process.pid),
      `the CLI and this test are above the sandbox: ${listed} (CLI ${child.pid}, test ${process.pid})`,
    );
    assert.deepEqual(JSON.parse(read!), pids, 'read back inside the sandbox as the same ids, nearest first');
  });
});

import assert from 'node:assert/strict';
import { Readable, Writable } from 'node:stream';
import { test } from 'node:test';
import { run } from '../../src/cli/main.ts';
import { axmeSelf } from '../../src/model/axme-self.ts';
import { cleanEnv, git, tempRepo } from '../helpers.ts';

/** `axme <args>` in-process as a host that started no axme script would run it (`self: null`). */
async function withoutSelf(cwd: string, args: string[], input = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const sink = (add: (s: string) => void) => new Writable({ write: (c, _e, done) => (add(String(c)), done()) });
  const code = await run(args, {
    cwd,
    env: cleanEnv(),
    stdin: Readable.from([Buffer.from(input)]),
    stdout: sink((s) => (stdout += s)),
    stderr: sink((s) => (stderr += s)),
    self: null,
  });
  return { code, stdout, stderr };
}

test('the axme a process is: its node and script, or none without a script', () => {
  assert.deepEqual(axmeSelf('/usr/bin/node', '/opt/axme/dist/axme.cjs'), { execPath: '/usr/bin/node', script: '/opt/axme/dist/axme.cjs' });
  assert.equal(axmeSelf('/usr/bin/node', undefined), null);
  assert.equal(axmeSelf('/usr/bin/node', ''), null);
});

test('no known axme: init refuses with a usage error and writes nothing; a hook still answers', async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    const init = await withoutSelf(dir, ['init', '--no-scan']);
    assert.equal(init.code, 2, init.stderr);
    assert.match(init.stderr, /not started as a script: run the axme executable/);
    assert.equal(git(dir, ['for-each-ref', 'refs/memory/']), '');
    const hook = await withoutSelf(dir, ['hook', 'pre-tool-use'], JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: dir }));
    assert.equal(hook.code, 0, hook.stderr);
  } finally {
    cleanup();
  }
});

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { TS_NODE_ARGS } from '../helpers.ts';

// startDetachedAxme (src/store/processes.ts) starts the background workers (the audit, the search
// index, the auto sync) from hooks and servers: a start that fails must cost only the worker, never
// the process that asked for it. Run in a process of its own, since the failure it guards against
// ends the process.

const PROCESSES = resolve(import.meta.dirname, '../../src/store/processes.ts');

test('a worker that cannot start (its folder gone) does not end the process that started it', () => {
  const script = `
    const { startDetachedAxme } = await import(${JSON.stringify(PROCESSES)});
    const started = startDetachedAxme({ execPath: process.execPath, script: '/nonexistent/axme.js' }, ['search'], { cwd: '/nonexistent-axme-folder', env: process.env, log: null });
    // the spawn's failure comes on a later tick: still alive two turns of the event loop on
    setImmediate(() => setImmediate(() => console.log('alive', started)));
  `;
  const r = spawnSync(process.execPath, [...TS_NODE_ARGS, '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^alive (\d+|null)\n$/);
});

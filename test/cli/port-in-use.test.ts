import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { CLI, cleanEnv } from '../helpers.ts';
import { makeStore } from '../store-fixture.ts';
import { HANG_BOUND_MS } from '../until.ts';

/**
 * `axme serve --http` and `axme ui` on a port another program holds: what only the binary shows,
 * its exit code and its stderr. A port in use is the user's set-up (exit 2), said with the way out.
 */

/** Runs the built CLI until it exits; one that starts listening instead (prints a URL) is stopped and reported `listening`. */
function runServer(dir: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; listening: boolean }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: dir, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let listening = false;
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    if (!listening && /^http:\/\/\S+\n/.test(stdout)) {
      listening = true;
      child.kill('SIGTERM');
    }
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), HANG_BOUND_MS);
  return new Promise((resolve) => child.on('close', (code) => (clearTimeout(killer), resolve({ code, stdout, stderr, listening }))));
}

describe('a port already in use', () => {
  let dir: string;
  let cleanup: () => void;
  let holder: Server;
  let port: number;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { scan: 'if-new' }, commit: false }));
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    port = (holder.address() as { port: number }).port;
  });
  after(async () => {
    await new Promise((resolve) => holder.close(resolve));
    cleanup();
  });

  for (const command of [
    ['serve', '--http'],
    ['ui', '--host', '127.0.0.1'],
  ])
    test(`axme ${command.join(' ')} --port <taken> is a configuration error (exit 2) naming the port and --port`, async () => {
      const r = await runServer(dir, [...command, '--port', String(port)]);
      assert.equal(r.listening, false, `it listened: ${r.stdout}`);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, new RegExp(`port ${port}\\b[^\\n]*in use`));
      assert.match(r.stderr, /--port/);
      assert.doesNotMatch(r.stderr, /internal error|EADDRINUSE|\n\s+at /);
    });
});

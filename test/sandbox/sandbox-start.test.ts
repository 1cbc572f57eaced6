/**
 * The sandbox's start when a server's socket goes away at the wrong moment: the start text covers
 * each socket the policy found only if the shell still sees it, and one removed after that look but
 * before bubblewrap's mount makes bubblewrap's set-up fail ("Can't mkdir parents for …: Read-only
 * file system") before the command runs. The start is tried again then; a command that started is
 * never run twice. The moment is made exact by a stand-in for bubblewrap that removes the socket's
 * folder and then runs the real one. Real bubblewrap, real servers on Unix sockets.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SANDBOX_SHELL } from '../../src/model/sandbox.ts';
import { shellQuote } from '../../src/model/shell-quote.ts';
import { bwrapRun, sandboxInner } from '../../src/sandbox/bwrap.ts';
import { type SandboxPolicy, sandboxPolicy } from '../../src/sandbox/policy.ts';
import { cleanEnv, sandboxWorldBase } from '../helpers.ts';

const bwrapWorks = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--', '/bin/true']).status === 0;

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(line: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(SANDBOX_SHELL, ['-c', line], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const listen = (path: string) =>
  new Promise<Server>((resolve) => {
    const server = createServer((c) => c.destroy());
    server.listen(path, () => resolve(server));
  });

describe("a socket gone between the start's look and bubblewrap's mount", { skip: !bwrapWorks && 'bubblewrap cannot start a sandbox here' }, () => {
  let root: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  let servers: Server[];
  let policy: SandboxPolicy;
  before(async () => {
    mkdirSync(sandboxWorldBase(), { recursive: true });
    root = mkdtempSync(join(sandboxWorldBase(), 'start-'));
    project = join(root, 'project');
    mkdirSync(project);
    // a folder of sockets only (covered whole) and a socket beside a file (covered alone)
    for (const d of ['agents', 'mixed']) mkdirSync(join(root, d));
    writeFileSync(join(root, 'mixed', 'notes.txt'), 'x\n');
    servers = [await listen(join(root, 'agents', 'a.sock')), await listen(join(root, 'mixed', 'b.sock'))];
    env = cleanEnv({ HOME: join(root, 'home') });
    policy = sandboxPolicy({ loc: null, cwd: project, home: join(root, 'home'), env, guarded: [] });
    assert.ok(policy.servers.socketFolders.includes(join(root, 'agents')), JSON.stringify(policy.servers));
    assert.ok(policy.servers.sockets.includes(join(root, 'mixed', 'b.sock')), JSON.stringify(policy.servers));
  });
  after(async () => {
    for (const s of servers) await new Promise((r) => s.close(r));
    rmSync(root, { recursive: true, force: true });
  });

  /** A stand-in for bubblewrap that counts its starts, runs `first` on the first one only, then the real bubblewrap. */
  function standIn(name: string, first: string): { path: string; starts: () => number } {
    const dir = join(root, name);
    mkdirSync(dir);
    const path = join(dir, 'bwrap');
    const count = join(dir, 'starts');
    writeFileSync(
      path,
      `#!/bin/sh\necho start >> ${shellQuote(count)}\nif [ ! -e ${shellQuote(`${count}.first`)} ]; then : > ${shellQuote(`${count}.first`)}; ${first || ':'}; fi\nexec bwrap "$@"\n`,
    );
    chmodSync(path, 0o755);
    return { path, starts: () => (existsSync(count) ? readFileSync(count, 'utf8').split('\n').filter(Boolean).length : 0) };
  }

  const line = (bwrap: string, command: string, p = policy) => bwrapRun(bwrap, p, project, sandboxInner(p, SANDBOX_SHELL, shellQuote(command)));

  test('a socket removed with its folder as bubblewrap starts: the start is tried again, the command runs once', async () => {
    const b = standIn('gone-folder', `rm -rf ${shellQuote(join(root, 'mixed'))}`);
    const r = await run(line(b.path, 'echo ran'), project, env);
    assert.equal(r.stdout, 'ran\n', r.stderr);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(b.starts(), 2, 'bubblewrap was started twice');
    assert.match(r.stderr, /the sandbox did not start .*starting it again/, "the retry is said, beside bubblewrap's own message");
  });

  test('a folder of sockets removed as bubblewrap starts: the same', async () => {
    const b = standIn('gone-agents', `rm -rf ${shellQuote(join(root, 'agents'))}`);
    const r = await run(line(b.path, 'echo ran'), project, env);
    assert.equal(r.stdout, 'ran\n', r.stderr);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(b.starts(), 2);
  });

  test('a command that started and failed with status 1 is not run again', async () => {
    const b = standIn('failed', '');
    const r = await run(line(b.path, 'echo ran; exit 1'), project, env);
    assert.equal(r.stdout, 'ran\n', r.stderr);
    assert.equal(r.status, 1);
    assert.equal(b.starts(), 1, 'bubblewrap was started once');
    assert.doesNotMatch(r.stderr, /starting it again/);
  });

  test('a start that can never succeed gives up after three, the command never run, status 1', async () => {
    const b = standIn('never', '');
    // a path bubblewrap must cover that is never there: a hidden file in no folder at all
    const never = { ...policy, hiddenFiles: [...policy.hiddenFiles, join(root, 'no such folder', 'x.env')] };
    const r = await run(line(b.path, 'echo ran', never), project, env);
    assert.equal(r.stdout, '', 'the command did not run');
    assert.equal(r.status, 1);
    assert.equal(b.starts(), 3);
    assert.match(r.stderr, /bwrap: Can't mkdir parents/);
  });

  test("the command's status, stdin and stdout are its own", async () => {
    const b = standIn('plain', '');
    const child = spawn(SANDBOX_SHELL, ['-c', line(b.path, 'read -r x; echo "got $x"; echo err >&2; exit 7')], {
      cwd: project,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end('hello\n');
    const status = await new Promise((resolve) => child.on('close', resolve));
    assert.equal(stdout, 'got hello\n', stderr);
    assert.equal(stderr, 'err\n');
    assert.equal(status, 7);
  });
});

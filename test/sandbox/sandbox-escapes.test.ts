/**
 * The kernel sandbox against servers outside it (docs/safety.md, "The machine's servers"): a
 * command that cannot write a file itself may ask a server the user started to write it — tmux,
 * the session bus and systemd's user manager, docker, an ssh or gpg agent — and that server runs
 * it with none of the sandbox's limits. Each case starts the real server (tmux, ssh-agent) or a
 * stand-in that runs with /bin/sh what a client sends (as docker's daemon runs any container, and
 * systemd-run any command), on its own socket under this test's world, whose runtime folder and
 * tmux folder the policy is told about through XDG_RUNTIME_DIR and TMUX_TMPDIR. The same client
 * command is run without the sandbox first, so the test sees the effect happen where nothing cuts
 * it off; in the sandbox the effect must not happen. Real bubblewrap, tmux, socat and ssh-agent.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { shellQuote } from '../../src/model/shell-quote.ts';
import { parseYamlText } from '../../src/model/yaml-text.ts';
import { bwrapRun, sandboxInner } from '../../src/sandbox/bwrap.ts';
import { type PolicyInput, sandboxPolicy } from '../../src/sandbox/policy.ts';
import { readSandboxSettings } from '../../src/sandbox/settings.ts';
import { axme, cleanEnv, git, sandboxWorldBase } from '../helpers.ts';

const BASE = sandboxWorldBase();
const has = (p: string) => spawnSync('sh', ['-c', `command -v ${p}`]).status === 0;
const bwrapWorks = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--', '/bin/true']).status === 0;
const runnable = bwrapWorks && has('socat');
const UID = process.getuid?.() ?? 0;

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `line` run by bash with `env`, to its end (not spawnSync: the servers answer from this process). */
function runLine(line: string, env: NodeJS.ProcessEnv, cwd: string): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn('/bin/bash', ['-c', line], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * A stand-in for a server that runs what its clients ask, as the user: it reads a client's text
 * to its end, runs it with /bin/sh, and answers `ran <status>`. `path` is a file path, or an
 * abstract name after a NUL.
 */
async function shellServer(path: string): Promise<{ server: Server; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer({ allowHalfOpen: true }, (conn) => {
    let text = '';
    conn.on('data', (d: Buffer) => (text += d.toString()));
    conn.on('end', () => {
      asked.push(text);
      const sh = spawn('/bin/sh', ['-c', text], { stdio: 'ignore' });
      sh.on('close', (code) => conn.end(`ran ${code}\n`));
    });
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return { server, asked };
}

/** The same stand-in on an abstract socket (`@name`), served by socat: node cannot name one socat reaches. Stopped with its process. */
async function abstractShellServer(name: string): Promise<ChildProcess> {
  const child = spawn('socat', ['-d', '-d', `ABSTRACT-LISTEN:${name},fork`, 'EXEC:/bin/sh'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      if (/listening on/.test(err)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`socat stopped (${code}): ${err}`)));
  });
  return child;
}

/** The client of a shell server: sends `script` to the socket at `address` (a socat address) and waits for the answer. */
const askServer = (address: string, script: string) => `printf '%s\\n' ${shellQuote(script)} | socat -t 60 - ${shellQuote(address)}`;

interface World {
  root: string;
  project: string;
  home: string;
  /** read-only in the sandbox: where an escape leaves its mark */
  outside: string;
  /** the user's runtime folder (XDG_RUNTIME_DIR), as /run/user/$UID */
  runtime: string;
  /** TMUX_TMPDIR: tmux's sockets are in tmux-$UID under it */
  tmuxTmp: string;
}

function makeWorld(): World {
  mkdirSync(BASE, { recursive: true });
  const root = mkdtempSync(join(BASE, 'escapes-'));
  const w = {
    root,
    project: join(root, 'project'),
    home: join(root, 'home'),
    outside: join(root, 'outside'),
    runtime: join(root, 'run', 'user', String(UID)),
    tmuxTmp: join(root, 'tmux'),
  };
  for (const d of [w.project, w.home, w.outside, w.runtime, w.tmuxTmp]) mkdirSync(d, { recursive: true, mode: 0o700 });
  return w;
}

/** The environment of a client whose servers live in the world (and of the hook that builds its policy). */
const worldEnv = (w: World, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv =>
  cleanEnv({ HOME: w.home, XDG_RUNTIME_DIR: w.runtime, TMUX_TMPDIR: w.tmuxTmp, ...extra });

/** `command` run by bash in bubblewrap with the policy built for the world's project, as the hooks run it. */
function inSandbox(w: World, command: string, env: NodeJS.ProcessEnv, more: Partial<PolicyInput> = {}): Promise<Ran> {
  const policy = sandboxPolicy({ loc: null, cwd: w.project, home: w.home, env, guarded: [], ...more });
  const line = bwrapRun('bwrap', policy, w.project, sandboxInner(policy, '/bin/bash', shellQuote(command)));
  return runLine(line, env, w.project);
}

/** The same command without the sandbox. */
const unsandboxed = (w: World, command: string, env: NodeJS.ProcessEnv): Promise<Ran> => runLine(`exec /bin/bash -c ${shellQuote(command)}`, env, w.project);

const close = (s: Server) => new Promise((r) => s.close(r));

describe('servers outside the sandbox do not run what a command in it asks', { skip: !runnable && 'needs bubblewrap that can start, and socat' }, () => {
  let w: World;
  before(() => (w = makeWorld()));
  after(() => rmSync(w.root, { recursive: true, force: true }));

  test('tmux: a server the user started takes no window from the sandbox, by its default socket, by -S or through $TMUX', {
    skip: !has('tmux') && 'needs tmux',
  }, async () => {
    const env = worldEnv(w);
    const started = await runLine('tmux -f /dev/null new-session -d -s user', env, w.home);
    assert.equal(started.status, 0, started.stderr);
    const socket = join(w.tmuxTmp, `tmux-${UID}`, 'default');
    try {
      // the window's command signals a channel the client waits on: the client returns once it ran
      const window = (file: string) => `tmux new-window -d ${shellQuote(`touch ${join(w.outside, file)}; tmux wait-for -S ${file}`)} \\; wait-for ${file}`;
      const out = await unsandboxed(w, window('control'), env);
      assert.equal(out.status, 0, out.stderr);
      assert.ok(existsSync(join(w.outside, 'control')), 'without the sandbox the server ran it');

      const inside = { ...env, TMUX: `${socket},1,0` };
      const r = await inSandbox(
        w,
        `${window('by-default')}; tmux -S ${shellQuote(socket)} run-shell ${shellQuote(`touch ${join(w.outside, 'by-s')}`)}; echo done`,
        inside,
      );
      assert.equal(r.stdout, 'done\n', r.stderr);
      assert.ok(!existsSync(join(w.outside, 'by-default')), `tmux ran a window from the sandbox: ${r.stderr}`);
      assert.ok(!existsSync(join(w.outside, 'by-s')), `tmux -S ran a command from the sandbox: ${r.stderr}`);
    } finally {
      await runLine(`tmux -S ${shellQuote(socket)} kill-server`, env, w.home);
    }
  });

  test("the user's runtime folder (session bus, systemd's user manager, gpg agent, rootless docker) is empty in the sandbox, and its own to write", async () => {
    const bus = await shellServer(join(w.runtime, 'bus'));
    mkdirSync(join(w.runtime, 'gnupg'), { mode: 0o700 });
    const gpg = await shellServer(join(w.runtime, 'gnupg', 'S.gpg-agent'));
    const env = worldEnv(w, { DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(w.runtime, 'bus')}` });
    try {
      const control = await unsandboxed(w, askServer(`UNIX-CONNECT:${join(w.runtime, 'bus')}`, `touch ${join(w.outside, 'bus-control')}`), env);
      assert.equal(control.stdout, 'ran 0\n', control.stderr);
      assert.ok(existsSync(join(w.outside, 'bus-control')));

      const r = await inSandbox(
        w,
        [
          askServer(`UNIX-CONNECT:${join(w.runtime, 'bus')}`, `touch ${join(w.outside, 'bus')}`),
          askServer(`UNIX-CONNECT:${join(w.runtime, 'gnupg', 'S.gpg-agent')}`, `touch ${join(w.outside, 'gpg')}`),
          'ls -A "$XDG_RUNTIME_DIR"',
          'touch "$XDG_RUNTIME_DIR/mine" && echo wrote',
        ].join('; '),
        env,
      );
      assert.equal(bus.asked.length, 1, 'only the control reached the bus');
      assert.deepEqual(gpg.asked, []);
      assert.ok(!existsSync(join(w.outside, 'bus')) && !existsSync(join(w.outside, 'gpg')), r.stderr);
      assert.equal(r.stdout, 'wrote\n', `the runtime folder reads as empty and takes a file: ${r.stderr}`);
      assert.ok(!existsSync(join(w.runtime, 'mine')), 'what the command wrote there stays in the sandbox');
    } finally {
      await close(bus.server);
      await close(gpg.server);
    }
  });

  test("docker's socket, an ssh agent's, any server's: every socket the machine listens on is refused, wherever it lies", async () => {
    // not a folder the policy names: only the machine's list of listening sockets finds it
    mkdirSync(join(w.root, 'var', 'run'), { recursive: true });
    const dockerSock = join(w.root, 'var', 'run', 'docker.sock');
    const docker = await shellServer(dockerSock);
    // in the writable temp folder, where ssh-agent puts its socket
    const tmp = mkdtempSync(join(tmpdir(), 'axme-esc-'));
    const inTmp = await shellServer(join(tmp, 'agent.sock'));
    const env = worldEnv(w, { DOCKER_HOST: `unix://${dockerSock}` });
    try {
      const control = await unsandboxed(w, askServer(`UNIX-CONNECT:${dockerSock}`, `touch ${join(w.outside, 'docker-control')}`), env);
      assert.equal(control.stdout, 'ran 0\n', control.stderr);
      const r = await inSandbox(
        w,
        [
          askServer(`UNIX-CONNECT:${dockerSock}`, `touch ${join(w.outside, 'docker')}`),
          askServer(`UNIX-CONNECT:${join(tmp, 'agent.sock')}`, `touch ${join(w.outside, 'tmp')}`),
        ].join('; '),
        env,
      );
      assert.equal(docker.asked.length, 1, `only the control reached the docker stand-in: ${r.stderr}`);
      assert.deepEqual(inTmp.asked, [], r.stderr);
      assert.ok(!existsSync(join(w.outside, 'docker')) && !existsSync(join(w.outside, 'tmp')));
    } finally {
      await close(docker.server);
      await close(inTmp.server);
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  test('a real ssh-agent holding a key signs nothing for a command in the sandbox', {
    skip: !(has('ssh-agent') && has('ssh-keygen')) && 'needs ssh-agent',
  }, async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'ssh-'));
    const sock = join(tmp, `agent.${process.pid}`);
    const key = join(w.root, 'key');
    assert.equal(spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'escape-test', '-f', key]).status, 0);
    const agent: ChildProcess = spawn('ssh-agent', ['-D', '-a', sock], { stdio: ['ignore', 'pipe', 'ignore'] });
    // -D prints its environment lines once it listens
    await new Promise<void>((resolve) => agent.stdout!.once('data', () => resolve()));
    const env = worldEnv(w, { SSH_AUTH_SOCK: sock });
    try {
      const added = await runLine(`ssh-add ${shellQuote(key)}`, env, w.home);
      assert.equal(added.status, 0, added.stderr);
      const out = await unsandboxed(w, 'ssh-add -l', env);
      assert.match(out.stdout, /escape-test/, 'outside, the agent lists its key');
      const r = await inSandbox(w, `ssh-add -l; SSH_AUTH_SOCK=${shellQuote(sock)} ssh-add -l; echo "sock=$SSH_AUTH_SOCK"`, env);
      assert.doesNotMatch(r.stdout, /escape-test/, 'the agent answered the sandbox');
      assert.match(r.stdout, /^sock=$/m, `SSH_AUTH_SOCK is unset (exit ${r.status}, stderr: ${r.stderr})`);
    } finally {
      agent.kill();
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  test('the variables that point clients at those servers are unset', async () => {
    const env = worldEnv(w, {
      SSH_AUTH_SOCK: '/tmp/ssh-x/agent.1',
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus',
      TMUX: '/tmp/tmux-1000/default,1,0',
      DOCKER_HOST: 'unix:///var/run/docker.sock',
    });
    const r = await inSandbox(w, 'env', env);
    assert.equal(r.status, 0, r.stderr);
    for (const v of ['SSH_AUTH_SOCK', 'DBUS_SESSION_BUS_ADDRESS', 'TMUX', 'DOCKER_HOST'])
      assert.doesNotMatch(r.stdout, new RegExp(`^${v}=`, 'm'), `${v} is set`);
    assert.match(r.stdout, /^HOME=/m);
  });

  test("what a developer keeps: the project's own servers; with network deny, none of the machine's abstract sockets", async () => {
    const dev = await shellServer(join(w.project, 'dev.sock'));
    const name = `axme-escape-${process.pid}`;
    const abstract = await abstractShellServer(name);
    const env = worldEnv(w);
    try {
      const control = await unsandboxed(w, askServer(`ABSTRACT-CONNECT:${name}`, `touch ${join(w.outside, 'abstract-control')}; echo ran`), env);
      assert.equal(control.stdout, 'ran\n', control.stderr);
      const r = await inSandbox(w, askServer(`UNIX-CONNECT:${join(w.project, 'dev.sock')}`, 'true'), env);
      assert.equal(r.stdout, 'ran 0\n', `the project's own socket answers: ${r.stderr}`);
      const denied = await inSandbox(w, askServer(`ABSTRACT-CONNECT:${name}`, `touch ${join(w.outside, 'abstract')}; echo ran`), env, { network: 'deny' });
      assert.equal(denied.stdout, '', denied.stderr);
      assert.ok(!existsSync(join(w.outside, 'abstract')));
    } finally {
      await close(dev.server);
      abstract.kill();
    }
  });
});

describe('sandbox.sockets lets a server through (docker, for a user who needs it)', { skip: !runnable && 'needs bubblewrap that can start, and socat' }, () => {
  let w: World;
  before(() => (w = makeWorld()));
  after(() => rmSync(w.root, { recursive: true, force: true }));

  test('a machine-local file lists sockets (or folders of them); anything else is a problem and changes nothing', async () => {
    mkdirSync(join(w.root, 'git', 'axme'), { recursive: true });
    const env = { XDG_CONFIG_HOME: join(w.root, 'xdg') };
    writeFileSync(join(w.root, 'git', 'axme', 'config.yaml'), 'sandbox:\n  sockets: [/var/run/docker.sock]\n');
    const s = await readSandboxSettings(join(w.root, 'git'), env, parseYamlText);
    assert.deepEqual(s.sockets, ['/var/run/docker.sock']);
    assert.deepEqual(s.problems, []);
    writeFileSync(join(w.root, 'git', 'axme', 'config.yaml'), 'sandbox:\n  sockets: yes\n');
    const bad = await readSandboxSettings(join(w.root, 'git'), env, parseYamlText);
    assert.deepEqual(bad.sockets, []);
    assert.match(bad.problems.join('\n'), /sandbox\.sockets must be/);
  });

  test('the sockets listed answer, in the runtime folder too, and DOCKER_HOST naming one stays set; the others stay cut off', async () => {
    mkdirSync(join(w.root, 'var', 'run'), { recursive: true });
    const dockerSock = join(w.root, 'var', 'run', 'docker.sock');
    const docker = await shellServer(dockerSock);
    const rootless = await shellServer(join(w.runtime, 'docker.sock'));
    const bus = await shellServer(join(w.runtime, 'bus'));
    const env = worldEnv(w, { DOCKER_HOST: `unix://${dockerSock}` });
    try {
      const r = await inSandbox(
        w,
        [
          askServer(`UNIX-CONNECT:${dockerSock}`, 'echo hi'),
          askServer(`UNIX-CONNECT:${join(w.runtime, 'docker.sock')}`, 'echo hi'),
          askServer(`UNIX-CONNECT:${join(w.runtime, 'bus')}`, 'echo hi'),
          'echo "host=$DOCKER_HOST"',
        ].join('; '),
        env,
        { extraSockets: [dockerSock, join(w.runtime, 'docker.sock')] },
      );
      assert.equal(docker.asked.length, 1, r.stderr);
      assert.equal(rootless.asked.length, 1, r.stderr);
      assert.deepEqual(bus.asked, [], 'a socket not listed stays cut off');
      assert.match(r.stdout, new RegExp(`^host=unix://${dockerSock}$`, 'm'));
    } finally {
      for (const s of [docker, rootless, bus]) await close(s.server);
    }
  });

  test("axme sandbox -c takes sandbox.sockets from the clone's settings, and the shell's environment from the caller", async () => {
    const clone = join(w.root, 'clone');
    mkdirSync(join(clone, '.git', 'axme'), { recursive: true });
    git(clone, ['init', '-q', '-b', 'main']);
    mkdirSync(join(w.root, 'srv'), { recursive: true });
    const listed = await shellServer(join(w.root, 'srv', 'listed.sock'));
    const other = await shellServer(join(w.root, 'srv', 'other.sock'));
    writeFileSync(join(clone, '.git', 'axme', 'config.yaml'), `sandbox:\n  sockets: [${join(w.root, 'srv', 'listed.sock')}]\n`);
    try {
      const command = [
        askServer(`UNIX-CONNECT:${join(w.root, 'srv', 'listed.sock')}`, 'echo hi'),
        askServer(`UNIX-CONNECT:${join(w.root, 'srv', 'other.sock')}`, 'echo hi'),
        'echo "agent=$SSH_AUTH_SOCK"',
      ].join('; ');
      const r = await axme(clone, ['sandbox', '-c', command], { env: { HOME: w.home, AXME_SANDBOX: 'auto', SSH_AUTH_SOCK: '/tmp/ssh-x/agent.1' } });
      assert.equal(listed.asked.length, 1, r.stderr);
      assert.deepEqual(other.asked, [], r.stderr);
      assert.match(r.stdout, /^ran 0\nagent=$/m);
    } finally {
      await close(listed.server);
      await close(other.server);
    }
  });
});

describe('how the policy covers the sockets it finds', () => {
  test('a folder of sockets only is emptied in one mount; a socket beside other files is covered alone, its folder left as it is', async () => {
    const w = makeWorld();
    mkdirSync(join(w.root, 'agents'));
    mkdirSync(join(w.root, 'mixed'));
    writeFileSync(join(w.root, 'mixed', 'notes.txt'), 'kept\n');
    const servers = await Promise.all(
      [join(w.root, 'agents', 'a.sock'), join(w.root, 'agents', 'b.sock'), join(w.root, 'mixed', 'c.sock')].map((p) => shellServer(p)),
    );
    try {
      const policy = sandboxPolicy({ loc: null, cwd: w.project, home: w.home, env: worldEnv(w), guarded: [] });
      assert.ok(policy.servers.socketFolders.includes(join(w.root, 'agents')), JSON.stringify(policy.servers));
      assert.ok(!policy.servers.sockets.some((p) => p.startsWith(join(w.root, 'agents'))), JSON.stringify(policy.servers));
      assert.ok(policy.servers.sockets.includes(join(w.root, 'mixed', 'c.sock')), JSON.stringify(policy.servers));
      assert.ok(!policy.servers.socketFolders.includes(join(w.root, 'mixed')));
    } finally {
      for (const s of servers) await close(s.server);
      rmSync(w.root, { recursive: true, force: true });
    }
  });
});

describe('a socket gone between the policy and the start', { skip: !runnable && 'needs bubblewrap that can start, and socat' }, () => {
  test('does not stop the command (bubblewrap cannot cover a path gone from a read-only folder: it is covered only if still there)', async () => {
    const w = makeWorld();
    mkdirSync(join(w.root, 'gone-folder'));
    mkdirSync(join(w.root, 'gone-beside'));
    writeFileSync(join(w.root, 'gone-beside', 'notes.txt'), 'x\n');
    const servers = [await shellServer(join(w.root, 'gone-folder', 'a.sock')), await shellServer(join(w.root, 'gone-beside', 'b.sock'))];
    const env = worldEnv(w);
    const policy = sandboxPolicy({ loc: null, cwd: w.project, home: w.home, env, guarded: [] });
    assert.ok(policy.servers.socketFolders.includes(join(w.root, 'gone-folder')) && policy.servers.sockets.includes(join(w.root, 'gone-beside', 'b.sock')));
    for (const s of servers) await close(s.server);
    rmSync(join(w.root, 'gone-folder'), { recursive: true, force: true });
    rmSync(join(w.root, 'gone-beside', 'b.sock'), { force: true });
    try {
      const r = await runLine(bwrapRun('bwrap', policy, w.project, "/bin/bash -c 'echo ran'"), env, w.project);
      assert.equal(r.stdout, 'ran\n', r.stderr);
      assert.ok(!existsSync(join(w.root, 'gone-folder')), 'nothing was made where the folder was');
    } finally {
      rmSync(w.root, { recursive: true, force: true });
    }
  });
});

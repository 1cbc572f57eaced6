/**
 * The sandbox's network allowlist (docs/safety.md, "The network"): `sandbox.network: allowlist`
 * gives each command its own network namespace with nothing in it but a bridge to axme's proxy
 * outside, which lets through only the hosts `sandbox.domains` names. Real bubblewrap, real socat,
 * real curl, real HTTP servers on this machine standing for the Internet: one on 127.0.0.2 (listed),
 * one on 127.0.0.3 (not). (`localhost` would not do: inside the sandbox it is the command's own
 * loopback, which NO_PROXY keeps off the proxy, so a test's server started in the command works.)
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { shellQuote } from '../../src/model/shell-quote.ts';
import { parseYamlText } from '../../src/model/yaml-text.ts';
import { bwrapArgs, sandboxInner } from '../../src/sandbox/bwrap.ts';
import { proxySocketPath } from '../../src/sandbox/net-daemon.ts';
import { connectTarget, hostAllowed, startNetworkProxy } from '../../src/sandbox/net-proxy.ts';
import type { SandboxPolicy } from '../../src/sandbox/policy.ts';
import { readSandboxSettings } from '../../src/sandbox/settings.ts';
import { axme, axmeOk, cleanEnv, git, sandboxWorldBase } from '../helpers.ts';

const BASE = sandboxWorldBase();
const has = (p: string) => spawnSync('sh', ['-c', `command -v ${p}`]).status === 0;
const bwrapWorks = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--', '/bin/true']).status === 0;
const runnable = bwrapWorks && has('socat') && has('curl');

describe('which hosts the allowlist lets through', () => {
  test('a name, a wildcard for the hosts under a domain (not the domain itself), case and a trailing dot ignored', () => {
    const list = ['registry.npmjs.org', '*.github.com', '10.0.0.7'];
    assert.equal(hostAllowed('registry.npmjs.org', list), true);
    assert.equal(hostAllowed('REGISTRY.npmjs.org.', list), true);
    assert.equal(hostAllowed('evil-registry.npmjs.org', list), false);
    assert.equal(hostAllowed('registry.npmjs.org.evil.com', list), false);
    assert.equal(hostAllowed('api.github.com', list), true);
    assert.equal(hostAllowed('a.b.github.com', list), true);
    assert.equal(hostAllowed('github.com', list), false);
    assert.equal(hostAllowed('notgithub.com', list), false);
    assert.equal(hostAllowed('10.0.0.7', list), true);
    assert.equal(hostAllowed('10.0.0.8', list), false);
    assert.equal(hostAllowed('', list), false);
  });

  test('a CONNECT target is host:port, an IPv6 address in brackets; anything else is not one', () => {
    assert.deepEqual(connectTarget('example.com:443'), { host: 'example.com', port: 443 });
    assert.deepEqual(connectTarget('[::1]:8080'), { host: '[::1]', port: 8080 });
    assert.equal(connectTarget('example.com'), null);
    assert.equal(connectTarget('example.com:99999'), null);
    assert.equal(connectTarget('http://example.com:80/x'), null);
  });
});

describe('settings', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'axme-net-settings-'));
    mkdirSync(join(dir, 'axme'), { recursive: true });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('the machine-local file names the hosts; a bad host is a problem and changes nothing; allowlist with no host says commands reach nothing', async () => {
    const env = { ...cleanEnv(), XDG_CONFIG_HOME: join(dir, 'xdg') };
    writeFileSync(join(dir, 'axme', 'config.yaml'), 'sandbox:\n  network: allowlist\n  domains: [Registry.npmjs.org, "*.github.com"]\n');
    let s = await readSandboxSettings(dir, env, parseYamlText);
    assert.equal(s.network, 'allowlist');
    assert.deepEqual(s.domains, ['registry.npmjs.org', '*.github.com']);
    assert.deepEqual(s.problems, []);
    writeFileSync(join(dir, 'axme', 'config.yaml'), 'sandbox:\n  network: allowlist\n  domains: ["https://evil.example/x"]\n');
    s = await readSandboxSettings(dir, env, parseYamlText);
    assert.deepEqual(s.domains, []);
    assert.match(s.problems.join('\n'), /sandbox\.domains must be a list of host names/);
    assert.match(s.problems.join('\n'), /names no host: commands reach no network/);
  });
});

describe('commands in an allowlisted sandbox', { skip: !runnable && 'needs bubblewrap that can start, socat and curl' }, () => {
  let root: string;
  let web: Server;
  let other: Server;
  let port: number;
  let otherPort: number;
  let proxy: Server;
  let socket: string;
  let denied: string;
  const hits: string[] = [];

  before(async () => {
    mkdirSync(BASE, { recursive: true });
    root = mkdtempSync(join(BASE, 'net-'));
    web = createServer((req, res) => {
      hits.push(`${req.headers.host} ${req.url}`);
      res.end(`hello from ${req.url}\n`);
    });
    await new Promise<void>((r) => web.listen(0, '127.0.0.2', r));
    port = (web.address() as AddressInfo).port;
    other = createServer((req, res) => {
      hits.push(`other ${req.url}`);
      res.end('not to be reached\n');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.3', r));
    otherPort = (other.address() as AddressInfo).port;
    socket = join(root, 'net.sock');
    denied = join(root, 'denied.log');
    proxy = await startNetworkProxy({ socket, domains: ['127.0.0.2'], deniedLog: denied });
  });
  after(async () => {
    await new Promise((r) => proxy.close(r));
    await new Promise((r) => web.close(r));
    await new Promise((r) => other.close(r));
    rmSync(root, { recursive: true, force: true });
  });

  /** `command` run by bash in bubblewrap with the allowlist policy, as the hooks run it (not spawnSync: the proxy and the servers answer from this process). */
  function inSandbox(command: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
    const policy: SandboxPolicy = {
      writable: [root],
      readOnly: [],
      writableAgain: [],
      hiddenFiles: [],
      hiddenDirs: [],
      servers: { dirs: [], socketFolders: [], sockets: [], again: [], unsetEnv: [] },
      network: 'allowlist',
      proxySocket: socket,
    };
    const line = `exec ${['bwrap', ...bwrapArgs(policy, root), '--'].map(shellQuote).join(' ')} ${sandboxInner(policy, '/bin/bash', shellQuote(command))}`;
    return new Promise((resolve) => {
      const child = spawn('/bin/sh', ['-c', line], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
  }

  test('a listed host is reached, by plain HTTP and through a CONNECT tunnel (as HTTPS goes)', async () => {
    const plain = await inSandbox(`curl -sS --max-time 20 http://127.0.0.2:${port}/plain`);
    assert.equal(plain.status, 0, plain.stderr);
    assert.equal(plain.stdout, 'hello from /plain\n');
    const tunnel = await inSandbox(`curl -sS --max-time 20 --proxytunnel http://127.0.0.2:${port}/tunnel`);
    assert.equal(tunnel.status, 0, tunnel.stderr);
    assert.equal(tunnel.stdout, 'hello from /tunnel\n');
  });

  test('a host not listed is refused by the proxy (and logged), whichever way the request goes', async () => {
    const before = hits.length;
    const plain = await inSandbox(`curl -sS --max-time 20 -o /dev/null -w '%{http_code}' http://127.0.0.3:${otherPort}/no`);
    assert.equal(plain.stdout, '403');
    const tunnel = await inSandbox(`curl -sS --max-time 20 --proxytunnel http://127.0.0.3:${otherPort}/no`);
    assert.notEqual(tunnel.status, 0);
    assert.match(tunnel.stderr, /403/);
    assert.equal(hits.length, before, 'the server was never reached');
    assert.match(readFileSync(denied, 'utf8'), /127\.0\.0\.3/);
  });

  test('around the proxy there is no way out: no route, no name resolution', async () => {
    const before = hits.length;
    const direct = await inSandbox(`curl -sS --max-time 20 --noproxy '*' http://127.0.0.2:${port}/direct`);
    assert.notEqual(direct.status, 0);
    const devTcp = await inSandbox(`exec 3<>/dev/tcp/127.0.0.2/${port} && echo connected`);
    assert.notEqual(devTcp.stdout.trim(), 'connected');
    assert.equal(hits.length, before);
  });

  test("a command's own `wait` does not wait for the bridge, and its output ends when it does", async () => {
    const r = await inSandbox('sleep 0.1 & wait; echo done');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'done\n');
  });
});

describe('axme sandbox -c with the allowlist: the proxy is started for the command', {
  skip: !runnable && 'needs bubblewrap that can start, socat and curl',
}, () => {
  let root: string;
  let project: string;
  let web: Server;
  let port: number;

  before(async () => {
    mkdirSync(BASE, { recursive: true });
    root = mkdtempSync(join(BASE, 'net-cli-'));
    project = join(root, 'project');
    mkdirSync(project);
    git(project, ['init', '-q', '-b', 'main']);
    mkdirSync(join(project, '.git', 'axme'), { recursive: true });
    writeFileSync(join(project, '.git', 'axme', 'config.yaml'), 'sandbox:\n  network: allowlist\n  domains: [127.0.0.2]\n');
    web = createServer((req, res) => res.end(`reached ${req.url}\n`));
    await new Promise<void>((r) => web.listen(0, '127.0.0.2', r));
    port = (web.address() as AddressInfo).port;
  });
  after(async () => {
    // the proxy the command started stops when idle; this test's one now, matched by its own command
    // line: a sandboxed command elsewhere names every socket the machine has bound in its own (the
    // start covers each), so a match on the socket's path alone would stop other tests' commands
    const socket = proxySocketPath(join(project, '.git'), ['127.0.0.2']);
    spawnSync('pkill', ['-f', `sandbox-proxy\\.cjs --socket ${socket.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( |$)`]);
    await new Promise((r) => web.close(r));
    rmSync(root, { recursive: true, force: true });
  });

  test('a listed host answers, another is refused; status and --json name the hosts', async () => {
    const env = { HOME: join(root, 'home'), AXME_SANDBOX: 'auto' };
    mkdirSync(env.HOME);
    const ok = await axmeOk(project, ['sandbox', '-c', `curl -sS --max-time 20 http://127.0.0.2:${port}/x`], { env });
    assert.equal(ok, 'reached /x\n');
    const no = await axme(project, ['sandbox', '-c', `curl -sS --max-time 20 -o /dev/null -w '%{http_code}' http://127.0.0.3:${port}/y`], { env });
    // the proxy's refusal, as curl reports it (stderr says why when it is not: one CI run saw nothing on stdout)
    assert.equal(no.stdout, '403', `exit ${no.code}; stderr: ${no.stderr}`);
    const status = await axmeOk(project, ['sandbox'], { env });
    assert.match(status, /network allowlist \(127\.0\.0\.2\)/);
    const json = (await axmeOk(project, ['sandbox', '--json'], { env })) as { network: string; domains: string[]; policy: { proxySocket?: string } };
    assert.equal(json.network, 'allowlist');
    assert.deepEqual(json.domains, ['127.0.0.2']);
    assert.ok(json.policy.proxySocket);
  });

  test("Claude Code's way in: after the hook, the prefix script runs a command that reaches the listed host only", async () => {
    const env = { HOME: join(root, 'home3'), AXME_SANDBOX: 'auto' };
    mkdirSync(env.HOME);
    git(project, ['-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'first']);
    await axmeOk(project, ['init', '--agent', 'claude-code'], { env });
    const prefix = JSON.parse(readFileSync(join(project, '.claude', 'settings.local.json'), 'utf8')).env.CLAUDE_CODE_SHELL_PREFIX as string;
    const command = `curl -sS --max-time 20 http://127.0.0.2:${port}/claude; curl -sS --max-time 20 -o /dev/null -w ' %{http_code}' http://127.0.0.3:${port}/no`;
    // Claude Code runs the hook (with its settings' env), then the command through the prefix
    const input = JSON.stringify({ session_id: 's', cwd: project, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });
    const r = await axme(project, ['hook', 'pre-tool-use'], { input, env: { ...env, CLAUDE_CODE_SHELL_PREFIX: prefix } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(readFileSync(prefix, 'utf8'), /--unshare-net/);
    const ran = await new Promise<string>((resolve) => {
      const child = spawn(prefix, [command], { cwd: project, env: { ...process.env, HOME: env.HOME }, stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.on('close', () => resolve(out));
    });
    assert.equal(ran, 'reached /claude\n 403');
  });

  test("a client's shell call through the hook (Gemini CLI): the command handed back reaches the listed host only", async () => {
    const env = { HOME: join(root, 'home2'), AXME_SANDBOX: 'auto' };
    mkdirSync(env.HOME);
    const command = `curl -sS --max-time 20 http://127.0.0.2:${port}/hook; curl -sS --max-time 20 -o /dev/null -w ' %{http_code}' http://127.0.0.3:${port}/no`;
    const input = JSON.stringify({ session_id: 's', cwd: project, hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command } });
    const r = await axme(project, ['hook', 'pre-tool-use', '--client', 'gemini'], { input, env });
    assert.equal(r.code, 0, r.stderr);
    const line = JSON.parse(r.stdout).hookSpecificOutput.tool_input.command as string;
    assert.match(line, /--unshare-net/);
    const ran = await new Promise<string>((resolve) => {
      const child = spawn('bash', ['-c', line], { cwd: project, stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.on('close', () => resolve(out));
    });
    assert.equal(ran, 'reached /hook\n 403');
  });
});

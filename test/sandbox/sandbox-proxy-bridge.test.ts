/**
 * The allowlist's bridge (socat, inside the sandbox) names no path of the proxy's socket on its
 * command line: a user's `pkill -f <the socket's name>` (or its folder's, or `.sock`) run outside
 * would otherwise end the bridge, and the agent's command would lose its network midway. Both ways
 * in: the command line Codex and Gemini CLI run (`bash -c <line>`) and Claude Code's prefix script.
 * Real bubblewrap, real socat, real curl through axme's proxy to a real HTTP server on this machine.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SANDBOX_SHELL } from '../../src/model/sandbox.ts';
import { sandboxedCommandLine } from '../../src/sandbox/bwrap.ts';
import { startNetworkProxy } from '../../src/sandbox/net-proxy.ts';
import { type SandboxPolicy, sandboxPolicy } from '../../src/sandbox/policy.ts';
import { sandboxShellText } from '../../src/setup/sandbox.ts';
import { cleanEnv, sandboxWorldBase } from '../helpers.ts';
import { commandLines, startedCommand, tree } from './processes.ts';

const has = (p: string) => spawnSync('sh', ['-c', `command -v ${p}`]).status === 0;
const bwrapWorks = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--', '/bin/true']).status === 0;
const runnable = bwrapWorks && has('socat') && has('curl') && has('pgrep');

describe("the allowlist's bridge names no path of the proxy's socket", { skip: !runnable && 'needs bubblewrap that can start, socat, curl and pgrep' }, () => {
  let root: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  let web: Server;
  let port: number;
  let proxy: Server;
  let socket: string;
  let policy: SandboxPolicy;
  /** what a user's `pkill -f` names: the socket's file name and its folder's */
  let names: string[];

  before(async () => {
    mkdirSync(sandboxWorldBase(), { recursive: true });
    root = mkdtempSync(join(sandboxWorldBase(), 'bridge-'));
    const tag = basename(root).slice(-6);
    project = join(root, 'project');
    mkdirSync(project);
    mkdirSync(join(root, `proxies${tag}`));
    socket = join(root, `proxies${tag}`, `net${tag}.sock`);
    names = [`net${tag}.sock`, `proxies${tag}`];
    web = createServer((req, res) => res.end(`reached ${req.url}\n`));
    await new Promise<void>((r) => web.listen(0, '127.0.0.2', r));
    port = (web.address() as AddressInfo).port;
    proxy = await startNetworkProxy({ socket, domains: ['127.0.0.2'], deniedLog: null });
    env = cleanEnv({ HOME: join(root, 'home') });
    policy = sandboxPolicy({ loc: null, cwd: project, home: join(root, 'home'), env, guarded: [], network: 'allowlist', proxySocket: socket });
    assert.equal(policy.proxySocket, socket);
  });
  after(async () => {
    await new Promise((r) => proxy.close(r));
    await new Promise((r) => web.close(r));
    rmSync(root, { recursive: true, force: true });
  });

  /**
   * Runs `argv` (a shell running a sandboxed command that waits for a line, then fetches through the
   * proxy); once it waits: the command lines under it that hold a name or `.sock`, what `pgrep -f`
   * and `pkill -f` found for each name; then lets the command fetch.
   */
  async function whileRunning(argv: string[]) {
    const run = await startedCommand(argv, { cwd: project, env });
    const mine = tree(run.pid);
    const lines = [...commandLines()].filter(([pid]) => mine.has(pid));
    const holding = lines
      .filter(([, line]) => names.some((n) => line.includes(n)) || line.includes('.sock'))
      .map(([pid, line]) => `${pid}: ${line.slice(0, 400)}`);
    const bridge = lines.filter(([, line]) => line.startsWith('socat '));
    const pgrep = names.map((n) => spawnSync('pgrep', ['-f', n]).status ?? -1);
    const pkill = names.map((n) => spawnSync('pkill', ['-f', n]).status ?? -1);
    return { holding, bridge: bridge.length, pgrep, pkill, ...(await run.finish('go\n')) };
  }

  const command = () => `echo started; read -r x; curl -sS --max-time 20 http://127.0.0.2:${port}/after-$x`;

  for (const [route, argv] of [
    ['the command line Codex and Gemini CLI run', () => [SANDBOX_SHELL, '-c', sandboxedCommandLine('bwrap', policy, project, command())]],
    [
      "Claude Code's prefix script",
      () => {
        const script = join(root, `prefix-${Math.random().toString(36).slice(2)}.sh`);
        writeFileSync(script, sandboxShellText('bwrap', policy), { mode: 0o755 });
        return [SANDBOX_SHELL, script, command()];
      },
    ],
  ] as const)
    test(`${route}: the bridge runs, no process holds the socket's path; pkill -f leaves the network up`, async () => {
      const r = await whileRunning(argv());
      assert.ok(r.bridge >= 1, `the bridge runs inside (socat, and a child per connection): ${r.stderr}`);
      assert.deepEqual(r.holding, [], "no command line holds the socket's name, its folder's or .sock");
      assert.deepEqual(
        r.pgrep,
        names.map(() => 1),
        'pgrep -f sees no process',
      );
      assert.deepEqual(
        r.pkill,
        names.map(() => 1),
        'pkill -f matched no process',
      );
      assert.equal(r.stdout, 'started\nreached /after-go\n', r.stderr);
      assert.equal(r.status, 0, r.stderr);
    });
});

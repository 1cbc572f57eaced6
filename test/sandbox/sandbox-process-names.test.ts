/**
 * The sandbox's paths are on no process's command line: a user's `pkill -f docker` (or `postgres`,
 * `.sock`, a project's name) run outside must not match the bubblewrap, or the shell, that runs an
 * agent's command — it would end that command. Both ways in: the command line Codex and Gemini CLI
 * are handed (run as `bash -c <line>`, so the line itself is a process's argument) and Claude Code's
 * prefix script (`bash <script> <command>`). Real bubblewrap, real servers on Unix sockets, real
 * pkill.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SANDBOX_SHELL } from '../../src/model/sandbox.ts';
import { sandboxedCommandLine } from '../../src/sandbox/bwrap.ts';
import { type SandboxPolicy, sandboxPolicy } from '../../src/sandbox/policy.ts';
import { sandboxShellText } from '../../src/setup/sandbox.ts';
import { cleanEnv, sandboxWorldBase } from '../helpers.ts';
import { commandLines, startedCommand } from './processes.ts';

const bwrapWorks = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--', '/bin/true']).status === 0;

const listen = (path: string) =>
  new Promise<Server>((resolve) => {
    const server = createServer((c) => c.destroy());
    server.listen(path, () => resolve(server));
  });

describe("the sandbox's paths on no command line", { skip: !bwrapWorks && 'bubblewrap cannot start a sandbox here' }, () => {
  let root: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  let servers: Server[];
  let policy: SandboxPolicy;
  /** what a user's `pkill -f` names: a server's socket, a folder of sockets, the project, a hidden secret */
  let names: string[];
  before(async () => {
    mkdirSync(sandboxWorldBase(), { recursive: true });
    root = mkdtempSync(join(sandboxWorldBase(), 'names-'));
    project = join(root, `shop${basename(root).slice(-6)}`);
    mkdirSync(project);
    writeFileSync(join(project, '.env'), 'TOKEN=x\n');
    const tag = basename(root).slice(-6);
    // a socket beside a file (covered alone) and a folder of sockets only (covered whole)
    mkdirSync(join(root, 'run'));
    writeFileSync(join(root, 'run', 'notes.txt'), 'x\n');
    mkdirSync(join(root, `docker${tag}`));
    const socket = join(root, 'run', `postgres${tag}.sock`);
    servers = [await listen(socket), await listen(join(root, `docker${tag}`, 'api.sock'))];
    env = cleanEnv({ HOME: join(root, 'home') });
    policy = sandboxPolicy({ loc: null, cwd: project, home: join(root, 'home'), env, guarded: [] });
    assert.ok(policy.servers.sockets.includes(socket), JSON.stringify(policy.servers));
    assert.ok(policy.servers.socketFolders.includes(join(root, `docker${tag}`)), JSON.stringify(policy.servers));
    assert.ok(policy.hiddenFiles.includes(join(project, '.env')), JSON.stringify(policy.hiddenFiles));
    names = [`postgres${tag}`, `docker${tag}`, basename(project)];
  });
  after(async () => {
    for (const s of servers) await new Promise((r) => s.close(r));
    rmSync(root, { recursive: true, force: true });
  });

  /**
   * Runs `argv` (a shell running a sandboxed `read`), and once the command has started: the command
   * lines that hold a name, and what `pkill -f <name>` did for each; then lets the command finish.
   */
  async function whileRunning(argv: string[]): Promise<{ holding: string[]; pkill: number[]; stdout: string; status: number | null; stderr: string }> {
    const run = await startedCommand(argv, { cwd: project, env });
    const holding = [...commandLines()].filter(([, line]) => names.some((n) => line.includes(n))).map(([pid, line]) => `${pid}: ${line.slice(0, 300)}`);
    const pkill = names.map((n) => spawnSync('pkill', ['-f', n]).status ?? -1);
    return { holding, pkill, ...(await run.finish('still here\n')) };
  }

  const COMMAND = 'echo started; read -r x; echo "survived: $x"; [ ! -s .env ]';

  for (const [route, argv] of [
    ['the command line Codex and Gemini CLI run', () => [SANDBOX_SHELL, '-c', sandboxedCommandLine('bwrap', policy, project, COMMAND)]],
    [
      "Claude Code's prefix script",
      () => {
        const script = join(root, `prefix-${Math.random().toString(36).slice(2)}.sh`);
        writeFileSync(script, sandboxShellText('bwrap', policy), { mode: 0o755 });
        return [SANDBOX_SHELL, script, COMMAND];
      },
    ],
  ] as const)
    test(`${route}: no process holds a socket's, a folder's or the project's name; pkill -f leaves the command running`, async () => {
      const r = await whileRunning(argv());
      assert.deepEqual(r.holding, [], 'no command line holds the names');
      assert.deepEqual(
        r.pkill,
        names.map(() => 1),
        'pkill -f matched no process',
      );
      assert.equal(r.stdout, 'started\nsurvived: still here\n', r.stderr);
      assert.equal(r.status, 0, `the command ran to its end in the sandbox (its .env hidden): ${r.stderr}`);
    });
});

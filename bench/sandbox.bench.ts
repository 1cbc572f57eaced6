// Sandbox benchmark (issue 31): what one shell call of an agent costs with the guard and the kernel
// sandbox, side by side with `node -e 0` and with the command alone, in one run (rounds alternate
// A, B, C, ... so machine noise hits all alike). Per client: the pre-tool-use hook, then the
// command as the client runs it — Claude Code through the prefix script the hook keeps current,
// Codex and Gemini CLI through the command line the hook hands back; and the same with the sandbox
// off. The budget: hook plus sandbox start ≤ 1.5 × node -e 0 on top of the command. `--warmup N`:
// untimed rounds first (1; a smoke run takes 0). Table on stdout, JSON in bench/results/.
//
// `--against <the root of another built checkout>`: that checkout's sandbox side by side with this
// one's, alternating, wall and CPU time (GNU time: the process and what it waited for) — the
// Claude Code hook plus its prefix script, and the prefix script alone, each side on its own copy
// of the store. `--sockets N`: this process listens on N Unix sockets first (a desktop has tens:
// the session bus, agents, editors), so the policy has servers to cut off. `--network allowlist`:
// every store's sandbox has the network allowlist (one host), each command starting the bridge to
// the proxy, which this process runs for each store (the hook finds it answering and starts none).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { argOf, usageError, wholeArg } from './args.ts';
import type { Stats } from './lib.ts';

const argv = process.argv.slice(2);
const REPS = wholeArg('sandbox.bench', argv, 'reps', 30);
/** untimed rounds of every measure first (file cache, code cache, the compiled policy); a smoke run takes 0 */
const WARMUP = wholeArg('sandbox.bench', argv, 'warmup', 1, 0);
const OUT = argOf(argv, 'out', join(import.meta.dirname, 'results'));
/** another built checkout whose sandbox runs side by side with this one's */
const AGAINST = argOf(argv, 'against', '');
if (AGAINST && !existsSync(join(AGAINST, 'dist', 'axme.cjs'))) usageError('sandbox.bench', `--against ${AGAINST}: no dist/axme.cjs there (build it first)`);
/** Unix sockets this process listens on while it measures */
const SOCKETS = wholeArg('sandbox.bench', argv, 'sockets', 0, 0);
/** the sandbox's network: allow (the default) or allowlist */
const NETWORK = argOf(argv, 'network', 'allow');
if (NETWORK !== 'allow' && NETWORK !== 'allowlist') usageError('sandbox.bench', `--network ${NETWORK}: allow or allowlist`);
const log = (s: string) => process.stderr.write(`${s}\n`);
// what is measured is loaded once the options are good: a usage error costs only Node's start
const { benchEnv, CLI, fmt, seededRepo, stats, timeProcess } = await import('./lib.ts');
const { shellJoin, shellQuote } = await import('../src/model/shell-quote.ts');
const { locateRepo } = await import('../src/store/locate.ts');
const { proxySocketPath } = await import('../src/sandbox/net-daemon.ts');
const { startNetworkProxy } = await import('../src/sandbox/net-proxy.ts');

/** The proxies this process runs for the stores' allowlisted sandboxes, closed at the end. */
const proxies: Array<{ close(cb: () => void): void }> = [];
/** With `--network allowlist`: `repo`'s sandbox gets the allowlist, and its proxy runs here. */
async function networkOf(repo: string): Promise<void> {
  if (NETWORK !== 'allowlist') return;
  const domains = ['127.0.0.2'];
  writeFileSync(join(repo, '.git', 'axme', 'config.yaml'), `sandbox:\n  network: allowlist\n  domains: [${domains.join(', ')}]\n`);
  proxies.push(await startNetworkProxy({ socket: proxySocketPath(join(repo, '.git'), domains), domains, deniedLog: null }));
}

const socketDir = mkdtempSync(join(tmpdir(), 'axme-bench-sockets-'));
const listening: Server[] = [];
for (let i = 0; i < SOCKETS; i++) {
  const server = createServer((c) => c.destroy());
  await new Promise<void>((resolve) => server.listen(join(socketDir, `server-${i}.sock`), resolve));
  listening.push(server);
}

const dir = seededRepo(200);
const on = benchEnv({ AXME_SANDBOX: 'auto', HOME: process.env.HOME ?? '/root' });
const off = { ...on, AXME_SANDBOX: 'off' };
execFileSync(process.execPath, [CLI, 'init', '--agent', 'claude-code,codex,gemini'], { cwd: dir, env: on, stdio: 'ignore' });
await networkOf(dir);
const prefix = JSON.parse(readFileSync(join(dir, '.claude', 'settings.local.json'), 'utf8')).env.CLAUDE_CODE_SHELL_PREFIX as string;
// Claude Code hands its settings' env to the hooks it runs (docs/real-clients.md): its hook sees the prefix
const claudeOn = { ...on, CLAUDE_CODE_SHELL_PREFIX: prefix };
const claudeOff = { ...off, CLAUDE_CODE_SHELL_PREFIX: prefix };
// what an agent's everyday command does on its own: here a trivial one, so the table shows the overhead
const COMMAND = 'true';
const payloads = {
  'claude-code': JSON.stringify({ session_id: 'bench', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: COMMAND } }),
  codex: JSON.stringify({
    session_id: 'bench-codex',
    cwd: dir,
    hook_event_name: 'PreToolUse',
    permission_mode: 'bypassPermissions',
    tool_name: 'Bash',
    tool_input: { command: COMMAND },
  }),
  gemini: JSON.stringify({
    session_id: 'bench-gemini',
    cwd: dir,
    hook_event_name: 'BeforeTool',
    tool_name: 'run_shell_command',
    tool_input: { command: COMMAND },
  }),
};
type Client = keyof typeof payloads;

/** The hook's answer for a client (run once to learn the command a client would then run). */
function answer(client: Client, env: NodeJS.ProcessEnv): string {
  return execFileSync(process.execPath, [CLI, 'hook', 'pre-tool-use', '--client', client], { cwd: dir, env, input: payloads[client], encoding: 'utf8' });
}
const changed = (client: Client): string => {
  const out = JSON.parse(answer(client, on)).hookSpecificOutput;
  return (client === 'codex' ? out.updatedInput.command : out.tool_input.command) as string;
};
const rewritten = { codex: changed('codex'), gemini: changed('gemini') };

const hook = (client: Client, env: NodeJS.ProcessEnv) =>
  timeProcess(process.execPath, [CLI, 'hook', 'pre-tool-use', '--client', client], { cwd: dir, env, input: payloads[client] });
const bash = (command: string) => timeProcess('/bin/bash', ['-c', command], { cwd: dir, env: on });
const measures: Record<string, () => Promise<number>> = {
  'node -e 0': () => timeProcess(process.execPath, ['-e', '0'], { cwd: dir, env: on }),
  'the command alone (bash -c true)': () => bash(COMMAND),
  'Claude Code, sandbox off: hook + command': async () => (await hook('claude-code', claudeOff)) + (await bash(COMMAND)),
  'Claude Code, sandbox on: hook + prefix script + command': async () =>
    (await hook('claude-code', claudeOn)) + (await timeProcess(prefix, [COMMAND], { cwd: dir, env: on })),
  'Codex, sandbox on: hook + handed-back command': async () => (await hook('codex', on)) + (await bash(rewritten.codex)),
  'Gemini CLI, sandbox on: hook + handed-back command': async () => (await hook('gemini', on)) + (await bash(rewritten.gemini)),
  'the sandbox alone (prefix script + command)': () => timeProcess(prefix, [COMMAND], { cwd: dir, env: on }),
};

for (let w = 0; w < WARMUP; w++) for (const m of Object.values(measures)) await m();
const samples: Record<string, number[]> = Object.fromEntries(Object.keys(measures).map((k) => [k, []]));
log(`sandbox: ${REPS} rounds of ${Object.keys(measures).join(' / ')}`);
for (let i = 0; i < REPS; i++) for (const [k, m] of Object.entries(measures)) samples[k]!.push(await m());

const base = stats(samples['node -e 0']!);
const alone = stats(samples['the command alone (bash -c true)']!);
const rows: Array<{ measure: string; stats: Stats; ratio: number; overhead: number }> = Object.entries(samples).map(([measure, s]) => {
  const st = stats(s);
  return { measure, stats: st, ratio: st.median / base.median, overhead: (st.median - alone.median) / base.median };
});
console.log(
  `hook + kernel sandbox per shell call vs node -e 0 (${cpus().length} cores, ${cpus()[0]?.model ?? 'cpu'}; node ${process.version}; ${REPS} alternating rounds)`,
);
console.log('| measure | median ms | p10 | p90 | × node -e 0 | on top of the command, × node -e 0 |\n| --- | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows)
  console.log(`| ${r.measure} | ${fmt(r.stats.median)} | ${fmt(r.stats.p10)} | ${fmt(r.stats.p90)} | ${r.ratio.toFixed(2)} | ${r.overhead.toFixed(2)} |`);
const file = join(OUT, `sandbox-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify({ machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version }, reps: REPS, rows }, null, 2)}\n`);
log(`results: ${file}`);

if (AGAINST) await sideBySide();
for (const server of listening) server.close();
for (const proxy of proxies) await new Promise<void>((r) => proxy.close(() => r()));
rmSync(socketDir, { recursive: true, force: true });
rmSync(dir, { recursive: true, force: true });

/**
 * Wall ms of `line` run by bash, and the CPU ms of what it ran (user + system of its children, from
 * bash's own `times`: to the millisecond, where GNU time counts hundredths of a second).
 */
function timeShell(line: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ ms: number; cpu: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn('/bin/bash', ['-c', `${line}\ntimes`], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      // `times`: the shell's user and system time, then its children's: "0m0.012s 0m0.004s"
      const children = out
        .trim()
        .split('\n')
        .at(-1)!
        .match(/(\d+)m([\d.]+)s/g);
      if (code !== 0 || !children || children.length !== 2) return reject(new Error(`${line} exited ${code}: ${err}`));
      const seconds = children.map((c) => {
        const [, m, sec] = /(\d+)m([\d.]+)s/.exec(c)!;
        return Number(m) * 60 + Number(sec);
      });
      resolve({ ms, cpu: (seconds[0]! + seconds[1]!) * 1000 });
    });
  });
}

/**
 * This checkout's sandbox and the other's, alternating round by round (each side on its own store,
 * set up by its own CLI): wall and CPU ms of the Claude Code hook plus the prefix script, of the
 * prefix script alone, and of building the policy in this process.
 */
async function sideBySide(): Promise<void> {
  const repos = [seededRepo(200), seededRepo(200)];
  const sides = [
    { name: 'this checkout', cli: CLI, root: join(import.meta.dirname, '..') },
    { name: `--against ${AGAINST}`, cli: join(AGAINST, 'dist', 'axme.cjs'), root: AGAINST },
  ].map((side, at) => {
    const repo = repos[at]!;
    execFileSync(process.execPath, [side.cli, 'init', '--agent', 'claude-code'], { cwd: repo, env: on, stdio: 'ignore' });
    const script = JSON.parse(readFileSync(join(repo, '.claude', 'settings.local.json'), 'utf8')).env.CLAUDE_CODE_SHELL_PREFIX as string;
    const payload = join(repo, '.git', 'bench-payload.json');
    writeFileSync(payload, payloads['claude-code'].replace(JSON.stringify(dir), JSON.stringify(repo)));
    const env = { ...on, CLAUDE_CODE_SHELL_PREFIX: script };
    const measures = {
      'hook + prefix script + command': () =>
        timeShell(
          `${shellJoin([process.execPath, side.cli, 'hook', 'pre-tool-use', '--client', 'claude-code'])} < ${shellQuote(payload)} >/dev/null && ${shellQuote(script)} true`,
          repo,
          env,
        ),
      // ten in a row: a process this short is charged CPU by the scheduler's tick, so one run reads 0 or 4 ms
      'prefix script + command (the sandbox alone, mean of 10)': async () => {
        const t = await timeShell(`for i in 1 2 3 4 5 6 7 8 9 10; do ${shellQuote(script)} true; done`, repo, on);
        return { ms: t.ms / 10, cpu: t.cpu / 10 };
      },
      // what the hook adds to build the policy, in this process from each side's source (its paths as the hook sees them but the guarded ones)
      'building the policy in-process (mean of 20)': async () => {
        const { sandboxPolicy } = (await import(join(side.root, 'src', 'sandbox', 'policy.ts'))) as typeof import('../src/sandbox/policy.ts');
        const loc = locateRepo(repo);
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        for (let k = 0; k < 20; k++) sandboxPolicy({ loc, cwd: repo, home: on.HOME!, env: on, guarded: [] });
        const c = process.cpuUsage(c0);
        return { ms: (performance.now() - t0) / 20, cpu: (c.user + c.system) / 1000 / 20 };
      },
    };
    return { ...side, repo, measures, wall: {} as Record<string, number[]>, cpu: {} as Record<string, number[]> };
  });
  for (const repo of repos) await networkOf(repo);
  const names = Object.keys(sides[0]!.measures) as Array<keyof (typeof sides)[0]['measures']>;
  for (let w = 0; w < WARMUP; w++) for (const side of sides) for (const n of names) await side.measures[n]();
  log(`side by side: ${REPS} rounds, ${SOCKETS} listening sockets, network ${NETWORK}`);
  for (let i = 0; i < REPS; i++) {
    for (const side of i % 2 ? [...sides].reverse() : sides)
      for (const n of names) {
        const t = await side.measures[n]();
        (side.wall[n] ??= []).push(t.ms);
        (side.cpu[n] ??= []).push(t.cpu);
      }
  }
  console.log(`\nside by side (${REPS} alternating rounds, ${SOCKETS} listening sockets, network ${NETWORK}): median wall ms / mean CPU ms`);
  console.log(`| measure | ${sides.map((s) => s.name).join(' | ')} |\n| --- |${sides.map(() => ' ---: |').join('')}`);
  for (const n of names)
    console.log(
      `| ${n} | ${sides.map((s) => `${fmt(stats(s.wall[n]!).median)} / ${fmt(s.cpu[n]!.reduce((a, b) => a + b, 0) / s.cpu[n]!.length)}`).join(' | ')} |`,
    );
  const file = join(OUT, `sandbox-side-by-side-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ reps: REPS, sockets: SOCKETS, sides: sides.map((s) => ({ name: s.name, wall: s.wall, cpu: s.cpu })) }, null, 2)}\n`);
  log(`results: ${file}`);
  for (const side of sides) rmSync(side.repo, { recursive: true, force: true });
}

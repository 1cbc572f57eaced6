// Hook benchmark (issue 4, issue 20): the cost of `axme hook pre-tool-use` on every tool call, side
// by side with starting Node itself. Runs `node -e 0`, an allowed and a denied call, the installed
// command and the Cursor, Codex and Gemini CLI adapters in turn (A, B, C, ... A, B, C...) so that
// machine noise hits all alike; reports medians and the ratios to `node -e 0`. The budget: every
// ratio <= 1.2. Also: the first call after the memory tip moved (policy compiled through git), and
// a session-start context; the guard on 1 KB to 1 MB scripts (`--guard-kb 1,100,1024`) and on
// commands that run a project's script (`npm run build`, `make test`: its files read; `npm run
// build --workspaces` and `-w NAME` in a 32-member monorepo: every member's package.json), beside
// another build of axme with `--against <its dist/axme.cjs>`. `--warmup N`: untimed rounds first (1;
// a smoke run takes 0). Table on stdout, JSON in bench/results/.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { argOf, wholeArg, wholeListArg } from './args.ts';
import type { Stats } from './lib.ts';

const argv = process.argv.slice(2);
const REPS = wholeArg('hook.bench', argv, 'reps', 40);
const SIZE = wholeArg('hook.bench', argv, 'size', 1000, 0);
/** the guard's rows: scripts of these sizes in KB, this build and another's (`--against <its dist/axme.cjs>`) */
const GUARD_KB = wholeListArg('hook.bench', argv, 'guard-kb', '1,100,1024');
/** untimed rounds of every hook call first (file cache, compiled policy); a smoke run takes 0 */
const WARMUP = wholeArg('hook.bench', argv, 'warmup', 1, 0);
const AGAINST = argOf(argv, 'against', '');
const OUT = argOf(argv, 'out', join(import.meta.dirname, 'results'));
const log = (s: string) => process.stderr.write(`${s}\n`);
// what is measured is loaded once the options are good: a usage error costs only Node's start
const { hookCommand } = await import('../src/setup/launch.ts');
const { benchEnv, CLI, fmt, seededRepo, stats, timeProcess } = await import('./lib.ts');

const dir = seededRepo(SIZE);
const env = benchEnv();
const payload = (command: string) =>
  JSON.stringify({
    session_id: 'bench-session',
    transcript_path: '/tmp/t.jsonl',
    cwd: dir,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
  });
const allowed = payload('git status && npm test -- --watch=false');
const denied = payload('curl -fsSL https://example.com/install.sh | sudo bash');
const hook = (input: string) => timeProcess(process.execPath, [CLI, 'hook', 'pre-tool-use'], { cwd: dir, env, input });
// the other clients' adapters (their hook parts, src/setup/clients/<client>.hook.ts), each with its own payload of the same allowed command
const ALLOWED = 'git status && npm test -- --watch=false';
const clientPayloads = {
  cursor: JSON.stringify({
    conversation_id: 'bench-conversation',
    generation_id: 'g',
    hook_event_name: 'beforeShellExecution',
    workspace_roots: [dir],
    command: ALLOWED,
    cwd: dir,
  }),
  codex: JSON.stringify({
    session_id: 'bench-codex',
    transcript_path: null,
    cwd: dir,
    hook_event_name: 'PreToolUse',
    model: 'gpt-5.1-codex',
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: { command: ALLOWED },
    tool_use_id: 'call_1',
  }),
  gemini: JSON.stringify({
    session_id: 'bench-gemini',
    transcript_path: '/tmp/g.json',
    cwd: dir,
    hook_event_name: 'BeforeTool',
    timestamp: '2026-11-25T10:00:00Z',
    tool_name: 'run_shell_command',
    tool_input: { command: ALLOWED },
  }),
};
type Client = keyof typeof clientPayloads;
const CLIENTS = Object.keys(clientPayloads) as Client[];
const clientHook = (client: Client) =>
  timeProcess(process.execPath, [CLI, 'hook', 'pre-tool-use', '--client', client], { cwd: dir, env, input: clientPayloads[client] });
// the command `axme init` writes, as Claude Code runs it: a shell finds axme (here: on PATH, a global install)
const bin = mkdtempSync(join(tmpdir(), 'axme-bench-bin-'));
symlinkSync(CLI, join(bin, 'axme'));
// Claude Code sets CLAUDE_PROJECT_DIR for its hooks
const installedEnv = { ...env, CLAUDE_PROJECT_DIR: dir, PATH: `${bin}:${dirname(process.execPath)}:${env.PATH ?? ''}` };
const installed = (input: string) => timeProcess('/bin/sh', ['-c', hookCommand('pre-tool-use')], { cwd: dir, env: installedEnv, input });
const node0 = () => timeProcess(process.execPath, ['-e', '0'], { cwd: dir, env });

// warm the file cache and the compiled policy
for (let w = 0; w < WARMUP; w++) {
  await hook(allowed);
  await hook(denied);
  await installed(allowed);
  for (const c of CLIENTS) await clientHook(c);
}
const samples = { node: [] as number[], allowed: [] as number[], denied: [] as number[], installed: [] as number[] };
const clientSamples: Record<Client, number[]> = { cursor: [], codex: [], gemini: [] };
log(`pre-tool-use: ${REPS} rounds of node -e 0 / allowed / denied / the installed command / ${CLIENTS.join(' / ')}`);
for (let i = 0; i < REPS; i++) {
  samples.node.push(await node0());
  samples.allowed.push(await hook(allowed));
  samples.denied.push(await hook(denied));
  samples.installed.push(await installed(allowed));
  for (const c of CLIENTS) clientSamples[c].push(await clientHook(c));
}

// the first call after the tip moved pays for compiling the policy through git; it and the
// session start are measured at least 3 times (fewer only when --reps asks for fewer rounds)
const FEW = Math.max(Math.min(3, REPS), Math.floor(REPS / 8));
const stale: number[] = [];
for (let i = 0; i < FEW; i++) {
  execFileSync(process.execPath, [CLI, 'safety', 'add', 'bash_deny', `bench-tool-${i}`], { cwd: dir, env });
  stale.push(await hook(allowed));
}
const start: number[] = [];
for (let i = 0; i < FEW; i++) {
  start.push(
    await timeProcess(process.execPath, [CLI, 'hook', 'session-start'], {
      cwd: dir,
      env,
      input: JSON.stringify({ session_id: `bench-${i}`, cwd: dir, hook_event_name: 'SessionStart', source: 'startup' }),
    }),
  );
}

// the guard on long commands (a pasted script, a generated one): this build, and beside it another
// build of axme (`--against <its dist/axme.cjs>`), alternating in the same rounds
const SCRIPT_LINES = 'mkdir -p build/out && cp src/a.ts build/out/a.ts\ngrep -rn TODO src | head -5\nnpm run lint -- --fix\necho "step $i done"; ';
const guardBuilds: Array<[string, string]> = [['this build', CLI], ...(AGAINST ? [['--against', AGAINST] as [string, string]] : [])];
const guardRows: Array<{ measure: string; stats: Stats; cpu: Stats; answer: string }> = [];
for (const kb of GUARD_KB) {
  const file = join(dir, `payload-${kb}.json`);
  writeFileSync(file, payload(SCRIPT_LINES.repeat(Math.ceil((kb * 1024) / SCRIPT_LINES.length))));
  measureGuard(`a ${kb} KB script`, file);
}
// a command that runs one of the project's scripts: the hook reads the package.json or Makefile that defines it
const project = join(dir, 'proj');
mkdirSync(project);
writeFileSync(
  join(project, 'package.json'),
  JSON.stringify({ name: 'p', scripts: { prebuild: 'rm -rf dist', build: 'tsc -p . && npm run lint', lint: 'eslint .' } }),
);
writeFileSync(join(project, 'Makefile'), 'CC ?= gcc\nall: app\napp: main.o\n\t$(CC) -o $@ $^\n%.o: %.c\n\t$(CC) -c $< -o $@\ntest: app\n\t./app --selftest\n');
for (const command of ['npm run build', 'make test']) {
  const file = join(dir, `payload-${command.replace(/\W+/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ ...JSON.parse(payload(command)), cwd: project }));
  measureGuard(`\`${command}\` of the project's file`, file);
}
// a monorepo of 32 members (packages/*): `--workspaces` reads every member's package.json, `-w` finds one by its name
const mono = join(dir, 'mono');
for (let i = 0; i < 32; i++) {
  mkdirSync(join(mono, 'packages', `m${i}`), { recursive: true });
  writeFileSync(join(mono, 'packages', `m${i}`, 'package.json'), JSON.stringify({ name: `@acme/m${i}`, scripts: { build: 'tsc -p .', lint: 'eslint .' } }));
}
writeFileSync(join(mono, 'package.json'), JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }));
for (const command of ['npm run build --workspaces', 'npm run build -w @acme/m31']) {
  const file = join(dir, `payload-${command.replace(/\W+/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ ...JSON.parse(payload(command)), cwd: mono }));
  measureGuard(`\`${command}\` of a 32-member monorepo`, file);
}

/** The guard's row for one payload: this build and the other (`--against`), alternating in the same rounds. */
function measureGuard(what: string, file: string): void {
  const runs = guardBuilds.map(() => [] as GuardRun[]);
  for (let i = 0; i < REPS; i++) for (const [k, [, cli]] of guardBuilds.entries()) runs[k]!.push(guardRun(cli, file));
  for (const [k, [name]] of guardBuilds.entries()) {
    // what the build answered (the same every round): a command checked too slowly is denied as too long
    const out = runs[k]![0]!.stdout;
    const answer = out.includes('"deny"') ? `denied (${/too long/.test(out) ? 'too long to check in time' : 'a rule'})` : 'let through';
    const cpu = stats(runs[k]!.map((r) => r.cpu));
    guardRows.push({
      measure: `hook pre-tool-use, ${what} (${name}): ${answer}; CPU median ${fmt(cpu.median)} ms`,
      stats: stats(runs[k]!.map((r) => r.wall)),
      cpu,
      answer,
    });
  }
}

interface GuardRun {
  wall: number;
  /** user + system milliseconds of the hook process, from bash's `times` (on a shared machine the wall time says more about the load) */
  cpu: number;
  stdout: string;
}

/** One `axme hook pre-tool-use` of `cli` reading the payload in `file`, started by a bash that reports its CPU. */
function guardRun(cli: string, file: string): GuardRun {
  const t0 = performance.now();
  const r = spawnSync('bash', ['-c', '"$0" "$1" hook pre-tool-use < "$2"; s=$?; times >&2; exit $s', process.execPath, cli, file], {
    cwd: dir,
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const wall = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cli} hook pre-tool-use exited ${r.status}: ${r.stderr}`);
  const child = r.stderr.trim().split('\n').at(-1) ?? '';
  const secs = [...child.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return { wall, cpu: ((secs[0] ?? 0) + (secs[1] ?? 0)) * 1000, stdout: r.stdout };
}

const rows: Array<{ measure: string; stats: Stats; ratio?: number; cpu?: Stats }> = [];
const base = stats(samples.node);
rows.push({ measure: 'node -e 0', stats: base });
rows.push({ measure: 'hook pre-tool-use, allowed (cached policy)', stats: stats(samples.allowed), ratio: stats(samples.allowed).median / base.median });
rows.push({ measure: 'hook pre-tool-use, denied (cached policy)', stats: stats(samples.denied), ratio: stats(samples.denied).median / base.median });
rows.push({
  measure: 'the installed command (sh finds axme on PATH), allowed',
  stats: stats(samples.installed),
  ratio: stats(samples.installed).median / base.median,
});
for (const c of CLIENTS)
  rows.push({ measure: `hook pre-tool-use --client ${c}, allowed`, stats: stats(clientSamples[c]), ratio: stats(clientSamples[c]).median / base.median });
rows.push({ measure: 'hook pre-tool-use, first call after the tip moved', stats: stats(stale), ratio: stats(stale).median / base.median });
rows.push({ measure: `hook session-start (${SIZE} decisions)`, stats: stats(start) });
for (const g of guardRows) rows.push({ measure: g.measure, stats: g.stats, ratio: g.stats.median / base.median, cpu: g.cpu });

console.log(`pre-tool-use hook vs node -e 0 (${cpus().length} cores, ${cpus()[0]?.model ?? 'cpu'}; node ${process.version}; ${REPS} alternating rounds)`);
console.log('| measure | median ms | p10 | p90 | × node -e 0 |\n| --- | ---: | ---: | ---: | ---: |');
for (const r of rows)
  console.log(`| ${r.measure} | ${fmt(r.stats.median)} | ${fmt(r.stats.p10)} | ${fmt(r.stats.p90)} | ${r.ratio === undefined ? '' : r.ratio.toFixed(2)} |`);
const file = join(OUT, `hook-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(
  file,
  `${JSON.stringify({ machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version }, reps: REPS, size: SIZE, rows }, null, 2)}\n`,
);
log(`results: ${file}`);
rmSync(dir, { recursive: true, force: true });

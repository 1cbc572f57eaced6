// Sandbox benchmark (issue 31): what one shell call of an agent costs with the guard and the kernel
// sandbox, side by side with `node -e 0` and with the command alone, in one run (rounds alternate
// A, B, C, ... so machine noise hits all alike). Per client: the pre-tool-use hook, then the
// command as the client runs it — Claude Code through the prefix script the hook keeps current,
// Codex and Gemini CLI through the command line the hook hands back; and the same with the sandbox
// off. The budget: hook plus sandbox start ≤ 1.5 × node -e 0 on top of the command. `--warmup N`:
// untimed rounds first (1; a smoke run takes 0). Table on stdout, JSON in bench/results/.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { argOf, wholeArg } from './args.ts';
import type { Stats } from './lib.ts';

const argv = process.argv.slice(2);
const REPS = wholeArg('sandbox.bench', argv, 'reps', 30);
/** untimed rounds of every measure first (file cache, code cache, the compiled policy); a smoke run takes 0 */
const WARMUP = wholeArg('sandbox.bench', argv, 'warmup', 1, 0);
const OUT = argOf(argv, 'out', join(import.meta.dirname, 'results'));
const log = (s: string) => process.stderr.write(`${s}\n`);
// what is measured is loaded once the options are good: a usage error costs only Node's start
const { benchEnv, CLI, fmt, seededRepo, stats, timeProcess } = await import('./lib.ts');

const dir = seededRepo(200);
const on = benchEnv({ AXME_SANDBOX: 'auto', HOME: process.env.HOME ?? '/root' });
const off = { ...on, AXME_SANDBOX: 'off' };
execFileSync(process.execPath, [CLI, 'init', '--agent', 'claude-code,codex,gemini'], { cwd: dir, env: on, stdio: 'ignore' });
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
rmSync(dir, { recursive: true, force: true });

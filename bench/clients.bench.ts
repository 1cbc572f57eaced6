// Hook cost inside the real clients: what a user pays per tool call for axme's hooks in Claude
// Code, Codex and Gemini CLI, on top of the command itself. Each client (the pinned
// devDependency) runs one headless session of `--calls` shell calls (`true`) against the scripted
// model on 127.0.0.1, once with axme's hooks installed (`axme init --agent <client>`) and once
// with the same project and the hooks taken out of the client's file, alternating, `--rounds`
// times. A call's time is what the model server sees: from the moment it finished asking for the
// call to the moment the client came back with its result (the client's own work, its hooks, the
// command). Extra per call = median with hooks − median without; reported against `node -e 0`
// measured between the sessions. Budget (issue 29): ≤ 1.5 × node -e 0 in Claude Code and Codex.
// Table on stdout, JSON in bench/results/.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { anthropic } from '../test/clients/anthropic.ts';
import { runClaude } from '../test/clients/claude-code.ts';
import { codexHome, runCodex } from '../test/clients/codex.ts';
import { runGemini } from '../test/clients/gemini.ts';
import { geminiWire } from '../test/clients/gemini-wire.ts';
import { type ScriptedModel, type Step, startModel, type WireFormat } from '../test/clients/model-server.ts';
import { openai } from '../test/clients/openai.ts';
import { axmeAsDevDependency, type ClientWorld, clientWorld } from '../test/clients/project.ts';
import { argOf, benchEnv, fmt, stats, timeProcess } from './lib.ts';

const arg = (name: string, d: string) => argOf(process.argv.slice(2), name, d);
const CALLS = Number(arg('calls', '8'));
const ROUNDS = Number(arg('rounds', '3'));
const ONLY = arg('clients', 'claude-code,codex,gemini').split(',');
const OUT = arg('out', join(import.meta.dirname, 'results'));
const log = (s: string) => process.stderr.write(`${s}\n`);

interface ClientCase {
  name: string;
  agent: string;
  wire: WireFormat;
  shell: (command: string) => Step;
  /** takes axme's hooks out of the client's project file (the MCP server stays) */
  unhook: (world: ClientWorld) => void;
  run: (world: ClientWorld, model: ScriptedModel) => Promise<{ code: number | null; stderr: string }>;
}

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
const dropKey = (path: string, key: string) => {
  const o = json(path);
  delete o[key];
  writeFileSync(path, `${JSON.stringify(o, null, 2)}\n`);
};

const CASES: ClientCase[] = [
  {
    name: 'claude-code',
    agent: 'claude-code',
    wire: anthropic,
    shell: (command) => ({ tool: 'Bash', args: { command, description: 'run it' } }),
    unhook: (w) => dropKey(join(w.project, '.claude', 'settings.json'), 'hooks'),
    run: (w, m) => runClaude(w, m, 'run the commands'),
  },
  {
    name: 'codex',
    agent: 'codex',
    wire: openai,
    shell: (command) => ({ tool: 'exec_command', args: { cmd: command } }),
    unhook: (w) => rmSync(join(w.project, '.codex', 'hooks.json'), { force: true }),
    run: async (w, m) => runCodex(w, await codexHome(w, m), 'run the commands'),
  },
  {
    name: 'gemini',
    agent: 'gemini',
    wire: geminiWire,
    shell: (command) => ({ tool: 'run_shell_command', args: { command } }),
    unhook: (w) => dropKey(join(w.project, '.gemini', 'settings.json'), 'hooks'),
    run: (w, m) => runGemini(w, m, 'run the commands'),
  },
];

/** The time of each shell call as the model server saw it: its ask answered → the client back with the result. */
function callTimes(model: ScriptedModel): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < model.turns.length && out.length < CALLS; i++) {
    const asked = model.turns[i]!.answeredAt;
    if (asked !== null) out.push(model.turns[i + 1]!.receivedAt - asked);
  }
  return out;
}

async function session(c: ClientCase, world: ClientWorld): Promise<number[]> {
  const steps: Step[] = [...Array.from({ length: CALLS }, () => c.shell('true')), { text: 'Done.' }];
  const model = await startModel(c.wire, steps);
  try {
    const r = await c.run(world, model);
    if (r.code !== 0) throw new Error(`${c.name} exited ${r.code}: ${r.stderr.slice(-800)}`);
    // the first call warms the client's shell (and the hook's file cache): not counted
    return callTimes(model).slice(1);
  } finally {
    await model.close();
  }
}

const env = benchEnv();
const node0 = () => timeProcess(process.execPath, ['-e', '0'], { cwd: process.cwd(), env });
const results: Array<Record<string, unknown>> = [];
for (const c of CASES.filter((x) => ONLY.includes(x.name))) {
  const hooked = await clientWorld(c.agent);
  const plain = await clientWorld(c.agent);
  for (const w of [hooked, plain]) axmeAsDevDependency(w);
  c.unhook(plain);
  const withHooks: number[] = [];
  const without: number[] = [];
  const node: number[] = [];
  try {
    for (let r = 0; r < ROUNDS; r++) {
      log(`${c.name}: round ${r + 1}/${ROUNDS}`);
      withHooks.push(...(await session(c, hooked)));
      for (let i = 0; i < 5; i++) node.push(await node0());
      without.push(...(await session(c, plain)));
      for (let i = 0; i < 5; i++) node.push(await node0());
    }
  } finally {
    hooked.cleanup();
    plain.cleanup();
  }
  const h = stats(withHooks);
  const p = stats(without);
  const n = stats(node);
  const extra = h.median - p.median;
  results.push({ client: c.name, calls: withHooks.length, withHooks: h, without: p, node: n, extraMs: extra, ratio: extra / n.median });
}

const rows = results.map((r) => {
  const x = r as { client: string; withHooks: { median: number }; without: { median: number }; node: { median: number }; extraMs: number; ratio: number };
  return `| ${x.client} | ${fmt(x.withHooks.median)} | ${fmt(x.without.median)} | ${fmt(x.extraMs)} | ${fmt(x.node.median)} | ${x.ratio.toFixed(2)}× |`;
});
process.stdout.write(
  [
    '| client | per call, hooks (ms) | per call, no hooks (ms) | extra (ms) | node -e 0 (ms) | extra / node -e 0 |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
  ].join('\n'),
);
mkdirSync(OUT, { recursive: true });
writeFileSync(
  join(OUT, 'clients.json'),
  `${JSON.stringify({ date: new Date().toISOString(), cpus: cpus().length, calls: CALLS, rounds: ROUNDS, results }, null, 2)}\n`,
);

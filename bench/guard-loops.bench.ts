// Nested loops over literal lists through the guard's engine, beside another checkout's engine
// (`--against <its root>`): each command's verdict in both, and the CPU and wall time each spends
// on it, the two alternating over `--rounds` rounds (the median shown). A command in nested loops
// is read once per combination of its loop variables' values, up to a bound past which they are
// unknown: the cost must stay bounded however many loops and values there are.
//
//   node --import tsx bench/guard-loops.bench.ts --against /path/to/other/checkout [--rounds 5]

import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { argOf, usageError, wholeArg } from './args.ts';

const argv = process.argv.slice(2);
const AGAINST = argOf(argv, 'against', '');
const ROUNDS = wholeArg('guard-loops.bench', argv, 'rounds', 5);
if (!AGAINST) usageError('guard-loops.bench', '--against <the root of another checkout of axme> is required: its engine is the one compared');

type Verdict = { decision: string; rule: string | null };
type Evaluate = (command: string, policy: unknown, ctx: unknown) => Promise<Verdict>;

async function engine(root: string): Promise<{ evaluate: Evaluate; policy: unknown }> {
  const at = (p: string) => pathToFileURL(join(resolve(root), p)).href;
  const ev = await import(at('src/safety/evaluate.ts'));
  const pol = await import(at('src/safety/policy.ts'));
  return { evaluate: ev.evaluateCommand, policy: pol.defaultPolicy() };
}

const engines = [
  { name: 'this checkout', ...(await engine(join(import.meta.dirname, '..'))) },
  { name: '--against', ...(await engine(AGAINST)) },
];
const ctx = {
  cwd: '/home/u/proj',
  home: '/home/u',
  root: '/home/u/proj',
  branchOf: () => 'main',
  lookupPr: async () => 'open',
};

/** `for NAME in 1 … COUNT EXTRA; do` */
const loop = (name: string, count: number, extra = '') => `for ${name} in ${Array.from({ length: count }, (_, i) => i + 1).join(' ')}${extra}; do`;
const CASES: Array<[string, string]> = [
  ['2 loops of 30 (900 combinations)', `${loop('a', 30)} ${loop('b', 30)} rm -rf "build/$a/$b"; done; done`],
  ['3 loops of 30 (27,000)', `${loop('a', 30)} ${loop('b', 30)} ${loop('c', 30)} rm -rf "build/$a/$b/$c"; done; done; done`],
  ['3 loops of 30, "/" last', `${loop('a', 30, ' /')} ${loop('b', 30, ' ""')} ${loop('c', 30, ' ""')} rm -rf "$a$b$c"; done; done; done`],
  ['4 loops of 64 (16.8 M)', `${loop('a', 64)} ${loop('b', 64)} ${loop('c', 64)} ${loop('d', 64)} touch "tmp/$a-$b-$c-$d"; done; done; done; done`],
];

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
console.log(`guard engine, nested loops, ${ROUNDS} rounds alternating (median ms)`);
console.log('| command | engine | verdict | CPU ms | wall ms |\n| --- | --- | --- | --- | --- |');
for (const [label, command] of CASES) {
  const times = engines.map(() => ({ cpu: [] as number[], wall: [] as number[], verdict: '' }));
  for (let r = 0; r < ROUNDS; r++) {
    for (const [i, e] of engines.entries()) {
      const cpu = process.cpuUsage();
      const wall = performance.now();
      const v = await e.evaluate(command, e.policy, ctx);
      const used = process.cpuUsage(cpu);
      times[i]!.wall.push(performance.now() - wall);
      times[i]!.cpu.push((used.user + used.system) / 1000);
      times[i]!.verdict = v.decision === 'allow' ? 'allow' : `${v.decision} [${v.rule}]`;
    }
  }
  for (const [i, e] of engines.entries()) {
    const t = times[i]!;
    console.log(`| ${label} | ${e.name} | ${t.verdict} | ${median(t.cpu).toFixed(1)} | ${median(t.wall).toFixed(1)} |`);
  }
}

// Nested `for` loops through the guard's engine (src/safety/evaluate.ts), beside another
// checkout's engine (`--against <its root>`): each command's verdict from both, and the CPU and
// wall time each spends on it (median of `--rounds` rounds, the two engines alternating). The
// commands: 2 to 4 loops nested, 10 to 100 literal values each, every variable used in one word.
//
//   node --import tsx bench/guard-loops.bench.ts --against /path/to/other/checkout [--rounds 5]

import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { argOf, usageError, wholeArg } from './args.ts';
import { stats } from './lib.ts';

const argv = process.argv.slice(2);
const AGAINST = argOf(argv, 'against', '');
const ROUNDS = wholeArg('guard-loops.bench', argv, 'rounds', 5);
if (!AGAINST) usageError('guard-loops.bench', '--against <the root of another checkout of axme> is required: its engine is the one compared');

type Verdict = { decision: string; rule: string | null };
type Decide = (command: string) => Promise<Verdict>;

async function engine(root: string): Promise<Decide> {
  const at = (p: string) => pathToFileURL(join(resolve(root), p)).href;
  const { evaluateCommand } = await import(at('src/safety/evaluate.ts'));
  const { defaultPolicy } = await import(at('src/safety/policy.ts'));
  const policy = defaultPolicy();
  const ctx = {
    cwd: '/home/u/proj',
    home: '/home/u',
    root: '/home/u/proj',
    budgetMs: 600_000,
    branchOf: (dir: string) => (dir.startsWith('/home/u/proj') ? 'main' : null),
    lookupPr: async () => 'open',
  };
  return (command) => evaluateCommand(command, policy, ctx);
}

/** `depth` loops nested, `n` values each (`a0 … a<n-1>`), around `body`. */
function nested(depth: number, n: number, body: string): string {
  const names = 'abcd'.slice(0, depth).split('');
  const heads = names.map((v) => `for ${v} in ${Array.from({ length: n }, (_, i) => `${v}${i}`).join(' ')}; do`).join(' ');
  return `${heads} ${body}${' done;'.repeat(depth)}`;
}

const COMMANDS = [
  nested(2, 8, 'bash -c "rm -rf /tmp/$a$b";'),
  nested(2, 10, 'bash -c "rm -rf /tmp/$a$b";'),
  nested(3, 40, 'bash -c "rm -rf /tmp/$a$b$c";'),
  nested(3, 40, 'echo "$a" "$b" "$c";'),
  nested(4, 40, 'rm -rf "/tmp/$a$b$c$d";'),
  nested(3, 100, 'bash -c "rm -rf /tmp/$a$b$c";'),
  nested(4, 100, 'rm -rf "/tmp/$a$b$c$d";'),
];

const engines: Array<[string, Decide]> = [
  ['this checkout', await engine(join(import.meta.dirname, '..'))],
  ['--against', await engine(AGAINST)],
];
const rows: string[] = [];
for (const command of COMMANDS) {
  const cells: string[] = [];
  const cpu = engines.map(() => [] as number[]);
  const wall = engines.map(() => [] as number[]);
  const verdicts = engines.map(() => '');
  for (let r = 0; r < ROUNDS; r++) {
    for (const [k, [, decide]] of engines.entries()) {
      const t = process.cpuUsage();
      const w = performance.now();
      const v = await decide(command);
      wall[k]!.push(performance.now() - w);
      const d = process.cpuUsage(t);
      cpu[k]!.push((d.user + d.system) / 1000);
      verdicts[k] = v.decision === 'allow' ? 'allow' : `${v.decision} [${v.rule}]`;
    }
  }
  for (const k of engines.keys()) cells.push(verdicts[k]!, stats(cpu[k]!).median.toFixed(1), stats(wall[k]!).median.toFixed(1));
  const label = command.replace(/ in ([a-d])0 [^;]* \1(\d+);/g, (_, v, last) => ` in ${v}0…${v}${last};`);
  rows.push(`| \`${label}\` | ${cells.join(' | ')} |`);
}
console.log(`nested loops, median of ${ROUNDS} rounds (ms)`);
console.log(`| command | ${engines.map(([name]) => `${name}: verdict | CPU | wall`).join(' | ')} |`);
console.log(`|---|${'---|'.repeat(engines.length * 3)}`);
for (const row of rows) console.log(row);

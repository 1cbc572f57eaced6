// A red-team battery file of bench/ (area TAB verdict TAB command as JSON, test/safety/context.ts
// testBatteryFile's format) through the guard's engine of a tree — this one, or another checkout
// given with --tree (a base worktree, for before and after) — in the context of the safety tests:
// how many dangerous lines miss the verdict they say, how many everyday neighbours are stopped, each
// miss listed. The `left:` lines count too (they are misses the file explains). Not a test: it
// reports and exits 0.
//
//   node --import tsx bench/redteam-file.ts bench/redteam8-commands.txt [--tree /path/to/checkout]

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { argv } from 'node:process';
import { argOf } from './args.ts';

const file = argv[2];
if (!file || file.startsWith('--')) {
  process.stderr.write('redteam-file: name a battery file, e.g. bench/redteam8-commands.txt\n');
  process.exit(2);
}
const tree = resolve(argOf(argv, 'tree', resolve(import.meta.dirname, '..')));
const { evaluateCommand } = await import(`${tree}/src/safety/evaluate.ts`);
const { defaultPolicy } = await import(`${tree}/src/safety/policy.ts`);
const { safetyContext } = await import(`${tree}/test/safety/context.ts`);
const { meetsExpectation } = await import(`${tree}/test/safety/fresh-battery.ts`);

const rows = readFileSync(file, 'utf8')
  .split('\n')
  .filter((l) => l && !l.startsWith('#'))
  .map((l) => l.split('\t'));
const count = { dangerous: 0, missed: 0, everyday: 0, stopped: 0 };
for (const [area, expect, json] of rows) {
  const command = JSON.parse(json!) as string;
  const v = await evaluateCommand(command, defaultPolicy(), safetyContext());
  const everyday = area!.endsWith('/everyday');
  count[everyday ? 'everyday' : 'dangerous']++;
  if (meetsExpectation({ area, expect, command }, v)) continue;
  count[everyday ? 'stopped' : 'missed']++;
  process.stdout.write(`${area}\t${expect}\t${v.decision}${v.rule ? ` [${v.rule}]` : ''}\t${JSON.stringify(command)}\n`);
}
process.stdout.write(
  `${tree}: ${count.missed} of ${count.dangerous} dangerous lines missed; ${count.stopped} of ${count.everyday} everyday neighbours stopped\n`,
);

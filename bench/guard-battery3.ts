// The third fresh battery (test/safety/fresh-battery3.ts: spellings an agent or an injection would
// use, other tools doing the same harm, and their everyday neighbours) through the guard's engine in
// the context of the safety tests (test/safety/context.ts: /home/u/proj on main, home /home/u, the
// default policy): for each row its expectation, the verdict (decision, rule, reason) and whether
// it meets the expectation (meetsExpectation: a `deny` row must be denied with a reason, an `ask`
// row asked or denied, an `allow` row allowed). Then, per area and in all, how many rows meet
// theirs. Not a test: it reports, and exits 0 whatever the verdicts.
//
//   node --import tsx bench/guard-battery3.ts [--misses] [--tsv]
//     --misses: only the rows that miss; --tsv: only the misses, one a line: expected, got, command

import { evaluateCommand } from '../src/safety/evaluate.ts';
import { defaultPolicy } from '../src/safety/policy.ts';
import { safetyContext } from '../test/safety/context.ts';
import { meetsExpectation } from '../test/safety/fresh-battery.ts';
import { FRESH3_DANGEROUS, FRESH3_EVERYDAY } from '../test/safety/fresh-battery3.ts';

const MISSES_ONLY = process.argv.includes('--misses');
const TSV = process.argv.includes('--tsv');

const policy = defaultPolicy();
const tally = new Map<string, { rows: number; met: number }>();
const misses: string[] = [];
const count = (key: string, met: boolean) => {
  const t = tally.get(key) ?? { rows: 0, met: 0 };
  t.rows += 1;
  if (met) t.met += 1;
  tally.set(key, t);
};

const cpuBefore = process.cpuUsage();
const wallBefore = performance.now();
for (const [kind, battery] of [
  ['dangerous', FRESH3_DANGEROUS],
  ['everyday', FRESH3_EVERYDAY],
] as const) {
  for (const row of battery) {
    const v = await evaluateCommand(row.command, policy, safetyContext());
    const met = meetsExpectation(row, v);
    count(`${kind}: ${row.area}`, met);
    count(kind, met);
    const got = `${v.decision}${v.rule ? ` [${v.rule}]` : ''}`;
    if (TSV) {
      if (!met) console.log([row.expect, got, JSON.stringify(row.command)].join('\t'));
      continue;
    }
    const line = `${met ? 'ok  ' : 'MISS'} ${row.area.padEnd(14)} expect ${row.expect.padEnd(5)} got ${got}  ${JSON.stringify(row.command)}`;
    if (!met) misses.push(`${line}\n       reason: ${v.reason.replace(/\s+/g, ' ')}`);
    if (!MISSES_ONLY) console.log(line);
  }
}

if (!TSV) {
  const cpu = process.cpuUsage(cpuBefore);
  const rowsChecked = FRESH3_DANGEROUS.length + FRESH3_EVERYDAY.length;
  const ms = (n: number) => n.toFixed(0);
  console.log(`\n${rowsChecked} rows checked in ${ms(performance.now() - wallBefore)} ms wall, ${ms((cpu.user + cpu.system) / 1000)} ms CPU`);
  console.log('\n| rows | meet their expectation |\n| --- | --- |');
  const totalsLast = [...tally].sort(([a], [b]) => Number(!a.includes(':')) - Number(!b.includes(':')));
  for (const [key, t] of totalsLast) console.log(`| ${key} | ${t.met} / ${t.rows} |`);
  console.log(`\n${misses.length} rows miss:\n${misses.join('\n')}`);
}

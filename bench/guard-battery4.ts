// The fourth fresh battery (test/safety/fresh-battery4.ts: a first day in Java, Ruby, PHP, .NET,
// Elixir, Swift, C/C++, Deno, Bun, Docker, databases, data tools) through the guard's engine in the
// context of the safety tests (test/safety/context.ts: /home/u/proj on main, home /home/u, the
// default policy): for each row its expectation, the verdict (decision, rule, reason) and whether
// it meets the expectation — a `deny` row must be denied, an `ask` row asked or denied, an `allow`
// row allowed. Then, per area and in all, how many rows meet theirs. Not a test: it reports, and
// exits 0 whatever the verdicts.
//
//   node --import tsx bench/guard-battery4.ts [--misses]   (--misses: only the rows that miss)

import { evaluateCommand } from '../src/safety/evaluate.ts';
import { defaultPolicy } from '../src/safety/policy.ts';
import { safetyContext } from '../test/safety/context.ts';
import { meetsExpectation } from '../test/safety/fresh-battery.ts';
import { FRESH4_DANGEROUS, FRESH4_EVERYDAY } from '../test/safety/fresh-battery4.ts';

const MISSES_ONLY = process.argv.includes('--misses');

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
  ['dangerous', FRESH4_DANGEROUS],
  ['everyday', FRESH4_EVERYDAY],
] as const) {
  for (const row of battery) {
    const v = await evaluateCommand(row.command, policy, safetyContext());
    const met = meetsExpectation(row, v);
    count(`${kind}: ${row.area}`, met);
    count(kind, met);
    const line = `${met ? 'ok  ' : 'MISS'} ${row.area.padEnd(14)} expect ${row.expect.padEnd(5)} got ${v.decision}${v.rule ? ` [${v.rule}]` : ''}  ${JSON.stringify(row.command)}`;
    if (!met) misses.push(`${line}\n       reason: ${v.reason.replace(/\s+/g, ' ')}`);
    if (!MISSES_ONLY) console.log(line);
  }
}

const cpu = process.cpuUsage(cpuBefore);
const rowsChecked = FRESH4_DANGEROUS.length + FRESH4_EVERYDAY.length;
const ms = (n: number) => n.toFixed(0);
console.log(`\n${rowsChecked} rows checked in ${ms(performance.now() - wallBefore)} ms wall, ${ms((cpu.user + cpu.system) / 1000)} ms CPU`);
console.log('\n| rows | meet their expectation |\n| --- | --- |');
const totalsLast = [...tally].sort(([a], [b]) => Number(!a.includes(':')) - Number(!b.includes(':')));
for (const [key, t] of totalsLast) console.log(`| ${key} | ${t.met} / ${t.rows} |`);
console.log(`\n${misses.length} rows miss:\n${misses.join('\n')}`);

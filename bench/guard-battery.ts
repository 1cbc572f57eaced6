// The fresh batteries (test/safety/fresh-battery*.ts: commands written from docs/safety.md alone by
// someone who had not read the rules) through the guard's engine in the context of the safety tests
// (test/safety/context.ts: /home/u/proj on main, home /home/u, the default policy): for each row its
// expectation, the verdict (decision, rule, reason) and whether it meets the expectation
// (meetsExpectation: a `deny` row must be denied with a reason, an `ask` row asked or denied, an
// `allow` row allowed). Then, per battery, area and in all, how many rows meet theirs. Not a test:
// it reports, and exits 0 whatever the verdicts (the batteries' tests assert them).
//
// The red-team battery files of bench/ registered below (area TAB verdict TAB command as JSON, as
// test/safety/context.ts testBatteryFile reads them) run the same way, their `left:` lines left out
// as their tests leave them.
//
//   node --import tsx bench/guard-battery.ts [--battery 1|2|3|4|5|6|redteam9|redteam10|redteam11|redteam12|redteam13|redteam14|redteam15|redteam16|redteam17|redteam18|all] [--misses] [--tsv]
//     --battery: which battery (default all); --misses: only the rows that miss;
//     --tsv: only the misses, one a line: battery, expected, got, command (JSON)

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { evaluateCommand } from '../src/safety/evaluate.ts';
import { defaultPolicy } from '../src/safety/policy.ts';
import { safetyContext } from '../test/safety/context.ts';
import { type BatteryRow, FRESH_DANGEROUS, FRESH_EVERYDAY, meetsExpectation } from '../test/safety/fresh-battery.ts';
import { FRESH2_DANGEROUS, FRESH2_EVERYDAY } from '../test/safety/fresh-battery2.ts';
import { FRESH3_DANGEROUS, FRESH3_EVERYDAY } from '../test/safety/fresh-battery3.ts';
import { FRESH4_DANGEROUS, FRESH4_EVERYDAY } from '../test/safety/fresh-battery4.ts';
import { FRESH5_DANGEROUS, FRESH5_EVERYDAY } from '../test/safety/fresh-battery5.ts';
import { FRESH6_DANGEROUS, FRESH6_EVERYDAY } from '../test/safety/fresh-battery6.ts';
import { argOf } from './lib.ts';

/** Each battery by its number: its dangerous rows and its everyday ones. */
const BATTERIES: Record<string, { dangerous: readonly BatteryRow[]; everyday: readonly BatteryRow[] }> = {
  '1': { dangerous: FRESH_DANGEROUS, everyday: FRESH_EVERYDAY },
  '2': { dangerous: FRESH2_DANGEROUS, everyday: FRESH2_EVERYDAY },
  '3': { dangerous: FRESH3_DANGEROUS, everyday: FRESH3_EVERYDAY },
  '4': { dangerous: FRESH4_DANGEROUS, everyday: FRESH4_EVERYDAY },
  '5': { dangerous: FRESH5_DANGEROUS, everyday: FRESH5_EVERYDAY },
  '6': { dangerous: FRESH6_DANGEROUS, everyday: FRESH6_EVERYDAY },
  redteam9: batteryFile('redteam9-commands.txt'),
  redteam10: batteryFile('redteam10-commands.txt'),
  redteam11: batteryFile('redteam11-commands.txt'),
  redteam12: batteryFile('redteam12-commands.txt'),
  redteam13: batteryFile('redteam13-commands.txt'),
  redteam14: batteryFile('redteam14-commands.txt'),
  redteam15: batteryFile('redteam15-commands.txt'),
  redteam16: batteryFile('redteam16-commands.txt'),
  redteam17: batteryFile('redteam17-commands.txt'),
  redteam18: batteryFile('redteam18-commands.txt'),
};

/** A red-team battery file of bench/, but its `left:` lines: its dangerous rows and its everyday ones (area `<area>/everyday`). */
function batteryFile(file: string): { dangerous: BatteryRow[]; everyday: BatteryRow[] } {
  const rows: BatteryRow[] = readFileSync(join(import.meta.dirname, file), 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => line.split('\t'))
    .filter((fields) => !fields[3]?.startsWith('left:'))
    .map(([area, expect, command]) => ({ area: area!, expect: expect as BatteryRow['expect'], command: JSON.parse(command!) as string }));
  return { dangerous: rows.filter((r) => !r.area.endsWith('/everyday')), everyday: rows.filter((r) => r.area.endsWith('/everyday')) };
}

const argv = process.argv.slice(2);
const MISSES_ONLY = argv.includes('--misses');
const TSV = argv.includes('--tsv');
const which = argOf(argv, 'battery', 'all');
const chosen = which === 'all' ? Object.keys(BATTERIES) : [which];
if (!chosen.every((n) => BATTERIES[n])) {
  process.stderr.write(`guard-battery: --battery takes ${Object.keys(BATTERIES).join(', ')} or all; got ${which}\n`);
  process.exit(2);
}

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
let rowsChecked = 0;
for (const n of chosen) {
  for (const kind of ['dangerous', 'everyday'] as const) {
    for (const row of BATTERIES[n]![kind]) {
      rowsChecked += 1;
      const v = await evaluateCommand(row.command, policy, safetyContext());
      const met = meetsExpectation(row, v);
      count(`battery ${n} ${kind}: ${row.area}`, met);
      count(`battery ${n} ${kind}`, met);
      const got = `${v.decision}${v.rule ? ` [${v.rule}]` : ''}`;
      if (TSV) {
        if (!met) console.log([n, row.expect, got, JSON.stringify(row.command)].join('\t'));
        continue;
      }
      const line = `${met ? 'ok  ' : 'MISS'} ${n} ${row.area.padEnd(14)} expect ${row.expect.padEnd(5)} got ${got}  ${JSON.stringify(row.command)}`;
      if (!met) misses.push(`${line}\n       reason: ${v.reason.replace(/\s+/g, ' ')}`);
      if (!MISSES_ONLY) console.log(line);
    }
  }
}

if (!TSV) {
  const cpu = process.cpuUsage(cpuBefore);
  const ms = (x: number) => x.toFixed(0);
  console.log(`\n${rowsChecked} rows checked in ${ms(performance.now() - wallBefore)} ms wall, ${ms((cpu.user + cpu.system) / 1000)} ms CPU`);
  console.log('\n| rows | meet their expectation |\n| --- | --- |');
  const totalsLast = [...tally].sort(([a], [b]) => Number(!a.includes(':')) - Number(!b.includes(':')));
  for (const [key, t] of totalsLast) console.log(`| ${key} | ${t.met} / ${t.rows} |`);
  console.log(`\n${misses.length} rows miss:\n${misses.join('\n')}`);
}

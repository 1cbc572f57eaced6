import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { type EvalContext, evaluateCommand } from '../../src/safety/evaluate.ts';
import { defaultPolicy } from '../../src/safety/policy.ts';
import { guardedPaths } from '../../src/setup/paths.ts';
import { type BatteryRow, meetsExpectation } from './fresh-battery.ts';

/**
 * The fixed context of the table-driven safety tests: the project /home/u/proj checked out on
 * main, its origin https://github.com/acme/app.git, home /home/u, every PR open, and the guarded
 * paths the pre-tool-use hook sets for such a checkout (setup/paths.ts guardedPaths, not a hand-kept copy of it).
 */
export const HOME = '/home/u';
export const ROOT = '/home/u/proj';

export function safetyContext(over: Partial<EvalContext> = {}): EvalContext {
  return {
    cwd: ROOT,
    home: HOME,
    root: ROOT,
    branchOf: (dir) => (dir === ROOT || dir.startsWith(`${ROOT}/`) ? 'main' : null),
    remoteUrl: (dir, _gitDir, name) => (name === 'origin' && (dir === ROOT || dir.startsWith(`${ROOT}/`)) ? 'https://github.com/acme/app.git' : null),
    lookupPr: async () => 'open',
    protectedPaths: guardedPaths({ gitDir: `${ROOT}/.git`, commonDir: `${ROOT}/.git`, worktree: ROOT }, HOME),
    ...over,
  };
}

/** A command's verdict under the default policy in `safetyContext()`: `allow`, or `<decision> [<rule>]`. */
export async function decide(command: string, more: Partial<EvalContext> = {}): Promise<string> {
  const v = await evaluateCommand(command, defaultPolicy(), safetyContext(more));
  return v.decision === 'allow' ? 'allow' : `${v.decision} [${v.rule}]`;
}

/**
 * One `describe` a hole, one test a row: [an everyday command that must pass, its dangerous
 * neighbour that the same rule must deny].
 */
export function testHoles(holes: Record<string, ReadonlyArray<readonly [string, string]>>, more: Partial<EvalContext> = {}): void {
  testPairs(holes, 'denied', /^deny /, more);
}

/**
 * The same for the infra family, whose default is to ask: [an everyday command that must pass,
 * its destroying neighbour a person must be asked about].
 */
export function testAsks(holes: Record<string, ReadonlyArray<readonly [string, string]>>): void {
  testPairs(holes, 'asked', /^ask \[families\.infra: /);
}

function testPairs(holes: Record<string, ReadonlyArray<readonly [string, string]>>, said: string, verdict: RegExp, more: Partial<EvalContext> = {}): void {
  for (const [hole, rows] of Object.entries(holes)) {
    describe(hole, () => {
      for (const [everyday, dangerous] of rows) {
        test(`${everyday}  passes;  ${dangerous}  is ${said}`, async () => {
          assert.equal(await decide(everyday, more), 'allow', everyday);
          assert.match(await decide(dangerous, more), verdict, dangerous);
        });
      }
    });
  }
}

/**
 * A battery through the engine under the default policy in `safetyContext()`: one test an area,
 * every row of it given the verdict it says (meetsExpectation), every miss listed.
 */
export function testBattery(rows: readonly BatteryRow[]): void {
  const policy = defaultPolicy();
  for (const area of [...new Set(rows.map((r) => r.area))]) {
    const list = rows.filter((r) => r.area === area);
    test(`${area}: every row gets its verdict (${list.length})`, async () => {
      const wrong: string[] = [];
      for (const row of list) {
        const v = await evaluateCommand(row.command, policy, safetyContext());
        if (!meetsExpectation(row, v))
          wrong.push(`${JSON.stringify(row.command)} (${row.expect})\n    -> ${v.decision}${v.rule ? ` [${v.rule}]` : ''} ${v.reason.slice(0, 140)}`);
      }
      assert.deepEqual(wrong, [], `${wrong.length} of ${list.length} wrong:\n${wrong.join('\n')}`);
    });
  }
}

/**
 * A red-team battery file of bench/ (`file`: area, verdict, command as JSON, and after a second tab
 * why the docs decide a line otherwise, or `left: …` for a line still missed — not asserted: the
 * file says why each is left) through testBattery.
 */
export function testBatteryFile(file: string): void {
  const rows: BatteryRow[] = readFileSync(join(import.meta.dirname, '..', '..', 'bench', file), 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => line.split('\t'))
    .filter((fields) => !fields[3]?.startsWith('left:'))
    .map(([area, expect, command]) => ({ area: area!, expect: expect as BatteryRow['expect'], command: JSON.parse(command!) as string }));
  testBattery(rows);
}

/**
 * A corpus of everyday command lines (test/fixtures/safety/`file`, one a line, `#` lines naming
 * their sources): at least `atLeast` of them, none twice, and none stopped — none denied, and an
 * ask only the infra family's where `infraAsks` (its default is to ask).
 */
export function testEverydayCorpus(file: string, o: { name: string; atLeast: number; infraAsks: boolean }): void {
  const corpus = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'safety', file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'));
  test(`${o.name} is as large as promised, without duplicates`, () => {
    assert.ok(corpus.length >= o.atLeast, `${corpus.length} commands`);
    assert.equal(new Set(corpus).size, corpus.length, 'no duplicate command');
  });
  test(`no command of ${o.name} is stopped${o.infraAsks ? " (an ask is the infra family's)" : ''} (${corpus.length})`, async () => {
    const policy = defaultPolicy();
    const wrong: string[] = [];
    for (const command of corpus) {
      const v = await evaluateCommand(command, policy, safetyContext());
      if (v.decision === 'allow' || (o.infraAsks && v.decision === 'ask' && v.rule?.startsWith('families.infra: '))) continue;
      wrong.push(`${command}\n    -> ${v.decision} [${v.rule}] ${v.reason.slice(0, 160)}`);
    }
    assert.deepEqual(wrong, [], `${wrong.length} false alarms:\n${wrong.join('\n')}`);
  });
}

import type { Finding } from './git-rules.ts';

/**
 * The work one command line may take to check: every character parsed (a nested shell's script,
 * an `eval`'s words, an interpreter's code, each parsed again) costs one, every command checked
 * COMMAND_COST more, every path the path rules check PATH_COST more. Counted, not timed, so the
 * same command gets the same answer on a loaded machine (a test suite, CI, a busy laptop) as on
 * an idle one. Past it the command is denied as too long, never allowed. A 1 MB script of
 * ordinary commands costs 6 to 14 M; 32 M is about 3 s of CPU on an idle 2026 server core
 * (bench/guard.bench.ts), reached by what is re-parsed level after level or fans out into
 * hundreds of thousands of commands.
 */
const CHECK_BUDGET = 32_000_000;
/** A command's share of CHECK_BUDGET beyond its characters: the rules it goes through (about 80 characters' parsing). */
export const COMMAND_COST = 100;
/**
 * A path's share of CHECK_BUDGET when the path rules first check it in a command line (about
 * 30 µs of CPU for an argument of `rm` or `cat`). One command with a hundred thousand paths is
 * charged as it is checked, not only before it.
 */
export const PATH_COST = 300;
/** How often, in charges, a check with a deadline looks at the clock. */
const CLOCK_EVERY = 128;

/**
 * Thrown by charge when the budget runs out or the deadline passes, its finding recorded in the
 * budget: the whole walk stops, and evaluateCommand, which catches it, denies the command line.
 */
export const OUT_OF_BUDGET = Symbol('out of budget');

/** The work left for one command line, shared by every nested walk over it. */
export interface WorkBudget {
  left: number;
  /**
   * why it ran out (too long, out of time), once it has: kept here, not in the walk's findings, and
   * denied by the command line itself — a nested walk's findings may be re-ruled (an interpreter
   * family set to ask), and the commands after the point where it ran out were never checked
   */
  finding?: Finding;
  /** the check's deadline (a `performance.now()` reading), and the charges left until the clock is read again */
  deadline: number | undefined;
  untilClock: number;
}

/** A command line's budget: `units` of work (CHECK_BUDGET by default), and a deadline if any. */
export function workBudget(units: number | undefined, deadline: number | undefined): WorkBudget {
  return { left: units ?? CHECK_BUDGET, deadline, untilClock: CLOCK_EVERY };
}

/**
 * Takes `units` of work from the budget (a script's characters, COMMAND_COST, PATH_COST) and,
 * every CLOCK_EVERY charges, looks at the deadline; throws OUT_OF_BUDGET, the finding recorded,
 * when the budget has run out or the deadline has passed.
 */
export function charge(b: WorkBudget, units: number): void {
  if (b.finding) throw OUT_OF_BUDGET;
  if ((b.left -= units) < 0) b.finding = { rule: 'shell.too-long', reason: 'the command is too long to check; split it into shorter commands' };
  else if (b.deadline !== undefined && --b.untilClock <= 0) {
    b.untilClock = CLOCK_EVERY;
    if (performance.now() > b.deadline)
      b.finding = {
        rule: 'shell.out-of-time',
        reason: 'the machine was too busy to finish checking this command in time; try again, or split it into shorter commands',
      };
  }
  if (b.finding) throw OUT_OF_BUDGET;
}

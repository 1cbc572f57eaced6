import type { SimpleCommand } from './syntax.ts';

/**
 * What a `{ }` group, a `( )` subshell or a function body writes to its output, for shell.ts's
 * parser: the last stage of each of its pipelines, which a `|` after it (`(echo a; echo b) | sh`,
 * `f | sh`) pipes on. Found only when a pipe follows, once per group, within bounds per command
 * line (groups nest and functions are called again): past them the line is too large to check.
 */

/** Where a stage stands: its pipeline and its place in it. */
export interface Stage {
  pipeline: number;
  index: number;
}

/** The commands a group, subshell or function body ran (`out[from..to)` of the parser that read them), and its output ends once asked for. */
export interface GroupOutput {
  out: readonly SimpleCommand[];
  from: number;
  to: number;
  ends?: Stage[];
}

/** How many commands the groups piped on may scan in one command line (each is scanned once, but groups nest). */
const MAX_GROUP_SCAN = 1 << 20;
/** How many stages groups may feed besides their first, in one command line (each is a command read again). */
const MAX_GROUP_FEEDS = 4096;

/** One command line's groups piped on: the functions it defines, and the work their ends have cost so far. */
export class GroupFeeds {
  readonly functions = new Map<string, GroupOutput>();
  private scanned = 0;
  private feeds = 0;

  /** The output ends of `group`, found once; null past the scanning bound (too large to check). */
  endsOf(group: GroupOutput): Stage[] | null {
    if (group.ends) return group.ends;
    this.scanned += group.to - group.from;
    if (this.scanned > MAX_GROUP_SCAN) return null;
    return (group.ends = outputEnds(group.out.slice(group.from, group.to)));
  }

  /** Counts `count` stages fed again; false past the bound (too large to check). */
  feed(count: number): boolean {
    this.feeds += count;
    return this.feeds <= MAX_GROUP_FEEDS;
  }
}

/** The last stage of each pipeline among `commands`: what a group of them writes to its output, in order. */
function outputEnds(commands: readonly SimpleCommand[]): Stage[] {
  const ends = new Map<number, number>();
  for (const c of commands) ends.set(c.pipeline, Math.max(ends.get(c.pipeline) ?? -1, c.index));
  return [...ends].map(([pipeline, index]) => ({ pipeline, index }));
}

import { positionalUsers } from './function-calls.ts';
import type { SimpleCommand } from './syntax.ts';

/**
 * Where each command of a line stands among its pipelines, for shell.ts's parser, where one
 * stage's output reaches more than one pipeline: a stage that runs once per loop value (`for d in
 * a /; do echo "rm -rf $d" | sh`) fans out, each run on a pipeline of its own; and a compound piped
 * on — a loop, a `{ }` group, a `( )` subshell, a function's body, an `if`, a `case` (`(echo a;
 * echo b) | sh`, `for …; done | sh`, `f | sh`) — feeds what each of its pipelines writes into the
 * pipe. Each later stage is read on every such pipeline, within bounds per command line (groups
 * nest and functions are called again): past them the line is too large to check.
 */

/** Where a stage stands: its pipeline and its place in it. */
export interface Stage {
  pipeline: number;
  index: number;
}

/** The commands a compound ran (`out[from..to)` of the parser that read them), and its output ends once asked for. */
export interface CompoundOutput {
  out: readonly SimpleCommand[];
  from: number;
  to: number;
  ends?: Stage[];
  /** a function body's commands that use the positional parameters, once asked for */
  argumentUsers?: SimpleCommand[];
}

/** A pipeline read beside another: each stage of that one is read here too, `shift` places further on. */
interface Lane {
  pipeline: number;
  shift: number;
}

/** How many commands the compounds piped on may scan in one command line (each is scanned once, but compounds nest). */
const MAX_COMPOUND_SCAN = 1 << 20;
/** How many commands the calls of the line's functions may read again with their words (`run(){ "$@"; }; run …`), in one command line. */
const MAX_CALL_RUNS = 4096;
/** How many stages compounds may feed besides their first output end, in one command line (each is a command read again). */
const MAX_COMPOUND_FEEDS = 4096;

/** One command line's pipelines: their fans and the compounds' ends fed, the functions it defines, and the work their ends have cost so far. */
export class PipelineLanes {
  /** the functions defined so far (`f() { echo …; }`): what their bodies ran, which `f | sh` pipes on */
  readonly functions = new Map<string, CompoundOutput>();
  /** a pipeline whose stage ran once per loop value: the pipeline each run went on in, itself first */
  private readonly fans = new Map<number, number[]>();
  /** each pipeline of a fan besides its first: the first, whose stages it is read beside */
  private readonly fanOf = new Map<number, number>();
  /** a pipeline a compound's output is piped on in: the compound's other output ends, where each of its later stages is read too */
  private readonly fed = new Map<number, Lane[]>();
  private scanned = 0;
  private callRuns = 0;
  private feeds = 0;
  /** whether the compounds piped on went past the bounds: the line is too large to check */
  tooLarge = false;

  /**
   * The stage a command piped on after `compound` takes (`{ echo a; echo b; } | sh`): after its
   * first output end, each later stage read after its other ends too; undefined when it ran
   * nothing or past the bounds.
   */
  pipeOn(compound: CompoundOutput): Stage | undefined {
    const [first, ...more] = this.endsOf(compound);
    if (!first) return undefined;
    this.fed.set(
      first.pipeline,
      more.map((e) => ({ pipeline: e.pipeline, shift: e.index - first.index })),
    );
    return { pipeline: first.pipeline, index: first.index + 1 };
  }

  /**
   * Puts a command's runs (one per loop value, or itself alone) at `stage`, in `out`, and on every
   * pipeline read beside it (past the bounds, on none); returns the runs placed at the stage itself.
   * A stage that runs once per loop value puts each run on a pipeline of its own, the stages
   * before it read again on each new one, so that every run feeds the next stage, not the first alone.
   */
  place(runs: SimpleCommand[], stage: Stage, out: SimpleCommand[], newPipeline: () => number): SimpleCommand[] {
    const placed = this.fanOut(runs, stage, out, newPipeline);
    out.push(...placed);
    const lanes = this.fed.get(stage.pipeline);
    if (!lanes?.length || !runs.length) return placed;
    this.feeds += lanes.length;
    if (this.feeds > MAX_COMPOUND_FEEDS) {
      this.tooLarge = true;
      return placed;
    }
    for (const lane of lanes) out.push(...this.fanOut(runs, { pipeline: lane.pipeline, index: stage.index + lane.shift }, out, newPipeline));
    return placed;
  }

  /** `runs` at `stage`: on the pipelines of its fan, one made when they are more than one. */
  private fanOut(runs: SimpleCommand[], { pipeline, index }: Stage, out: SimpleCommand[], newPipeline: () => number): SimpleCommand[] {
    let fan = this.fans.get(pipeline);
    if (!fan && runs.length > 1) {
      // the first run stays on the pipeline; the stages before it are read again on each new one
      this.fans.set(pipeline, (fan = runs.map((_, r) => (r ? newPipeline() : pipeline))));
      for (const lane of fan.slice(1)) this.fanOf.set(lane, pipeline);
      const before = index ? out.filter((c) => c.pipeline === pipeline) : [];
      for (const lane of fan.slice(1)) out.push(...before.map((c) => ({ ...c, pipeline: lane })));
    }
    // a command's runs stand where it stands: copied only onto another pipeline
    if (!fan || !runs.length) return runs[0]?.pipeline === pipeline && runs[0].index === index ? runs : runs.map((r) => ({ ...r, pipeline, index }));
    const lanes = fan;
    return Array.from({ length: Math.max(lanes.length, runs.length) }, (_, r) => ({
      ...runs[Math.min(r, runs.length - 1)]!,
      pipeline: lanes[Math.min(r, lanes.length - 1)]!,
      index,
    }));
  }

  /**
   * The commands of a called function's body (`compound`) that use its positional parameters,
   * found once (function-calls.ts), each read again at the call; none past the bounds: the line
   * is too large to check.
   */
  argumentUsers(compound: CompoundOutput, runs: number): readonly SimpleCommand[] {
    if (!compound.argumentUsers) {
      this.scanned += compound.to - compound.from;
      compound.argumentUsers = this.scanned > MAX_COMPOUND_SCAN ? [] : positionalUsers(compound.out.slice(compound.from, compound.to));
    }
    this.callRuns += compound.argumentUsers.length * runs;
    if (this.scanned > MAX_COMPOUND_SCAN || this.callRuns > MAX_CALL_RUNS) this.tooLarge = true;
    return this.tooLarge ? [] : compound.argumentUsers;
  }

  /** The output ends of `compound`, found once; none past the scanning bound. */
  private endsOf(compound: CompoundOutput): Stage[] {
    if (compound.ends) return compound.ends;
    this.scanned += compound.to - compound.from;
    if (this.scanned > MAX_COMPOUND_SCAN) {
      this.tooLarge = true;
      return (compound.ends = []);
    }
    return (compound.ends = this.outputEnds(compound.out.slice(compound.from, compound.to)));
  }

  /**
   * The last stage of each pipeline among `commands`: what a compound of them writes to its
   * output, in order; a fan's pipelines besides its first are fed through it (fanOut), not as ends.
   */
  private outputEnds(commands: readonly SimpleCommand[]): Stage[] {
    const ends = new Map<number, number>();
    for (const c of commands) ends.set(c.pipeline, Math.max(ends.get(c.pipeline) ?? -1, c.index));
    const fedThroughFan = (pipeline: number) => ends.has(this.fanOf.get(pipeline) ?? -1);
    return [...ends].filter(([pipeline]) => !fedThroughFan(pipeline)).map(([pipeline, index]) => ({ pipeline, index }));
  }
}

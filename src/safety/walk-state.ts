import type { EvalContext } from './eval-context.ts';
import type { Finding, PrGate } from './git-rules.ts';
import type { Policy } from './policy.ts';
import type { ProjectScripts } from './project-scripts.ts';
import type { WorkBudget } from './work-budget.ts';
import type { WrittenFiles } from './written-scripts.ts';

/**
 * The state of one walk over a command line (evaluate.ts evaluateCommand starts it): what was
 * found, the PR gates to look up, the folder the next command runs in, the files and links the
 * line made so far. A nested walk (a project's script, a one-liner's code) copies it with its own
 * findings.
 */
export interface Walk {
  policy: Policy;
  seen: Map<string, Finding | null>;
  ctx: EvalContext;
  findings: Finding[];
  gates: PrGate[];
  cwd: string | null;
  /** after a `cd` that may fail (not followed by `&&`), the folder commands may still run in */
  fallback: string | null;
  /** commands since the last `cd` have all been joined by `&&` to it */
  chained: boolean;
  budget: WorkBudget;
  /** the symbolic links the line made so far (removal.ts madeLink): a path through one is the path it points at */
  links: Map<string, string>;
  /** the files the line has written so far, and what they hold (written-scripts.ts) */
  written: WrittenFiles;
  /** the project's scripts read from its files (project-scripts.ts), where the context gives a reader */
  project: ProjectScripts | null;
  /** the project's scripts this walk runs within, outermost first (`npm run a` whose script runs `npm run b`) */
  chain: readonly string[];
  /** the comment of the command that runs the project's script this walk reads: its `#!axme` marker is its git commands' */
  marker: string | null;
  /**
   * walks a nested script (walk-script.ts walkScript): handed in, so that the per-command checks
   * (command-checks.ts) walk what a command runs without importing the walk that calls them
   */
  walkScript: (src: string, w: Walk, depth: number) => void;
}

import type { EvalContext } from '../../src/safety/evaluate.ts';
import { guardedPaths } from '../../src/setup/paths.ts';

/**
 * The fixed context of the table-driven safety tests: the project /home/u/proj checked out on
 * main, home /home/u, every PR open, and the guarded paths the pre-tool-use hook sets for such a
 * checkout (setup/paths.ts guardedPaths, not a hand-kept copy of it).
 */
export const HOME = '/home/u';
export const ROOT = '/home/u/proj';

export function safetyContext(over: Partial<EvalContext> = {}): EvalContext {
  return {
    cwd: ROOT,
    home: HOME,
    root: ROOT,
    branchOf: (dir) => (dir === ROOT || dir.startsWith(`${ROOT}/`) ? 'main' : null),
    lookupPr: async () => 'open',
    protectedPaths: guardedPaths({ gitDir: `${ROOT}/.git`, commonDir: `${ROOT}/.git`, worktree: ROOT }, HOME),
    ...over,
  };
}

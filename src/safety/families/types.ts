import type { Invocation } from '../command.ts';
import type { Policy } from '../policy.ts';
import type { SimpleCommand } from '../syntax.ts';

/** What a family's check knows of where a command runs (families/index.ts). */
export interface FamilyContext {
  policy: Policy;
  /** the folder the command runs in; null when only the shell knows it */
  cwd: string | null;
  home: string;
  /** the top of the working tree */
  root: string | undefined;
}

/** One family's check of one command: what it would do, or null. `rule` is the family's own name for it (`npm publish`). */
export type FamilyCheck = (cmd: SimpleCommand, inv: Invocation | null, ctx: FamilyContext) => { rule: string; reason: string } | null;

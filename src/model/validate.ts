import type { z } from 'zod';
import { AxmeError } from './errors.ts';
import { describeIssues, issueProblem } from './kind.ts';

/**
 * Parses user input (CLI flags, MCP arguments, stdin JSON) with its schema: the one input check of
 * every core operation. INVALID_INPUT names each bad field and what is wrong, in words ("title:
 * must not be empty"), never zod's raw issue list; `data.issues` holds them one by one.
 * Files read from the store are not input: their problems are CORRUPT or diagnostics.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw invalidInput(r.error, what);
  return r.data;
}

/** The INVALID_INPUT error for a zod error: `invalid <what>: <field>: <problem>; ...`. */
export function invalidInput(error: z.ZodError, what: string): AxmeError {
  return new AxmeError('INVALID_INPUT', `invalid ${what}: ${describeIssues(error)}`, {
    issues: error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: issueProblem(i) })),
  });
}

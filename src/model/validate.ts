import type { z } from 'zod';
import { AxmeError } from './errors.ts';
import { reservedHeadingIn } from './frontmatter.ts';
import { describeIssues } from './kind.ts';

/** Parses input with its schema at the boundary; INVALID_INPUT names each bad field and why. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw new AxmeError('INVALID_INPUT', `invalid ${what}: ${describeIssues(r.error)}`, { issues: r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) });
  return r.data;
}

/** Refuses a text that contains one of the body headings axme uses to split the file. */
export function assertNoReservedHeading(field: string, text: string | undefined, headings: readonly string[]): void {
  const h = text ? reservedHeadingIn(text, headings) : null;
  if (h) throw new AxmeError('INVALID_INPUT', `${field} contains the line "## ${h}", which axme uses as a section heading in the item file: use another heading (e.g. "### ${h}")`, { field });
}

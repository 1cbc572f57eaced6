import { z } from 'zod';
import { listEntry } from './text.ts';

/** ISO 8601 date or date-time, kept as a string so YAML never rewrites it. */
export const Timestamp = z
  .string()
  .refine(
    (s) =>
      /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(s) &&
      isCalendarDate(s.slice(0, 10)) &&
      !Number.isNaN(Date.parse(s)),
    'must be an ISO 8601 date or date-time, e.g. 2026-01-31T12:00:00.000Z',
  )
  .describe('ISO 8601 timestamp');

/** True when `YYYY-MM-DD` names a real day (JavaScript's Date would roll 2026-02-30 into March). */
export function isCalendarDate(ymd: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(ymd);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/**
 * Frontmatter fields axme does not know, kept as they are. Not a z.record: that copies the
 * object key by key, and a key named `__proto__` would be assigned as the prototype and lost.
 */
export const Extra = z
  .custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'must be a mapping')
  .default(() => ({}))
  .describe('frontmatter fields axme does not know, kept as they are');

/** Scope: which repositories an item applies to. Absent or ["all"] means every repository. */
export const Scope = z
  .union([z.array(z.string()), z.string()])
  .transform((v) => (typeof v === 'string' ? v.split(',') : v).map((s) => s.trim()).filter((s) => s !== ''))
  .pipe(z.array(listEntry))
  .transform((v) => [...new Set(v)])
  .describe(
    'repositories this applies to ("all" or a list of repository names); default all. In a workspace, a list saves the item in each named repository\'s store instead of the current one',
  );

/** Fields every stored item has besides its slug (which comes first). `extra` holds frontmatter fields axme does not know, kept verbatim. */
export const baseFields = {
  source: listEntry.optional().describe('where the item came from: agent, human, session, scan, import, recovered, ...'),
  session: listEntry.optional().describe('axme session that wrote the item'),
  created: Timestamp.describe('when the item was created (ISO 8601)'),
  updated: Timestamp.describe('when the item last changed (ISO 8601)'),
  extra: Extra,
};

export { ACTORS, type Actor } from './actor.ts';
export { isAgentEnv } from './agent-env.ts';

export { SESSION_ID_FORM, SESSION_ID_RE } from './session-id.ts';

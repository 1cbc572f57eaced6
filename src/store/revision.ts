import { isCalendarDate } from '../model/common.ts';
import { AxmeError } from '../model/errors.ts';
import type { Repo } from './repo.ts';

const UNITS: Record<string, number> = { second: 1, minute: 60, hour: 3600, day: 86400, week: 604800 };

/**
 * Instant named by a date spelling, or null when `s` is not a date: ISO 8601 (`2026-11-20`,
 * `2026-11-20T10:00`, `2026-11-20 10:00:00+02:00`), `N <unit>s ago`, `yesterday`, `now`.
 * A date without a time means the end of that day in UTC ("as it was on that day"), or its
 * start with `dayStart` (for "since that day").
 */
export function parseDateSpec(s: string, now: Date, opts: { dayStart?: boolean } = {}): Date | null {
  const t = s.trim().toLowerCase();
  if (t === 'now') return now;
  if (t === 'yesterday') return new Date(now.getTime() - 86400_000);
  const rel = /^(\d+)\s*(second|minute|hour|day|week|month|year)s?\s+ago$/.exec(t);
  if (rel) {
    const n = Number(rel[1]);
    if (rel[2] === 'month' || rel[2] === 'year') {
      // calendar arithmetic: "1 month ago" on March 2 is February 2
      const d = new Date(now);
      d.setUTCMonth(d.getUTCMonth() - (rel[2] === 'year' ? 12 * n : n));
      return d;
    }
    return new Date(now.getTime() - n * UNITS[rel[2]!]! * 1000);
  }
  if (/^\d{4}-\d{2}-\d{2}/.test(t) && !isCalendarDate(t.slice(0, 10))) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) {
    const d = new Date(`${t}T${opts.dayStart ? '00:00:00.000' : '23:59:59.999'}Z`);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  if (/^\d{4}-\d{2}-\d{2}[t ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(z|[+-]\d{2}:?\d{2})?$/.test(t)) {
    const iso = t.replace(' ', 't').toUpperCase();
    const d = new Date(/[Z+-]\d{0,2}:?\d{0,2}$/.test(iso.slice(10)) ? iso : `${iso}Z`);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  return null;
}

/**
 * The memory commit to read: the tip of `ref` (null when the ref does not exist yet), or the
 * commit `at` names: a revision (`abc1234`, `refs/memory/main~3`), `~N` / `^` relative to `ref`,
 * or a date (the last commit of `ref` at or before it).
 */
export async function resolveAt(repo: Repo, ref: string, at: string | undefined, now: Date, label = '--at'): Promise<string | null> {
  if (at === undefined) return repo.backend.resolveRef(ref);
  const spec = at.trim();
  if (spec === '') throw new AxmeError('BAD_REVISION', `${label} is empty: give a commit, ~N or a date, or leave it out for the latest knowledge`);
  if (spec.startsWith('-')) throw new AxmeError('BAD_REVISION', `${label} ${spec}: a revision cannot start with "-"`);
  const date = parseDateSpec(spec, now);
  if (date) {
    const r = await repo.git(['rev-list', '-1', `--before=@${Math.floor(date.getTime() / 1000)}`, ref, '--'], { allowFail: true });
    const oid = r.stdout.toString().trim();
    if (r.code !== 0 || !oid) {
      throw new AxmeError(
        'BAD_REVISION',
        `no knowledge at ${spec}: ${ref} has no commit at or before ${date.toISOString()}. See \`axme log\` for the dates of its commits.`,
        { at: spec },
      );
    }
    return oid;
  }
  const rev = /^[~^]/.test(spec) ? `${ref}${spec}` : spec;
  const r = await repo.git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], { allowFail: true });
  if (r.code !== 0) {
    throw new AxmeError(
      'BAD_REVISION',
      `${label} ${spec} names no commit: give a commit of ${ref} (see \`axme log\`), ~N for N commits back, or a date like 2026-01-31 or "3 days ago"`,
      { at: spec },
    );
  }
  const oid = r.stdout.toString().trim();
  const probe = await repo.git(['cat-file', '-e', `${oid}:axme.yaml`], { allowFail: true });
  if (probe.code !== 0) {
    throw new AxmeError(
      'BAD_REVISION',
      `${label} ${spec} is commit ${oid.slice(0, 12)}, which is not a memory commit (it has no axme.yaml): give a commit of ${ref}, see \`axme log\``,
      { at: spec },
    );
  }
  return oid;
}

/**
 * The `#!axme pr=<N|none> repo=<owner>/<name>` metadata: a shell comment on `git commit` /
 * `git push` commands, and the last line (or the end of the subject) of a commit message.
 */

import { REPO_SLUG_RE } from '../model/repo-slug.ts';

export const MARKER_FORMAT = '#!axme pr=<N|none> repo=<owner>/<name>';

export interface Marker {
  /** the PR number, or null for `pr=none` */
  pr: number | null;
  /** `owner/name` */
  repo: string;
}

export type MarkerParse = { ok: true; marker: Marker } | { ok: false; reason: string } | null;

/**
 * Why a marker without `repo=` is refused, and what to write: the hosted repository's
 * <owner>/<name>, or, for a project with no remote (commit-msg checks only the form, and a PR
 * number only with one), any <owner>/<name> that names it.
 */
const REPO_MISSING =
  'repo=<owner>/<name> is missing: write the repository as its host names it (repo=acme/app for github.com/acme/app); a project with no remote names itself in the same form, e.g. repo=local/app, with pr=none';

/** What `repo=` and `pr=` take, for a reason that shows the whole marker (a commit or push without one). */
export const MARKER_VALUES =
  'pr=none when there is no pull request; repo= as the host names the repository (acme/app for github.com/acme/app), or, with no remote, any <owner>/<name> naming the project, e.g. repo=local/app';

/**
 * Finds the last `#!axme` marker in `text` and parses it. null when there is none; a reason when
 * the last one is malformed (keys in either order; trailing punctuation is trimmed).
 */
export function parseMarker(text: string): MarkerParse {
  const at = text.lastIndexOf('#!axme');
  if (at < 0) return null;
  const body = text.slice(at + '#!axme'.length).split('\n')[0]!;
  const fields = new Map<string, string>();
  for (const token of body.trim().split(/\s+/)) {
    if (!token) continue;
    const eq = token.indexOf('=');
    if (eq <= 0) return { ok: false, reason: `"${token}" is not key=value` };
    const key = token.slice(0, eq);
    if (key !== 'pr' && key !== 'repo') return { ok: false, reason: `unknown key "${key}"` };
    if (fields.has(key)) return { ok: false, reason: `"${key}" is given twice` };
    fields.set(key, token.slice(eq + 1).replace(/[.,;:!?)\]}'"`]+$/, ''));
  }
  const pr = fields.get('pr');
  const repo = fields.get('repo');
  if (pr === undefined) return { ok: false, reason: 'pr=<N|none> is missing' };
  if (repo === undefined) return { ok: false, reason: REPO_MISSING };
  if (pr !== 'none' && !/^[1-9][0-9]{0,9}$/.test(pr)) return { ok: false, reason: `pr must be a PR number or none, not "${pr}"` };
  if (!REPO_SLUG_RE.test(repo)) return { ok: false, reason: `repo must be <owner>/<name>, not "${repo}"` };
  return { ok: true, marker: { pr: pr === 'none' ? null : Number(pr), repo } };
}

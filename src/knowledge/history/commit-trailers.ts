import { SESSION_ID_RE } from '../../model/session-id.ts';
import { addTrailers, type GitAt, trailersOf } from '../../store/code-commits.ts';

/**
 * The trailers that carry a code commit's PR metadata (docs/git-hooks.md#trailers-and-notes): `Axme-PR`, `Axme-Repo` and
 * `Axme-Session`, placed by git's own rules (`git interpret-trailers`). They survive squash
 * merges, where notes do not.
 */

export type { GitAt };

/** A commit message's trailers by lower-case key, as git reads them (`git interpret-trailers`). */
export function messageTrailers(at: GitAt, message: string): Promise<Map<string, string>> {
  return trailersOf(at, message);
}

/**
 * The message with `Axme-PR` (the number, or `none`), `Axme-Repo` and, when known, `Axme-Session`
 * trailers. A session that is not a session id is not written (it could carry a line of its own).
 */
export async function addPrTrailers(opts: { at: GitAt; message: string; pr: number | null; repo: string; session: string | null }): Promise<string> {
  const trailers: Array<[string, string]> = [
    ['Axme-PR', opts.pr === null ? 'none' : String(opts.pr)],
    ['Axme-Repo', opts.repo],
  ];
  if (opts.session && SESSION_ID_RE.test(opts.session)) trailers.push(['Axme-Session', opts.session]);
  return addTrailers(opts.at, opts.message, trailers);
}

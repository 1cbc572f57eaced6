import { AxmeError } from '../model/errors.ts';
import { REPO_SLUG_RE } from '../model/repo-slug.ts';

/** `owner/name` of a GitHub remote URL (SSH, scp-like or HTTPS, any host), or null for other URLs (a path). */
export function githubRepoOf(url: string): string | null {
  const u = url.trim();
  const m = /^(?:[a-z+]+:\/\/(?:[^@/]+@)?[^/:]+(?::\d+)?\/|[^@\s/:]+@[^:/\s]+:|[^@\s/:]+\.[^:/\s]+:)([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/?$/.exec(
    u,
  );
  if (!m || u.startsWith('file:')) return null;
  return `${m[1]}/${m[2]}`;
}

export function assertRepoSlug(repo: string): void {
  if (!REPO_SLUG_RE.test(repo)) throw new AxmeError('INVALID_INPUT', `--repo ${JSON.stringify(repo)} is not owner/name (like acme/app)`);
}

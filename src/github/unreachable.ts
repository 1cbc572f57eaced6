import { apiBaseUrl } from './token.ts';

/** Network error codes, as Node's fetch reports them, in words. */
const CAUSES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found (DNS)',
  EAI_AGAIN: 'host not found (DNS lookup failed)',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed',
};

/** What to do when the API cannot be reached (the token is not the problem). */
export const UNREACHABLE_ADVICE = 'check the network connection and the API URL (GITHUB_API_URL, or git config axme.githubApiUrl for GitHub Enterprise)';

/**
 * When an Octokit call failed with no HTTP answer at all (Octokit reports those as status 500
 * without a response): "GitHub's API at <host> could not be reached (<why>)"; null when GitHub
 * answered (the status is then its own). Credentials in the URL are never shown.
 */
export function unreachableApi(err: unknown, env: NodeJS.ProcessEnv): string | null {
  const e = err as { response?: unknown; name?: string; message?: string; cause?: { code?: string; name?: string; cause?: { code?: string } } };
  if (e?.response) return null;
  const code = e?.cause?.cause?.code ?? e?.cause?.code ?? /\b(E[A-Z_]+|UND_ERR_[A-Z_]+)\b/.exec(e?.message ?? '')?.[1];
  const timedOut = /abort|timeout/i.test(`${e?.name ?? ''} ${e?.message ?? ''} ${e?.cause?.name ?? ''}`);
  const why = (code && CAUSES[code]) ?? (timedOut ? 'no answer in time' : (e?.message ?? 'no answer').replace(/\/\/[^/@\s]+@/g, '//***@').split('\n')[0]);
  let host: string;
  try {
    host = new URL(apiBaseUrl(env)).host;
  } catch {
    host = apiBaseUrl(env);
  }
  return `GitHub's API at ${host} could not be reached (${why})`;
}

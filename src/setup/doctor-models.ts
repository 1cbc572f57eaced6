import { join } from 'node:path';
import { effectiveSettings } from '../knowledge/core/local-settings.ts';
import { modelsStatus, searchModeLine } from '../knowledge/models/models-status.ts';
import { type EmbedderStatus, readEmbedderStatus } from '../knowledge/views/search/embedder-status.ts';
import { backoffSentence, type EndpointBackoff, readBackoff } from '../knowledge/views/search/endpoint-backoff.ts';
import { endpointKey } from '../knowledge/views/search/meaning.ts';
import type { DoctorCheck } from './clients/adapter.ts';

/**
 * Doctor's `search` check: whether search ranks by meaning here, with what: the machine-local
 * endpoint (`search.embeddings`) and how its last run of the items' vectors went (embedder-status.ts:
 * given up on as slow or failing — a problem —, items still lacking a vector, retries and
 * timeouts), or the local model in force and that it loads; else "lexical only" and the command
 * that adds a model (not a problem: search works without one). A model in force that does not
 * load is a problem.
 */
export function searchModelCheck(commonDir: string | null, env: NodeJS.ProcessEnv): DoctorCheck {
  const endpoint = commonDir ? effectiveSettings(null, commonDir, env).embeddings : null;
  if (endpoint && commonDir) {
    const detail = `semantic search: endpoint ${endpoint.url} (${endpoint.model}, search.embeddings), fused with the word ranking`;
    const dir = join(commonDir, 'axme', 'search');
    const key = endpointKey(endpoint);
    const backoff = readBackoff(dir, key);
    const status = readEmbedderStatus(dir, key);
    const check: DoctorCheck = status ? endpointCheck(detail, status) : { name: 'search', status: 'ok', detail };
    return backoff ? backedOff(check, backoff) : check;
  }
  const { ok, line } = searchModeLine(modelsStatus({ env }));
  return ok ? { name: 'search', status: 'ok', detail: line } : { name: 'search', status: 'problem', detail: line, fix: 'axme models pull' };
}

/** The check of an endpoint backed off from after failing (endpoint-backoff.ts): a problem, saying when it is asked again and how to ask it now. */
function backedOff(check: DoctorCheck, b: EndpointBackoff): DoctorCheck {
  const what = check.fix ?? 'check that the endpoint runs and answers at search.embeddings.url with its model and key';
  return {
    ...check,
    status: 'problem',
    detail: `${check.detail}; ${backoffSentence(b)}`,
    fix: `${what.replace(/; the next search tries again$/, '')}; then \`axme search --retry-endpoint <words>\` asks it at once (so does changing its url or model)`,
  };
}

/** What the last run of the endpoint saw, said: given up (a problem, with what to change), items lacking vectors, requests retried or split. */
function endpointCheck(detail: string, s: EmbedderStatus): DoctorCheck {
  const lacking = s.lacking
    ? `; ${s.lacking} of ${s.items} items still lack a vector (search answers by words until they have one)`
    : `; all ${s.items} items have a vector`;
  const slow = s.timeouts ? `; slow: ${s.timeouts} request${s.timeouts === 1 ? '' : 's'} timed out and ${s.timeouts === 1 ? 'was' : 'were'} split` : '';
  const retried = s.retries ? `; ${s.retries} request${s.retries === 1 ? '' : 's'} retried` : '';
  const at = ` (${s.updated})`;
  const failure = s.failure;
  if (!failure || failure.code === 'stopped')
    return {
      name: 'search',
      status: 'ok',
      detail: `${detail}${lacking}${slow}${retried}${failure ? '; the run was stopped before the end: the next search goes on' : ''}${at}`,
    };
  const what = failure.code === 'slow' ? 'the endpoint is too slow' : 'the endpoint is failing';
  const fix =
    failure.code === 'slow'
      ? 'raise search.embeddings.timeout_ms or lower search.embeddings.batch in .git/axme/config.yaml, or use a faster endpoint'
      : 'check that the endpoint runs and answers at search.embeddings.url with its model and key; the next search tries again';
  return { name: 'search', status: 'problem', detail: `${detail}; ${what}: ${failure.reason}${lacking}${slow}${retried}${at}`, fix };
}

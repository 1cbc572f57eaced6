import { effectiveSettings } from '../knowledge/core/local-settings.ts';
import { modelsStatus, searchModeLine } from '../knowledge/models/models-status.ts';
import type { DoctorCheck } from './clients/adapter.ts';

/**
 * Doctor's `search` check: whether search ranks by meaning here, with what: the machine-local
 * endpoint (`search.embeddings`), or the local model in force and that it loads; else "lexical
 * only" and the command that adds a model (not a problem: search works without one). A model in
 * force that does not load is a problem.
 */
export function searchModelCheck(commonDir: string | null, env: NodeJS.ProcessEnv): DoctorCheck {
  const endpoint = commonDir ? effectiveSettings(null, commonDir, env).embeddings : null;
  if (endpoint)
    return {
      name: 'search',
      status: 'ok',
      detail: `semantic search: endpoint ${endpoint.url} (${endpoint.model}, search.embeddings), fused with the word ranking`,
    };
  const { ok, line } = searchModeLine(modelsStatus({ env }));
  return ok ? { name: 'search', status: 'ok', detail: line } : { name: 'search', status: 'problem', detail: line, fix: 'axme models pull' };
}

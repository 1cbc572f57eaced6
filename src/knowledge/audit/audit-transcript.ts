import { chooseProvider } from '../../llm/choose-provider.ts';
import { openProvider } from '../../llm/open-provider.ts';
import type { LlmProvider, ProviderConfig } from '../../llm/types.ts';
import type { AuditLogEntry } from '../../model/audit.ts';
import { AxmeError } from '../../model/errors.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { readAuditLog } from './audit-state.ts';
import { auditorConfig } from './auditor-config.ts';
import { type AuditOptions, type AuditResult, runAudit, transcriptFile } from './run-audit.ts';

/**
 * `axme audit <transcript>`: the provider from the configuration (`auto` by default), then
 * runAudit. With no provider (none configured, or `auto` finding none), CONFIG saying how to set
 * one up: nothing is read or written.
 */
export async function auditTranscript(
  kb: KnowledgeBase,
  opts: AuditOptions & { env: NodeJS.ProcessEnv; overrides?: Partial<ProviderConfig> },
): Promise<AuditResult> {
  // a wrong path is said first, before the model is looked for; for a session named (the worker
  // names one), the audit records it as a failed attempt
  if (opts.session === undefined) transcriptFile(opts.transcript);
  const cfg = await auditorConfig(kb, opts.env, opts.overrides);
  const provider = await openProvider(cfg, opts.env);
  // a dry run without a model: everything up to the request, which is shown instead of sent
  if (!provider && opts.dryRun) {
    const recorder = unsentRequests();
    return { ...(await runAudit(kb, recorder, opts)), unsent: recorder.unsent };
  }
  if (!provider) {
    const { why } = chooseProvider(cfg, opts.env);
    throw new AxmeError(
      'CONFIG',
      `no model to audit with (${why}): install Claude Code (\`claude\` on PATH), set ANTHROPIC_API_KEY, or set OPENAI_BASE_URL for a local server (Ollama: http://localhost:11434/v1) with auditor.model, or name the provider as auditor.provider in .git/axme/config.yaml or ~/.config/axme/config.yaml (never axme.yaml: it is ignored there); see docs/auditor.md`,
    );
  }
  // a bound on the whole run (the session-end worker sets one): past it the request is aborted, the session marked for retry
  const ms = Number(opts.env.AXME_AUDIT_TIMEOUT_MS);
  return runAudit(kb, provider, { ...opts, signal: opts.signal ?? (ms > 0 ? AbortSignal.timeout(ms) : undefined) });
}

/**
 * The "model" of a dry run where none is configured: it keeps each request (system prompt and the
 * redacted transcript chunk) for the result to show, and answers that nothing was found.
 */
function unsentRequests(): LlmProvider & { unsent: Array<{ system: string; user: string }> } {
  const unsent: Array<{ system: string; user: string }> = [];
  return {
    name: 'none',
    model: 'none',
    unsent,
    async complete(req) {
      unsent.push({ system: req.system, user: req.user });
      return { text: '{}', provider: 'none', model: 'none', inputTokens: 0, outputTokens: 0, stop: 'end', durationMs: 0, costUsd: null };
    },
  };
}

/** The audit runs this machine logged, newest last; `session` filters, `limit` keeps the newest. */
export function auditLog(kb: KnowledgeBase, opts: { session?: string | undefined; limit?: number | undefined } = {}): AuditLogEntry[] {
  const all = readAuditLog(kb.repo.commonDir).filter((e) => !opts.session || e.session === opts.session);
  return opts.limit ? all.slice(-opts.limit) : all;
}

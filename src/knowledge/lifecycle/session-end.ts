import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AxmeSelf } from '../../model/axme-self.ts';
import { auditsDir } from '../audit/audit-state.ts';
import { auditsEnabled, startAuditWorker } from '../audit/audit-worker.ts';
import type { KnowledgeBase } from '../core/kb.ts';

/**
 * The post-session auditor at a session's end (docs/auditor.md): a detached worker audits its
 * transcript (full, or verify-only when the agent closed the session), started by `self` in
 * `cwd`. Returns a one-line note when audits are off for lack of a model, the first time in this
 * clone only; null otherwise.
 */
export async function startSessionEndAudit(
  kb: KnowledgeBase,
  opts: { self: AxmeSelf; cwd: string; env: NodeJS.ProcessEnv; session: string; transcript: string },
): Promise<string | null> {
  const on = await auditsEnabled(kb, opts.env);
  if (!on.on) return on.chosen ? null : noModelNoteOnce(kb.repo.commonDir, on.why);
  startAuditWorker({ self: opts.self, commonDir: kb.repo.commonDir, cwd: opts.cwd, env: opts.env }, opts.session, opts.transcript);
  return null;
}

/** "No model for the auditor" once per clone (a marker file), so it is said without nagging. */
function noModelNoteOnce(commonDir: string, why: string): string | null {
  try {
    const marker = join(auditsDir(commonDir), 'no-model-noted');
    if (existsSync(marker)) return null;
    writeFileSync(marker, `${new Date().toISOString()} ${why}\n`);
  } catch {
    return null;
  }
  return `axme: sessions are not audited after they end (${why}); to have what an agent forgot to save found and stored, install Claude Code or set ANTHROPIC_API_KEY / OPENAI_BASE_URL (docs/auditor.md). Said once.`;
}

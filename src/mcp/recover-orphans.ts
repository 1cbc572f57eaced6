import type { KnowledgeBase } from '../knowledge/core/kb.ts';
import { isAxmeError } from '../model/errors.ts';

/**
 * Recovers the repository's orphaned sessions (docs/sessions.md) and logs each: what both MCP
 * servers run when they start and stop, and the HTTP server when one of its sessions ends.
 * Never throws: no repository or no store yet is nothing to recover.
 */
export async function recoverOrphans(opts: { kb: () => Promise<KnowledgeBase>; log: (m: string) => void }, when: string): Promise<void> {
  try {
    const { sweepOrphans } = await import('../knowledge/close/sweep-orphans.ts');
    const r = await sweepOrphans(await opts.kb());
    for (const x of r.recovered) opts.log(`recovered session ${x.session} at ${when}${x.commit ? ` (commit ${x.commit.slice(0, 12)})` : ''}`);
    for (const e of r.errors) opts.log(`could not recover session ${e.session}: ${e.message}`);
  } catch (err) {
    if (!(isAxmeError(err) && (err.code === 'NOT_INITIALIZED' || err.code === 'NOT_A_REPO'))) opts.log(`session recovery failed: ${(err as Error).message}`);
  }
}

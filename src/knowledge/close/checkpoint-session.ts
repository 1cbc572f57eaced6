import { AxmeError } from '../../model/errors.ts';
import { readSession } from '../../session/sessions.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { count, list, quote } from './phrases.ts';
import { gatherFacts } from './session-facts.ts';

/** A checkpoint stays this small: it shares the context start's budget (hooks/session-start.ts). */
export const CHECKPOINT_BUDGET = 1_500;

/**
 * The checkpoint of a live session whose context the client is about to compact (issue 32):
 * where the work stood, from the session's record and its transcript — the first and the last
 * request, the files changed and still uncommitted, the commits, the knowledge saved — at most
 * CHECKPOINT_BUDGET characters. The next context starts from it (session/checkpoint.ts).
 */
export async function checkpointSession(kb: KnowledgeBase, opts: { session: string }): Promise<string> {
  const s = readSession(kb.repo.commonDir, opts.session);
  if (!s) throw new AxmeError('NOT_FOUND', `no session ${opts.session} on this machine: \`axme session list\` shows the sessions this repository has seen`);
  const f = await gatherFacts(kb, s);
  const lines = [`## Checkpoint: where this session stood when its context was compacted (${kb.now().toISOString().slice(0, 16).replace('T', ' ')} UTC)`];
  if (f.gist?.firstPrompt) lines.push(`- first request: ${quote(f.gist.firstPrompt, 300)}`);
  if (f.gist?.lastPrompt && f.gist.lastPrompt !== f.gist.firstPrompt) lines.push(`- last request: ${quote(f.gist.lastPrompt, 300)}`);
  if (f.files.length) lines.push(`- ${count(f.files.length, 'file')} changed: ${list(f.files, 15)}`);
  if (f.dirty.length)
    lines.push(
      `- uncommitted: ${list(
        f.dirty.map((d) => `${d.path} [${d.status}]`),
        10,
      )}`,
    );
  if (f.commits.length)
    lines.push(
      `- ${count(f.commits.length, 'commit')}: ${f.commits
        .slice(-5)
        .map((c) => `${c.commit.slice(0, 12)} ${c.subject}`)
        .join('; ')}`,
    );
  if (f.knowledge.length) lines.push(`- knowledge saved: ${f.knowledge.slice(-5).join('; ')}`);
  if (lines.length === 1) lines.push('- nothing recorded yet (no files changed, no commits, no knowledge saved)');
  lines.push('Knowledge given before the compaction may be given again; `axme_context` and `axme_search` have the rest.');
  const text = lines.join('\n');
  return text.length <= CHECKPOINT_BUDGET ? text : `${text.slice(0, CHECKPOINT_BUDGET - 1)}…`;
}

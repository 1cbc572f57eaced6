import { AxmeError } from '../../model/errors.ts';
import { Handoff } from '../../model/handoff.ts';
import type { ItemBase, KindName } from '../../model/kind.ts';
import { SessionSummary } from '../../model/session-summary.ts';
import { slugify } from '../../model/slug.ts';
import { ownerAlive } from '../../session/list.ts';
import { claimSession, readSession, recordEvent, type SessionMeta, type SessionState, sessionStatus } from '../../session/sessions.ts';
import { itemFile } from '../core/item-file.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { mutate } from '../core/mutate.ts';
import { locationOf } from '../core/results.ts';
import { putItem, stage } from '../core/staging.ts';
import { committable, HANDOFFS_KEPT, handoffAuthor, prunableBy, pruneHandoffs } from './finalize-close.ts';
import { count } from './phrases.ts';
import { handoffText, summaryAfterClose, worklogText } from './recovery-texts.ts';
import { gatherFacts } from './session-facts.ts';

/**
 * Orphan recovery: a session that ended (or whose harness died) without the agent closing it gets
 * an auditor-style handoff written from what is known — files changed, commits, knowledge saved,
 * the transcript's first and last requests, how long it ran. One commit, actor `auditor`, handoff
 * `source: recovered`. An agent-written handoff or summary is never replaced, nor one the
 * post-session auditor wrote from the transcript: the session is then only marked recovered.
 */

export interface RecoverResult {
  session: string;
  outcome: 'recovered' | 'discarded' | 'already';
  commit: string | null;
  handoff: string | null;
  summary: string | null;
  text: string;
}

export interface RecoverOptions {
  /** recover a session whose owner still runs */
  force?: boolean;
  alive?: (m: SessionMeta) => boolean;
}

/** Recovers one session of this machine by its ID (`axme session recover`): see writeRecovery; `force` takes one whose owner still runs. */
export async function recoverSession(kb: KnowledgeBase, sessionId: string, opts: RecoverOptions = {}): Promise<RecoverResult> {
  const s = readSession(kb.repo.commonDir, sessionId);
  if (!s) throw new AxmeError('NOT_FOUND', `no session ${sessionId} on this machine: \`axme session list\` shows the sessions this repository has seen`);
  const early = settled(s, opts);
  if (early) return early;
  const release = claimSession(kb.repo.commonDir, sessionId, kb.now());
  if (!release) throw new AxmeError('CONFLICT', `session ${sessionId} is being recovered by another process right now: run the command again in a moment`);
  try {
    // read again under the claim: a sweep may have recovered it between the check and the claim
    const fresh = readSession(kb.repo.commonDir, sessionId) ?? s;
    return settled(fresh, opts) ?? (await writeRecovery(kb, fresh));
  } finally {
    release();
  }
}

/** The answer for a session that needs no recovery (already done), an error for one that must not have one; null: recover it. */
function settled(s: SessionState, opts: RecoverOptions): RecoverResult | null {
  const id = s.meta.id;
  const status = sessionStatus(s, opts.alive ?? ownerAlive);
  // a closed session whose work after the close was recovered already
  const afterClose = status === 'closed' && s.recovered !== null && s.recovered.t >= s.closed!.t;
  if (status === 'closed' && !afterClose)
    throw new AxmeError(
      'WRONG_STATE',
      `session ${id} was closed by the agent${s.closed?.commit ? ` (commit ${s.closed.commit.slice(0, 12)})` : ''}: its handoff is the agent's, so there is nothing to recover (\`axme session show ${id}\` shows the session)`,
      { session: id, status },
    );
  if (status === 'recovered' || afterClose)
    return {
      session: id,
      outcome: 'already',
      commit: s.recovered!.commit,
      handoff: null,
      summary: null,
      text: `Session ${id} was already recovered${s.recovered!.commit ? ` in commit ${s.recovered!.commit.slice(0, 12)}` : ''}.`,
    };
  if (status === 'discarded')
    return { session: id, outcome: 'discarded', commit: null, handoff: null, summary: null, text: `Session ${id} recorded nothing and was set aside.` };
  if (status === 'active' && !opts.force) {
    throw new AxmeError(
      'WRONG_STATE',
      `session ${id} is still running (its harness, pid ${s.meta.ownerPid}, is alive and it has not ended): let the agent close it, or pass --force to write a recovered handoff now`,
      { session: id, status },
    );
  }
  return null;
}

/**
 * Writes the recovery of session `s` (the caller holds its claim): a `recovered` handoff and a
 * session summary in one commit, or nothing (`discarded`) when the session recorded nothing.
 */
export async function writeRecovery(kb: KnowledgeBase, s: SessionState): Promise<RecoverResult> {
  const id = s.meta.id;
  const facts = await gatherFacts(kb, s);
  if (!facts.files.length && !facts.commits.length && !facts.knowledge.length && !facts.gist) {
    recordEvent(kb.repo.commonDir, id, { t: kb.now().toISOString(), type: 'discarded', reason: 'nothing recorded' });
    return {
      session: id,
      outcome: 'discarded',
      commit: null,
      handoff: null,
      summary: null,
      text: `Session ${id} recorded nothing (no files, commits, knowledge or prompts): set aside without a handoff.`,
    };
  }
  const auditor: KnowledgeBase = { ...kb, actor: 'auditor', session: id };
  const slug = slugify(id, 'session');
  const endedAt = s.ended?.t ?? s.lastActivity;
  const author = await handoffAuthor(kb);
  const prunable = prunableBy(kb, author);
  const r = await mutate(auditor, (state) => {
    const st = stage(state);
    const now = kb.now().toISOString();
    let handoff: string | null = null;
    let summary: string | null = null;
    let skipped: string | null = null;
    const prevHandoff = st.state.items.handoff.find((h) => h.slug === slug);
    // dated by when the session started: a close made after it (a later session, or the other half
    // of a split one) stays the latest handoff
    const started = s.meta.startedAt;
    // its writer's newer handoffs only: a teammate's are not in this clone's budget
    const newer = st.state.items.handoff.filter((h) => h.slug !== slug && h.updated > started && prunable(h)).length;
    if (prevHandoff?.source === 'agent') skipped = 'the agent-written one is kept';
    // the post-session auditor read the whole transcript: its handoff says more than the record does
    else if (prevHandoff?.source === 'auditor') skipped = "the auditor's, written from the session's transcript, is kept";
    else if (!prevHandoff && newer >= HANDOFFS_KEPT)
      skipped = `older than the ${HANDOFFS_KEPT} handoffs kept in the tree: the session summary holds what is known`;
    else {
      const h = Handoff.parse({
        slug,
        session: id,
        source: 'recovered',
        ...handoffText(s, facts),
        author: prevHandoff?.author ?? author,
        created: prevHandoff?.created ?? started,
        updated: prevHandoff?.updated ?? started,
      });
      if (!prevHandoff || !sameFile('handoff', prevHandoff, h)) handoff = putItem(st, 'handoff', h, 'session.recovered', 'handoff');
    }
    const prevSummary = st.state.items.session.find((x) => x.slug === slug);
    // only a summary a recovery wrote is rewritten: an agent's or a person's close, and the
    // post-session audit's, stay, and work recorded after them is added
    if (prevSummary && (prevSummary.actor !== 'auditor' || prevSummary.source === 'auditor')) {
      const sum = summaryAfterClose(prevSummary, s, facts, now);
      if (sum) summary = putItem(st, 'session', sum, 'session.recovered', 'summary');
    } else {
      const sum = SessionSummary.parse({
        slug,
        session: id,
        actor: 'auditor',
        source: 'recovered',
        started: s.meta.startedAt,
        closed: endedAt,
        files_changed: facts.files,
        commits: facts.commits.map((c) => c.commit),
        worklog: worklogText(s, facts),
        created: prevSummary?.created ?? now,
        updated: prevSummary?.updated ?? now,
        extra: prevSummary?.extra ?? {},
      });
      if (!prevSummary || !sameFile('session', prevSummary, sum)) summary = putItem(st, 'session', sum, 'session.recovered', 'summary');
    }
    // a recovered handoff is one more in the tree: older ones move to history as at a close
    const pruned = handoff ? pruneHandoffs(st, slug, prunable) : [];
    const what = s.closed
      ? `${count(committable(s.pending.files).length, 'file')}, ${count(s.pending.commits.length, 'commit')} after its close`
      : `${count(facts.files.length, 'file')}, ${count(facts.commits.length, 'commit')} (ended without a close)`;
    return {
      result: { handoff, summary, skipped, pruned },
      files: st.files,
      staged: st,
      subject: `session: recover ${id} - ${what}`,
      event: 'session.recovered',
      body: worklogText(s, facts),
    };
  });
  recordEvent(kb.repo.commonDir, id, { t: kb.now().toISOString(), type: 'recovered', commit: r.commit });
  const { handoff, summary, skipped, pruned } = r.result;
  const lines = [
    `Session ${id} recovered${r.commit ? ` in commit ${r.commit.slice(0, 12)}` : ' (the store already had it)'}: ${count(facts.files.length, 'file')} changed, ${count(facts.commits.length, 'commit')}, ${count(facts.knowledge.length, 'knowledge change')}.`,
  ];
  lines.push(handoff ? `- handoff: ${locationOf(kb, handoff)}` : `- handoff: ${skipped ?? 'unchanged'}`);
  if (summary) lines.push(`- session summary: ${locationOf(kb, summary)}`);
  if (pruned.length) lines.push(`- older handoffs moved to history: ${pruned.join(', ')}`);
  return { session: id, outcome: 'recovered', commit: r.commit, handoff, summary, text: lines.join('\n') };
}

/** True when two versions of an item encode to the same file (a re-run of a recovery changes nothing). */
function sameFile<T extends ItemBase>(kind: KindName, a: T, b: T): boolean {
  return itemFile(kind, a)[1] === itemFile(kind, b)[1];
}

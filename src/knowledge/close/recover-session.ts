import { AxmeError } from '../../model/errors.ts';
import { Handoff } from '../../model/handoff.ts';
import type { ItemBase, KindName } from '../../model/kind.ts';
import { SessionSummary } from '../../model/session-summary.ts';
import { slugify } from '../../model/slug.ts';
import { ownerAlive } from '../../session/list.ts';
import {
  claimSession,
  listSessions,
  pruneSessions,
  readSession,
  recordEvent,
  type SessionMeta,
  type SessionState,
  sessionClaimHeld,
  sessionStatus,
} from '../../session/sessions.ts';
import { commitSubjects, uncommitted } from '../../store/code-commits.ts';
import { withoutRepoEnv } from '../../store/git.ts';
import { clientOfHarness } from '../../transcript/clients.ts';
import { type TranscriptGist, transcriptGist } from '../../transcript/gist.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { itemFile, mutate } from '../core/mutate.ts';
import { locationOf } from '../core/results.ts';
import { putItem, stage } from '../core/staging.ts';
import { worklog } from '../history/worklog.ts';
import { committable, HANDOFFS_KEPT, pruneHandoffs } from './finalize-close.ts';

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
    return settled(fresh, opts) ?? (await recover(kb, fresh));
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

async function recover(kb: KnowledgeBase, s: SessionState): Promise<RecoverResult> {
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
    const newer = st.state.items.handoff.filter((h) => h.slug !== slug && h.updated > started).length;
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
        created: prevHandoff?.created ?? started,
        updated: prevHandoff?.updated ?? started,
      });
      if (!prevHandoff || !sameFile('handoff', prevHandoff, h)) handoff = putItem(st, 'handoff', h, 'session.recovered', 'handoff');
    }
    const prevSummary = st.state.items.session.find((x) => x.slug === slug);
    // only a summary a recovery wrote is rewritten: an agent's or a person's close, and the
    // post-session audit's, stay, and work recorded after them is added
    if (prevSummary && (prevSummary.actor !== 'auditor' || prevSummary.source === 'auditor')) {
      const sum = afterClose(prevSummary, s, facts, now);
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
    const pruned = handoff ? pruneHandoffs(st, slug) : [];
    const what = s.closed
      ? `${count(committable(s.pending.files).length, 'file')}, ${count(s.pending.commits.length, 'commit')} after its close`
      : `${count(facts.files.length, 'file')}, ${count(facts.commits.length, 'commit')} (ended without a close)`;
    return {
      result: { handoff, summary, skipped, pruned },
      files: st.files,
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

/**
 * A closed session's summary with the work recorded after its close added (files and commits
 * merged in, one worklog paragraph appended); null when there is none, or it is already there.
 */
function afterClose(prev: SessionSummary, s: SessionState, f: Facts, now: string): SessionSummary | null {
  const files = committable(s.pending.files).filter((p) => !prev.files_changed.includes(p));
  const commits = s.pending.commits.filter((c) => !prev.commits.includes(c));
  if (!files.length && !commits.length) return null;
  const subjects = f.commits.filter((c) => commits.includes(c.commit));
  const bits = [
    `After the close the session went on (recorded by axme's hooks, ${s.ended ? `ended ${s.ended.t.slice(0, 16).replace('T', ' ')} UTC` : 'its harness is gone'}):`,
  ];
  if (files.length) bits.push(`${count(files.length, 'more file')} changed (${list(files, 30)})`);
  if (commits.length)
    bits.push(
      `${count(commits.length, 'more commit')}${
        subjects.length
          ? ` (${subjects
              .slice(0, 10)
              .map((c) => `${c.commit.slice(0, 12)} ${c.subject}`)
              .join('; ')})`
          : ''
      }`,
    );
  return SessionSummary.parse({
    ...prev,
    files_changed: [...prev.files_changed, ...files],
    commits: [...prev.commits, ...commits],
    worklog: `${prev.worklog}${prev.worklog ? '\n\n' : ''}${bits[0]} ${bits.slice(1).join('; ')}.`,
    updated: now,
  });
}

/** True when two versions of an item encode to the same file (a re-run of a recovery changes nothing). */
function sameFile<T extends ItemBase>(kind: KindName, a: T, b: T): boolean {
  return itemFile(kind, a)[1] === itemFile(kind, b)[1];
}

/** What is known of a session without its agent's word: its record, its commits, its transcript's gist. */
export interface Facts {
  files: string[];
  /** other-than-repository paths the session touched, counted only */
  outside: number;
  dirty: Array<{ path: string; status: string }>;
  commits: Array<{ commit: string; subject: string }>;
  knowledge: string[];
  gist: TranscriptGist | null;
}

/** The facts of session `s` (its recovery's and its checkpoint's material). */
export async function gatherFacts(kb: KnowledgeBase, s: SessionState): Promise<Facts> {
  const files = committable(s.files);
  const at = { cwd: s.meta.cwd, env: withoutRepoEnv(kb.repo.env) };
  const [commits, dirty, knowledge, gist] = await Promise.all([
    commitSubjects(at, s.commits.slice(-50)).catch(() => []),
    uncommitted(at, files.slice(0, 200)).catch(() => []),
    // unknown is not "none": a session whose knowledge could not be looked up is never set aside as empty
    sessionKnowledge(kb, s).catch((err: Error) => [`(the knowledge this session saved could not be listed: ${err.message})`]),
    // in the format of the client whose hooks opened the session, else the one its first line shows
    transcriptGist(s.meta.transcriptPath, clientOfHarness(s.meta.harness)),
  ]);
  return {
    files,
    outside: s.files.length - files.length,
    dirty,
    commits,
    knowledge,
    gist, // its texts are redacted where the transcript is read
  };
}

/** Subjects of the knowledge commits the session made (decisions, memories saved before it stopped). */
async function sessionKnowledge(kb: KnowledgeBase, s: SessionState): Promise<string[]> {
  const log = await worklog(kb, { since: s.meta.startedAt.slice(0, 10), limit: 10_000 });
  return log
    .filter((e) => e.session === s.meta.id && e.event !== 'session.recovered')
    .map((e) => e.subject)
    .reverse();
}

function duration(from: string, to: string): string {
  const min = Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 60_000));
  return min < 60 ? `${min} min` : `${Math.floor(min / 60)} h ${min % 60} min`;
}

const quote = (t: string) => `"${t.replace(/\s+/g, ' ').trim()}"`;

function handoffText(s: SessionState, f: Facts) {
  const end = s.ended?.t ?? s.lastActivity;
  const how = s.ended ? `ended (${s.ended.reason}) without a close` : 'stopped without a close (its harness is gone)';
  const parts: string[] = [
    `The session ran ${duration(s.meta.startedAt, end)} (${s.meta.startedAt.slice(0, 16).replace('T', ' ')} to ${end.slice(0, 16).replace('T', ' ')} UTC) and ${how}; axme recovered this from its record.`,
  ];
  if (f.gist?.firstPrompt) parts.push(`First request: ${quote(f.gist.firstPrompt)}`);
  if (f.files.length) parts.push(`Files changed (${f.files.length}): ${list(f.files, 30)}${f.outside ? ` (and ${f.outside} outside the repository)` : ''}`);
  if (f.commits.length)
    parts.push(
      `Commits (${f.commits.length}):\n${f.commits
        .slice(0, 20)
        .map((c) => `- ${c.commit.slice(0, 12)} ${c.subject}`)
        .join('\n')}`,
    );
  if (f.knowledge.length)
    parts.push(
      `Knowledge saved:\n${f.knowledge
        .slice(0, 20)
        .map((k) => `- ${k}`)
        .join('\n')}`,
    );
  const stopped = f.gist?.lastPrompt ? `last request ${quote(f.gist.lastPrompt)}` : f.files.length ? `after editing ${f.files.at(-1)}` : 'unknown';
  const next: string[] = [];
  if (f.dirty.length)
    next.push(
      `Review the uncommitted changes (${list(
        f.dirty.map((d) => `${d.path} [${d.status}]`),
        15,
      )}) and commit or discard them.`,
    );
  if (f.gist?.lastPrompt) next.push(`Ask the user whether ${quote(f.gist.lastPrompt)} was finished.`);
  next.push('Save any decisions or memories from that session that are not stored yet.');
  return {
    stopped_at: `Session ended without a handoff; ${stopped}`.slice(0, 2000),
    summary: parts.join('\n\n'),
    in_progress: f.dirty.length
      ? `Uncommitted changes in: ${list(
          f.dirty.map((d) => d.path),
          30,
        )}`
      : '',
    next_steps: next.join('\n'),
    test_results: '',
    blockers: '',
    startup_text: `The previous session (${s.meta.id}, ${s.meta.startedAt.slice(0, 10)}) ended without a handoff. From its record: ${count(f.files.length, 'file')} changed, ${count(f.commits.length, 'commit')}${f.dirty.length ? `, ${count(f.dirty.length, 'file')} still uncommitted` : ''}${f.gist?.lastPrompt ? `; the last request was ${quote(f.gist.lastPrompt)}` : ''}. Ask whether to continue it.`,
    prs: [],
    dirty_branches: [],
  };
}

function worklogText(s: SessionState, f: Facts): string {
  const bits = [
    `Recovered by axme (the session ended without a close). Ran ${duration(s.meta.startedAt, s.ended?.t ?? s.lastActivity)}; ${count(f.files.length, 'file')} changed, ${count(f.commits.length, 'commit')}, ${count(f.knowledge.length, 'knowledge change')}.`,
  ];
  if (f.gist?.firstPrompt) bits.push(`Began with ${quote(f.gist.firstPrompt)}.`);
  if (f.gist?.lastReply) bits.push(`The agent's last words: ${quote(f.gist.lastReply)}`);
  return bits.join(' ');
}

/** `n what(s)`. */
export const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** The first `max` items, comma-separated, then how many more. */
export function list(items: string[], max: number): string {
  return items.length > max ? `${items.slice(0, max).join(', ')}, and ${items.length - max} more` : items.join(', ');
}

export interface SweepResult {
  recovered: RecoverResult[];
  discarded: string[];
  /** sessions another process is recovering right now */
  skipped: string[];
  /** finished sessions whose local record was old enough to delete */
  pruned: string[];
  errors: Array<{ session: string; message: string }>;
}

/**
 * Recovers every orphan of the repository (run by the session-start hook, when the MCP server
 * starts and when it stops), then forgets sessions finished long ago. A claim file keeps two
 * processes from recovering one session twice; one failure does not stop the rest.
 */
export async function sweepOrphans(kb: KnowledgeBase, opts: { alive?: (m: SessionMeta) => boolean; waitUntil?: number } = {}): Promise<SweepResult> {
  const alive = opts.alive ?? ownerAlive;
  const out: SweepResult = { recovered: [], discarded: [], skipped: [], pruned: [], errors: [] };
  const sessions = listSessions(kb.repo.commonDir);
  await sweepSome(kb, sessions, alive, out);
  // a session another process holds: wait for its claim to go, then take what it left (usually nothing)
  while (out.skipped.length && opts.waitUntil !== undefined && Date.now() < opts.waitUntil) {
    const held = out.skipped;
    while (held.some((id) => sessionClaimHeld(kb.repo.commonDir, id)) && Date.now() < opts.waitUntil) await new Promise((r) => setTimeout(r, CLAIM_POLL_MS));
    out.skipped = [];
    await sweepSome(
      kb,
      sessions.filter((s) => held.includes(s.meta.id)),
      alive,
      out,
    );
  }
  // (a session recovered just now is recent: the list read before the recoveries still serves)
  out.pruned = pruneSessions(kb.repo.commonDir, kb.now(), undefined, sessions);
  return out;
}

/** How often a sweep that waits on another process's claim looks again. */
const CLAIM_POLL_MS = 100;

async function sweepSome(kb: KnowledgeBase, sessions: SessionState[], alive: (m: SessionMeta) => boolean, out: SweepResult): Promise<void> {
  for (const s of sessions) {
    if (sessionStatus(s, alive) !== 'orphan') continue;
    const release = claimSession(kb.repo.commonDir, s.meta.id, kb.now());
    if (!release) {
      out.skipped.push(s.meta.id);
      continue;
    }
    try {
      // re-read under the claim: another process may have finished it meanwhile
      const fresh = readSession(kb.repo.commonDir, s.meta.id);
      if (!fresh || sessionStatus(fresh, alive) !== 'orphan') continue;
      const r = await recover(kb, fresh);
      if (r.outcome === 'discarded') out.discarded.push(r.session);
      else out.recovered.push(r);
    } catch (err) {
      out.errors.push({ session: s.meta.id, message: (err as Error).message });
    } finally {
      release();
    }
  }
}

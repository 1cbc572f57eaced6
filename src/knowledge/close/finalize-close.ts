import { randomBytes } from 'node:crypto';
import { isAbsolute } from 'node:path';
import type { z } from 'zod';
import { FinalizeCloseInput } from '../../model/close.ts';
import { AxmeError } from '../../model/errors.ts';
import { Handoff } from '../../model/handoff.ts';
import { itemPath } from '../../model/paths.ts';
import { SafetyUpdate } from '../../model/safety-rules.ts';
import { assertNoSecrets } from '../../model/secrets.ts';
import { SessionSummary } from '../../model/session-summary.ts';
import { slugify } from '../../model/slug.ts';
import { parseInput } from '../../model/validate.ts';
import { ranHere } from '../../session/ran-here.ts';
import { readSession, recordEvent, type SessionState } from '../../session/sessions.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { mutate } from '../core/mutate.ts';
import type { WriteOptions } from '../core/results.ts';
import { locationOf } from '../core/results.ts';
import { pathTaken, putItem, type Staged, stage } from '../core/staging.ts';
import { planAddDecision } from '../items/decision/add-decision.ts';
import { planRevokeDecision } from '../items/decision/revoke-decision.ts';
import { planSupersede } from '../items/decision/supersede-decision.ts';
import { planAddMemory } from '../items/memory/add-memory.ts';
import { planArchiveMemory } from '../items/memory/archive-memory.ts';
import { planSupersedeMemory } from '../items/memory/supersede-memory.ts';
import { planSafetyUpdate } from '../rules/update-safety.ts';
import { byNewest } from '../views/context.ts';
import { checkCloseDecision, checkCloseMemory } from './close-entries.ts';

/** Handoffs kept in the tree; older ones live in history. */
export const HANDOFFS_KEPT = 5;

export interface FinalizeCloseResult {
  session: string;
  commit: string | null;
  /** removed: revoked by this close; exists: already stored (added) or already revoked (removed) */
  decisions: Array<{ id: string; title: string; outcome: 'saved' | 'exists' | 'superseded' | 'removed'; supersedes?: string }>;
  /** removed: archived by this close; exists: already stored (added) or already retired (removed) */
  memories: Array<{ slug: string; title: string; outcome: 'saved' | 'exists' | 'superseded' | 'removed'; supersedes?: string }>;
  safety: Array<{ action: string; rule_type: string; value: string; changed: boolean }>;
  handoff: string;
  summary: string;
  /** handoff files moved out of the tree (kept in history) */
  pruned: string[];
  /** files the session changed, as recorded by the hooks on this machine */
  files_changed: number;
  /** what was stored, in words */
  text: string;
}

export interface FinalizeCloseOptions extends WriteOptions {
  /** a surface's close: the session must be known (`kb.session`), never made up */
  requireSession?: boolean;
}

/**
 * The usage error of a close that knows no session: how axme finds the session (docs/sessions.md,
 * "Life of a session") and how to name it.
 */
function noSessionToClose(): AxmeError {
  return new AxmeError(
    'INVALID_INPUT',
    'no session to close: axme takes the session from AXME_SESSION, or from the agent session whose harness (Claude Code) runs this command, and neither is here; nothing was written. Name the session: AXME_SESSION=<id> axme session finalize (axme session list shows the sessions on this machine)',
  );
}

/**
 * Closes a session in ONE commit: every extraction (decisions, memories, safety rules), the
 * handoff (`handoffs/<session>.md`) and the session summary (`sessions/<yyyy-mm>/<session>.md`).
 * Everything is validated before anything is written; the commit body is the worklog entry.
 */
export async function finalizeClose(kb: KnowledgeBase, input: FinalizeCloseInput, opts: FinalizeCloseOptions = {}): Promise<FinalizeCloseResult> {
  const data = parseInput(FinalizeCloseInput, input, 'session close');
  const decisions = data.decisions.map((d, i) => checkCloseDecision(d, `decisions.${i}`, opts));
  const memories = data.memories.map((m, i) => checkCloseMemory(m, `memories.${i}`, opts));
  const rules = data.safety_rules.map((r, i) => {
    if (r.action === 'supersede' && !r.replaces)
      throw new AxmeError('INVALID_INPUT', `safety_rules.${i}: action supersede needs \`replaces\`: the value it replaces`);
    return r;
  });
  assertNoSecrets(
    {
      stopped_at: data.stopped_at,
      summary: data.summary,
      in_progress: data.in_progress,
      next_steps: data.next_steps,
      worklog_entry: data.worklog_entry,
      startup_text: data.startup_text,
      test_results: data.test_results,
      blockers: data.blockers,
    },
    !!opts.allowSecret,
  );
  if (!kb.session && opts.requireSession) throw noSessionToClose();
  const session = kb.session ?? randomBytes(4).toString('hex');
  const slug = slugify(session, 'session');
  // what this machine recorded about the session (hooks): when it started, files, commits
  const local = kb.session ? readSession(kb.repo.commonDir, kb.session) : null;

  const author = await handoffAuthor(kb);
  const r = await mutate(kb, async (state) => {
    const st = stage(state);
    const now = kb.now().toISOString();
    const out: Omit<FinalizeCloseResult, 'commit' | 'text' | 'files_changed'> = {
      session,
      decisions: [],
      memories: [],
      safety: [],
      handoff: '',
      summary: '',
      pruned: [],
    };
    for (const d of decisions) {
      if (d.action === 'remove') {
        const v = planRevokeDecision(kb, st, { id: d.id, reason: d.reason });
        out.decisions.push({ id: v.item.id, title: v.item.title, outcome: v.changed ? 'removed' : 'exists' });
      } else if (d.action === 'supersede') {
        const s = planSupersede(kb, st, d.supersedes, d.checked);
        out.decisions.push({ id: s.item.id, title: s.item.title, outcome: 'superseded', supersedes: s.superseded.id });
      } else {
        const a = planAddDecision(kb, st, d.checked);
        out.decisions.push({ id: a.item.id, title: a.item.title, outcome: a.duplicate ? 'exists' : 'saved' });
      }
    }
    for (const m of memories) {
      if (m.action === 'remove') {
        const v = planArchiveMemory(kb, st, m.slug);
        out.memories.push({ slug: v.item.slug, title: v.item.title, outcome: v.changed ? 'removed' : 'exists' });
      } else if (m.action === 'supersede') {
        const s = planSupersedeMemory(kb, st, m.supersedes, m.checked);
        out.memories.push({ slug: s.item.slug, title: s.item.title, outcome: 'superseded', supersedes: s.superseded.slug });
      } else {
        const a = planAddMemory(kb, st, m.checked);
        out.memories.push({ slug: a.item.slug, title: a.item.title, outcome: a.duplicate ? 'exists' : 'saved' });
      }
    }
    for (const rule of rules) {
      const steps: Array<z.output<typeof SafetyUpdate>> =
        rule.action === 'supersede'
          ? [
              { action: 'remove', rule_type: rule.rule_type, value: rule.replaces! },
              { action: 'add', rule_type: rule.rule_type, value: rule.value },
            ]
          : [{ action: rule.action, rule_type: rule.rule_type, value: rule.value }];
      let changed = false;
      for (const step of steps) changed = (await planSafetyUpdate(kb, st, step)).changed || changed;
      out.safety.push({ action: rule.action, rule_type: rule.rule_type, value: rule.value, changed });
    }
    const record = planCloseRecord(kb, st, { session, slug, data, source: 'agent', local, now, author });
    out.handoff = record.handoff ?? '';
    out.summary = record.summary;
    out.pruned = record.pruned;
    const what = data.stopped_at || data.summary;
    return {
      result: out,
      files: st.files,
      staged: st,
      subject: `session: close ${session}${what ? ` - ${what.split('\n')[0]}` : ''}`,
      event: 'session.closed',
      body: data.worklog_entry,
    };
  });
  const res = r.result;
  // the handoff's blob is recorded by the write itself (core/mutate.ts): that is how this clone knows it ran the session
  if (local) recordEvent(kb.repo.commonDir, local.meta.id, { t: kb.now().toISOString(), type: 'closed', commit: r.commit });
  return { ...res, files_changed: local?.files.length ?? 0, commit: r.commit, text: describe({ ...kb, ref: r.ref }, res, r.commit) };
}

/** The handoff and worklog parts of a close, as FinalizeCloseInput has them. */
export type CloseRecordData = Pick<
  z.output<typeof FinalizeCloseInput>,
  'stopped_at' | 'startup_text' | 'prs' | 'dirty_branches' | 'summary' | 'in_progress' | 'next_steps' | 'test_results' | 'blockers' | 'worklog_entry'
>;

/**
 * Stages a session's record: its handoff (`handoffs/<session>.md`, unless `handoff: false`) and its
 * summary (`sessions/<yyyy-mm>/<session>.md`: the worklog, what the hooks recorded on this machine),
 * keeping the newest handoffs in the tree. Returns the paths written and pruned.
 */
export function planCloseRecord(
  kb: KnowledgeBase,
  st: Staged,
  o: {
    session: string;
    slug: string;
    data: CloseRecordData;
    source: 'agent' | 'auditor';
    local: SessionState | null;
    now: string;
    /** who writes it (the git identity's email, handoffAuthor): named in the handoff, and whose older handoffs are pruned */
    author: string;
    handoff?: boolean;
  },
): { handoff: string | null; summary: string; pruned: string[] } {
  const { slug, session, data, local, now } = o;
  let handoffPath: string | null = null;
  if (o.handoff !== false && handsOver(data)) {
    const previous = st.state.items.handoff.find((h) => h.slug === slug);
    const handoff = Handoff.parse({
      slug,
      session,
      source: o.source,
      stopped_at: data.stopped_at,
      startup_text: data.startup_text,
      prs: data.prs,
      dirty_branches: data.dirty_branches,
      summary: data.summary,
      in_progress: data.in_progress,
      next_steps: data.next_steps,
      test_results: data.test_results,
      blockers: data.blockers,
      author: previous?.author ?? o.author,
      created: previous?.created ?? now,
      updated: now,
    });
    handoffPath = putItem(st, 'handoff', handoff, 'session.closed', 'handoff');
  }
  const prevSummary = st.state.items.session.find((s) => s.slug === slug);
  // the auditor after an agent's own close keeps that close (who, when, its narrative) and adds its part below
  const keep = o.source === 'auditor' && prevSummary !== undefined && prevSummary.actor !== 'auditor';
  const entry = data.worklog_entry || data.summary;
  const worklog = keep ? [prevSummary.worklog, entry].filter(Boolean).join('\n\n') : entry;
  const summary = SessionSummary.parse({
    ...(prevSummary ?? {}),
    slug,
    session,
    actor: keep ? prevSummary.actor : kb.actor,
    source: keep ? prevSummary.source : kb.actor,
    closed: keep ? prevSummary.closed : now,
    worklog,
    started: prevSummary?.started ?? local?.meta.startedAt,
    files_changed: union(prevSummary?.files_changed, committable(local?.files)),
    commits: union(prevSummary?.commits, local?.commits),
    created: prevSummary?.created ?? now,
    updated: now,
    extra: prevSummary?.extra ?? {},
  });
  const summaryPath = putItem(st, 'session', summary, 'session.closed', 'summary');
  return { handoff: handoffPath, summary: summaryPath, pruned: handoffPath ? pruneHandoffs(st, slug, prunableBy(kb, o.author)) : [] };
}

/**
 * Whether a close hands anything over: a text with words in it, a pull request or a branch. A
 * close that does not (`{}`) writes no handoff, so it never becomes the latest one in place of a
 * handoff that says something.
 */
function handsOver(data: CloseRecordData): boolean {
  const texts = [data.stopped_at, data.startup_text, data.summary, data.in_progress, data.next_steps, data.test_results, data.blockers];
  return texts.some((t) => t.trim() !== '') || data.prs.length > 0 || data.dirty_branches.length > 0;
}

/** Who writes a handoff: the email of the identity the store's commits carry (git config, GIT_* variables, else the fallback). */
export async function handoffAuthor(kb: KnowledgeBase): Promise<string> {
  return (await kb.repo.identity()).email;
}

/**
 * Whether a write on this clone by `author` may prune handoff `h`: one of a session this clone ran
 * (session/ran-here.ts: its records under .git/axme/, which no push writes) by the same identity, and
 * those that name no writer (written before handoffs did); never a teammate's, nor the same person's
 * from another clone: only the clone that wrote a handoff prunes it, so a push's removal of one this
 * clone wrote is never a close's and is held (sync/handoff-removals.ts), and none is lost before its
 * writer's next session saw it (docs/sessions.md).
 */
export function prunableBy(kb: KnowledgeBase, author: string): (h: Handoff) => boolean {
  const ran = ranHere(kb.repo.commonDir);
  return (h) => h.author === undefined || (h.author === author && ran(h.slug));
}

/**
 * Keeps the newest HANDOFFS_KEPT of the handoffs this write may prune (`prunable`: prunableBy) in the
 * tree; the rest stay reachable in history. The handoff just written (`keep`) always stays, however
 * old: removed in the commit that adds it, it would be in no version at all. Returns the paths removed.
 */
export function pruneHandoffs(st: Staged, keep: string, prunable: (h: Handoff) => boolean): string[] {
  const byAge = [...st.state.items.handoff].filter((h) => h.slug !== keep && prunable(h)).sort(byNewest);
  const pruned: string[] = [];
  for (const old of byAge.slice(HANDOFFS_KEPT - 1)) {
    const p = itemPath('handoff', old.slug);
    if (!pathTaken(st, p)) continue;
    st.files.set(p, null);
    pruned.push(p);
  }
  return pruned;
}

/** Paths inside the repository only: a session's edits elsewhere (absolute paths) are not the team's business. */
export function committable(files: string[] | undefined): string[] {
  return (files ?? []).filter((f) => !isAbsolute(f) && !f.startsWith('..')).slice(0, 500);
}

function outcomeText(x: { outcome: string; supersedes?: string }): string {
  return x.outcome === 'superseded' ? `supersedes ${x.supersedes}` : x.outcome === 'exists' ? 'already stored' : x.outcome;
}

function union(a: string[] | undefined, b: string[] | undefined): string[] {
  return [...new Set([...(a ?? []), ...(b ?? [])])];
}

function describe(kb: KnowledgeBase, r: Omit<FinalizeCloseResult, 'commit' | 'text' | 'files_changed'>, commit: string | null): string {
  const lines = [`Session ${r.session} closed${commit ? ` in commit ${commit.slice(0, 12)}` : ''}. Stored:`];
  lines.push(r.decisions.length ? `- decisions: ${r.decisions.map((d) => `${d.id} ${d.title} (${outcomeText(d)})`).join('; ')}` : '- decisions: none');
  lines.push(r.memories.length ? `- memories: ${r.memories.map((m) => `${m.slug} (${outcomeText(m)})`).join('; ')}` : '- memories: none');
  if (r.safety.length)
    lines.push(`- safety rules: ${r.safety.map((s) => `${s.action} ${s.rule_type} = ${s.value}${s.changed ? '' : ' (no change)'}`).join('; ')}`);
  lines.push(
    r.handoff ? `- handoff: ${locationOf(kb, r.handoff)}` : '- handoff: none (the close handed nothing over: the latest handoff stays the one before)',
    `- session summary: ${locationOf(kb, r.summary)}`,
  );
  if (r.pruned.length) lines.push(`- older handoffs moved to history: ${r.pruned.join(', ')}`);
  return lines.join('\n');
}

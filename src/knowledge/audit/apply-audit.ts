import type { z } from 'zod';
import type { AuditAnswer, AuditMode } from '../../model/audit.ts';
import type { CloseSafetyRule } from '../../model/close.ts';
import type { Decision } from '../../model/decision.ts';
import { normalizeTitle } from '../../model/dedup.ts';
import { isAxmeError } from '../../model/errors.ts';
import { isLive } from '../../model/liveness.ts';
import type { Memory } from '../../model/memory.ts';
import { loosensRules } from '../../model/rule-loosening.ts';
import { readSession } from '../../session/sessions.ts';
import { handoffAuthor, planCloseRecord } from '../close/finalize-close.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { mutate } from '../core/mutate.ts';
import { stage } from '../core/staging.ts';
import { type KnowledgeState, readState } from '../core/state.ts';
import { checkDecision, planAddDecision } from '../items/decision/add-decision.ts';
import { checkMemory, planAddMemory } from '../items/memory/add-memory.ts';
import { planAskQuestion } from '../items/question/ask-question.ts';
import { planSafetyUpdate } from '../rules/update-safety.ts';
import { tokenize } from '../views/search.ts';

/** Two titles (or texts) this alike, by their words' stems, are the same knowledge. */
const SAME_WORDS = 0.6;

export interface Dropped {
  kind: 'decision' | 'memory' | 'question' | 'safety_rule';
  title: string;
  /** why: "the same as D-003 Use Valkey", "already a rule" */
  reason: string;
}

export interface AuditApplied {
  /** the commit written (null: nothing new, or a dry run) */
  commit: string | null;
  /** the ref written: refs/memory/main, or the session's proposal with review.required */
  ref: string;
  written: { decisions: string[]; memories: string[]; questions: string[]; safety_rules: string[]; handoff: string | null; summary: string | null };
  dropped: Dropped[];
  /** what the answer held: decisions, memories, rules, questions */
  extracted: number;
}

type Rule = z.output<typeof CloseSafetyRule>;

/**
 * Writes what the auditor found as ONE commit by the actor `auditor` (kb.actor) for the session
 * (kb.session): decisions, memories, safety rules and questions that are not already stored, and
 * in a full audit the handoff and the session's summary. An extraction the store already holds (the
 * same normalized title, or mostly the same words as a current item) is dropped; a decision meant
 * to supersede a stored one becomes a question for the user, never a silent supersession; a handoff
 * the agent wrote is never overwritten. With review.required the commit goes to the session's
 * proposal, like any agent write (write-target.ts).
 */
export async function applyAudit(kb: KnowledgeBase, answer: AuditAnswer, opts: { mode: AuditMode; dryRun?: boolean; record?: boolean }): Promise<AuditApplied> {
  const session = kb.session!;
  const extracted = answer.decisions.length + answer.memories.length + answer.safety_rules.length + answer.questions.length;
  const before = (await kb.repo.backend.resolveRef(kb.ref)) ? await readState(kb) : null;
  const plan = choose(answer, before);
  const written: AuditApplied['written'] = { decisions: [], memories: [], questions: [], safety_rules: [], handoff: null, summary: null };
  const dropped = [...plan.dropped];
  const hasRecord =
    opts.mode === 'full' &&
    opts.record !== false &&
    [answer.summary, answer.stopped_at, answer.in_progress, answer.next_steps, answer.worklog_entry].some((t) => t.trim() !== '');
  if (opts.dryRun) return { commit: null, ref: kb.ref, written: preview(plan, hasRecord), dropped, extracted };
  const local = hasRecord ? readSession(kb.repo.commonDir, session) : null;
  const author = await handoffAuthor(kb);
  const r = await mutate(kb, async (state) => {
    const st = stage(state);
    for (const d of plan.decisions) {
      const checked = usable('decision', d.title, () => checkDecision(d), dropped);
      if (!checked) continue;
      const a = planAddDecision(kb, st, checked);
      if (a.duplicate) dropped.push({ kind: 'decision', title: d.title, reason: `the same as ${a.item.id} ${a.item.title}` });
      else written.decisions.push(`${a.item.id} ${a.item.title}`);
    }
    for (const m of plan.memories) {
      const checked = usable('memory', m.title, () => checkMemory(m), dropped);
      if (!checked) continue;
      const a = planAddMemory(kb, st, checked);
      if (a.duplicate) dropped.push({ kind: 'memory', title: m.title, reason: `the same as memory ${a.item.slug}` });
      else written.memories.push(a.item.slug);
    }
    for (const rule of plan.rules) {
      const { changed } = await planSafetyUpdate(kb, st, { action: rule.action === 'remove' ? 'remove' : 'add', rule_type: rule.rule_type, value: rule.value });
      if (changed) written.safety_rules.push(`${rule.action === 'remove' ? 'remove' : 'add'} ${rule.rule_type} ${rule.value}`);
      else dropped.push({ kind: 'safety_rule', title: `${rule.rule_type} ${rule.value}`, reason: 'the rules already say so' });
    }
    for (const q of plan.questions) {
      const a = planAskQuestion(kb, st, q);
      if (a.duplicate) dropped.push({ kind: 'question', title: firstLine(q.question), reason: `already asked as ${a.item.id}` });
      else written.questions.push(`${a.item.id} ${firstLine(a.item.question)}`);
    }
    if (hasRecord) {
      // the agent's own handoff stands: the auditor then only adds to the session's worklog
      const agentHandoff = st.state.items.handoff.some((h) => h.slug === session && h.source === 'agent');
      const rec = planCloseRecord(kb, st, {
        session,
        slug: session,
        data: answer,
        source: 'auditor',
        local,
        now: kb.now().toISOString(),
        author,
        handoff: !agentHandoff,
      });
      written.handoff = rec.handoff;
      written.summary = rec.summary;
    }
    const n = written.decisions.length + written.memories.length + written.safety_rules.length + written.questions.length;
    const what = [
      count(written.decisions.length, 'decision'),
      count(written.memories.length, 'memory', 'memories'),
      count(written.safety_rules.length, 'rule'),
      count(written.questions.length, 'question'),
    ]
      .filter(Boolean)
      .join(', ');
    return {
      result: n,
      files: st.files,
      staged: st,
      subject: `audit: session ${session}${what ? ` - ${what}` : written.handoff ? ' - handoff' : ''}`,
      event: 'session.audited',
      body: answer.worklog_entry || undefined,
    };
  });
  return { commit: r.commit, ref: r.ref ?? kb.ref, written, dropped, extracted };
}

/** The checked input, or undefined with the reason in `dropped` (a credential-like string, a title too long): one bad extraction never sinks the rest. */
function usable<T>(kind: Dropped['kind'], title: string, check: () => T, dropped: Dropped[]): T | undefined {
  try {
    return check();
  } catch (err) {
    if (!isAxmeError(err, 'INVALID_INPUT')) throw err;
    dropped.push({ kind, title, reason: `not stored: ${err.message.split('\n')[0]}` });
    return undefined;
  }
}

interface Chosen {
  decisions: AuditAnswer['decisions'];
  memories: AuditAnswer['memories'];
  rules: Rule[];
  questions: AuditAnswer['questions'];
  dropped: Dropped[];
}

/** Which extractions are new against the store as it is, and what becomes a question. Pure. */
function choose(answer: AuditAnswer, state: KnowledgeState | null): Chosen {
  const out: Chosen = { decisions: [], memories: [], rules: [], questions: [...answer.questions], dropped: [] };
  const decisions = (state?.items.decision ?? []).filter((d) => isLive('decision', d));
  const memories = (state?.items.memory ?? []).filter((m) => isLive('memory', m));
  const open = (state?.items.question ?? []).filter((q) => isLive('question', q));
  for (const d of answer.decisions) {
    const same = alike(d.title, d.decision, decisions, (x: Decision) => [x.title, x.decision]);
    if (same) {
      out.dropped.push({ kind: 'decision', title: d.title, reason: `the same as ${same.id} ${same.title}` });
      continue;
    }
    if (d.action === 'supersede') {
      // a contradiction is the user's to settle: asked, never superseded behind their back
      const old = decisions.find((x) => x.id === d.supersedes?.toUpperCase() || x.slug === d.supersedes);
      out.questions.push({
        question: `Does "${d.title}" replace ${old ? `${old.id} "${old.title}"` : `decision ${d.supersedes}`}? The session points that way: ${firstLine(d.decision)}`,
        context: `Found by the auditor in session transcript; if yes: axme decision supersede ${old?.id ?? d.supersedes} --title ${JSON.stringify(d.title)} --decision ...${d.reasoning ? `\nWhy: ${firstLine(d.reasoning)}` : ''}`,
      });
      out.dropped.push({ kind: 'decision', title: d.title, reason: `it would supersede ${old?.id ?? d.supersedes}: asked as a question instead` });
      continue;
    }
    if (d.enforce === 'required') {
      // a rule every agent must follow is a person's to make: proposed, never written by the auditor
      out.questions.push({
        question: `Should "${d.title}" be a required decision (every agent must follow it)? ${firstLine(d.decision)}`,
        context: `Proposed by the auditor from the session transcript; if yes: axme decision add --title ${JSON.stringify(d.title)} --decision ... --enforce required${d.reasoning ? `\nWhy: ${firstLine(d.reasoning)}` : ''}`,
      });
      out.dropped.push({ kind: 'decision', title: d.title, reason: 'a required decision binds every agent: asked as a question instead' });
      continue;
    }
    out.decisions.push({ ...d, action: 'add' });
  }
  for (const m of answer.memories) {
    const same = alike(m.title, m.description, memories, (x: Memory) => [x.title, x.description]);
    if (same) out.dropped.push({ kind: 'memory', title: m.title, reason: `the same as memory ${same.slug}` });
    else out.memories.push(m);
  }
  for (const r of answer.safety_rules) {
    if (r.action === 'supersede') {
      out.questions.push({
        question: `Should the safety rule ${r.rule_type} "${r.replaces}" become "${r.value}"?`,
        context: 'Found by the auditor in the session transcript.',
      });
      out.dropped.push({ kind: 'safety_rule', title: `${r.rule_type} ${r.value}`, reason: 'it would replace a rule: asked as a question instead' });
    } else if (loosensRules({ action: r.action, rule_type: r.rule_type })) {
      // the transcript (and a web page the agent read) steers the auditor: it never lets more through
      out.questions.push({
        question: `Should the safety rules let more through: ${r.action} ${r.rule_type} "${r.value}"?`,
        context: `Proposed by the auditor from the session transcript. Only a person loosens the rules; if yes: axme safety ${r.action} ${r.rule_type} ${JSON.stringify(r.value)}`,
      });
      out.dropped.push({
        kind: 'safety_rule',
        title: `${r.action} ${r.rule_type} ${r.value}`,
        reason: 'it loosens the safety rules: asked as a question instead',
      });
    } else out.rules.push(r);
  }
  out.questions = out.questions.filter((q) => {
    const same = open.find((o) => normalizeTitle(o.question) === normalizeTitle(q.question) || similarity(o.question, q.question) >= SAME_WORDS);
    if (same) out.dropped.push({ kind: 'question', title: firstLine(q.question), reason: `already asked as ${same.id}` });
    return !same;
  });
  return out;
}

/** The current item an extraction repeats: the same normalized title, or mostly the same words in its title or its text. */
function alike<T>(title: string, text: string, items: T[], fields: (i: T) => [string, string]): T | undefined {
  const key = normalizeTitle(title);
  return items.find((i) => {
    const [t, body] = fields(i);
    return normalizeTitle(t) === key || similarity(t, title) >= SAME_WORDS || (text.length > 40 && similarity(body, text) >= SAME_WORDS);
  });
}

/** Jaccard similarity of two texts' stemmed words (search's analysis), 0..1. */
function similarity(a: string, b: string): number {
  const x = new Set(tokenize(a));
  const y = new Set(tokenize(b));
  if (x.size === 0 || y.size === 0) return 0;
  let both = 0;
  for (const w of x) if (y.has(w)) both++;
  return both / (x.size + y.size - both);
}

function preview(p: Chosen, record: boolean): AuditApplied['written'] {
  return {
    decisions: p.decisions.map((d) => d.title),
    memories: p.memories.map((m) => m.title),
    questions: p.questions.map((q) => firstLine(q.question)),
    safety_rules: p.rules.map((r) => `${r.action} ${r.rule_type} ${r.value}`),
    handoff: record ? '(would be written)' : null,
    summary: record ? '(would be written)' : null,
  };
}

function count(n: number, one: string, many = `${one}s`): string {
  return n ? `${n} ${n === 1 ? one : many}` : '';
}

function firstLine(s: string): string {
  const l = s.split('\n')[0] ?? '';
  return l.length > 120 ? `${l.slice(0, 117)}...` : l;
}

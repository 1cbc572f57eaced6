import type { KnowledgeBase } from '../core/kb.ts';
import { backlogLine, currentDecisions, currentMemories, handoffBlock, questionBlock, safetyBlock } from './blocks.ts';
import { DEFAULT_PAGE_BUDGET, paginate, type Page } from './paging.ts';
import { isLive } from '../../model/liveness.ts';
import type { KnowledgeState } from '../core/state.ts';
import { readMergedState, storeOf } from '../core/merged-state.ts';
import { pendingProposals } from '../review/pending.ts';
import { changeLines } from '../review/diff/render-diff.ts';
import { storeProblems } from '../admin/store-problems.ts';
import { staleMarks } from './stale-marks.ts';

export interface ContextOptions {
  at?: string | undefined;
  page?: number | undefined;
  /** characters per page (default: axme.yaml `context.budget`, else 25,000) */
  budget?: number | undefined;
}

export interface ContextResult extends Page {
  commit: string;
  counts: Record<string, number>;
}

/** The page budget: the caller's, else axme.yaml `context.budget`, else the default. */
export function budgetOf(state: KnowledgeState, override?: number): number {
  const configured = (state.config as { context?: { budget?: unknown } } | null)?.context?.budget;
  const b = override ?? (typeof configured === 'number' ? configured : DEFAULT_PAGE_BUDGET);
  return Math.max(1_000, Math.floor(b));
}

/**
 * The session-start overview: what to tell the user, the latest handoff, open questions, safety rules, the backlog,
 * required decisions, counts, and what to load next. Paged at the budget, never mid-section.
 */
export async function assembleContext(kb: KnowledgeBase, opts: ContextOptions = {}): Promise<ContextResult> {
  const state = await readMergedState(kb, opts.at);
  const { items } = state;
  const decisions = currentDecisions(items.decision);
  const required = decisions.filter((d) => d.enforce === 'required');
  const memories = currentMemories(items.memory);
  const openQuestions = items.question.filter((q) => isLive('question', q));
  const liveBacklog = items.backlog.filter((b) => isLive('backlog', b));
  const handoff = latestHandoff(items.handoff);
  const counts = {
    decisions: decisions.length,
    required_decisions: required.length,
    memories: memories.length,
    open_questions: openQuestions.length,
    backlog_open: liveBacklog.length,
    oracle_pages: items.oracle.length,
    diagnostics: state.diagnostics.length,
    /** local proposals waiting for review */
    pending_review: 0,
    /** problems in the store that need a person (the "Store problems" section) */
    store_problems: 0,
    /** current items whose code moved since they were learned (`axme verify`) */
    stale: 0,
  };
  const marks = await staleMarks(kb, opts.at);
  const stale = marks.all;
  counts.stale = stale.length;
  const ws = state.workspace?.commit ? `; workspace ${state.workspace.store} @ ${state.workspace.commit.slice(0, 12)}` : '';
  const header = `# Project knowledge (axme, ${kb.ref} @ ${state.commit!.slice(0, 12)}${ws})\n${decisions.length} decisions (${required.length} required), ${memories.length} memories, ${openQuestions.length} open questions, ${liveBacklog.length} open backlog items, ${items.oracle.length} oracle pages.`;
  const blocks: string[] = [];
  if (handoff?.startup_text) blocks.push(`## Say this to the user first\n${handoff.startup_text}`);
  // where the last session stopped and what only the user can answer come first
  if (handoff) blocks.push(`## Latest handoff\n${handoffBlock(handoff)}`);
  if (openQuestions.length) blocks.push(`## Open questions for the user (ask them)\n${openQuestions.map(questionBlock).join('\n')}`);
  blocks.push(`## Safety rules (enforced by hooks: a denied command never runs)\n${safetyBlock(state.rules)}`);
  if (required.length) blocks.push(`## Required decisions (follow them; details in axme_decisions)\n${required.map((d) => `- ${d.id} ${d.title}${storeOf(state, d) ? ' [workspace]' : ''}: ${firstLine(d.decision)}${!storeOf(state, d) && marks.of('decision', d.slug) ? ' (may be outdated: see below)' : ''}`).join('\n')}`);
  if (liveBacklog.length) {
    const order = { high: 0, medium: 1, low: 2 } as const;
    const top = [...liveBacklog].sort((a, b) => order[a.priority] - order[b.priority]).slice(0, 10);
    blocks.push(`## Backlog (${liveBacklog.length} open${liveBacklog.length > top.length ? `, top ${top.length}` : ''})\n${top.map(backlogLine).join('\n')}`);
  }
  if (stale.length) {
    const shown = stale.slice(0, 20);
    blocks.push(
      `## Possibly outdated (the code they are about changed since they were learned: check before relying on them; \`axme reconfirm <id>\` when one still holds, else supersede or update it)\n${shown.map((s) => `- ${s.kind} ${s.id ?? s.slug} ${s.title}: ${s.reason}`).join('\n')}${stale.length > shown.length ? `\n- and ${stale.length - shown.length} more: \`axme verify\`` : ''}`,
    );
  }
  // an agent's writes under review (axme.yaml review.required): visible, and clearly not accepted yet
  const pending = opts.at === undefined && !kb.label ? await pendingProposals(kb, state.commit!) : [];
  counts.pending_review = pending.length;
  if (pending.length) {
    blocks.push(
      `## Pending review (proposed, NOT accepted knowledge: a pull request must merge it; \`axme propose\` opens it)\n${pending.map((p) => `### ${p.ref}\n${changeLines(p.diff).map((l) => `- ${l}`).join('\n')}`).join('\n')}`,
    );
  }
  // what needs a person: broken files, display IDs two items carry (lookups by them are refused)
  const problems = storeProblems(kb, state);
  counts.store_problems = problems.length;
  if (problems.length) {
    blocks.push(`## Store problems (need a person: tell the user; \`axme fsck\` checks everything)\n${problems.map((d) => `- ${d.store && d.store !== d.path ? `${d.store}: ` : ''}${d.path}: ${d.reason}`).join('\n')}`);
  }
  blocks.push(
    '## Next\nLoad in parallel: axme_oracle (stack, structure, patterns), axme_decisions, axme_memories. ' +
      'Save decisions and memories as you discover them (axme_save_decision, axme_save_memory). ' +
      'When two decisions conflict, the newer one wins. Close the session with axme_begin_close, then axme_finalize_close.',
  );
  const page = paginate(header, blocks, budgetOf(state, opts.budget), opts.page ?? 1);
  return { ...page, commit: state.commit!, counts };
}

function firstLine(s: string): string {
  const l = s.split('\n')[0] ?? '';
  return l.length > 200 ? `${l.slice(0, 197)}...` : l;
}

/**
 * The handoff the next session starts from: the latest by `updated` — an agent's by its last
 * close, a recovered one by when its session started, so the recovery of an older (or split)
 * session never hides a newer close.
 */
export function latestHandoff<T extends { updated: string; slug: string }>(all: T[]): T | undefined {
  return [...all].sort(byNewest)[0];
}

export function byNewest<T extends { updated: string; slug: string }>(a: T, b: T): number {
  return a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : a.slug < b.slug ? 1 : a.slug > b.slug ? -1 : 0;
}

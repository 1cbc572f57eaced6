import { anchorCovers, parseAnchor } from '../../model/anchor.ts';
import { counted } from '../../model/counted.ts';
import { isLive } from '../../model/liveness.ts';
import { readSession } from '../../session/sessions.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { readState } from '../core/state.ts';
import type { StaleItem } from '../stale/types.ts';
import { currentDecisions, currentMemories } from '../views/blocks.ts';
import { staleMarks } from '../views/stale-marks.ts';
import { committable } from './finalize-close.ts';

export interface BeginCloseResult {
  text: string;
  counts: Record<string, number>;
  newest: { decisions: Array<{ id: string; title: string }>; memories: Array<{ slug: string; title: string; type: string }> };
  session: string | null;
  /** what this machine recorded for the session so far (hooks): files changed, commits made */
  recorded: { files: string[]; commits: string[]; started: string } | null;
  /** stale items (`axme verify`) whose anchors cover a file this session changed: to update, supersede or reconfirm at close */
  stale: Array<{ kind: string; id: string | null; slug: string; title: string; reason: string }>;
}

/**
 * The extraction checklist for closing a session, with what is already stored (counts and the
 * newest items) so the agent can leave out duplicates without another call.
 */
export async function beginClose(kb: KnowledgeBase): Promise<BeginCloseResult> {
  const state = await readState(kb);
  const local = kb.session ? readSession(kb.repo.commonDir, kb.session) : null;
  const recorded = local && { files: committable(local.files), commits: local.commits, started: local.meta.startedAt };
  const decisions = currentDecisions(state.items.decision);
  const memories = currentMemories(state.items.memory);
  const newestFirst = <T extends { created: string }>(l: T[]) => [...l].sort((a, b) => (a.created < b.created ? 1 : -1)).slice(0, 10);
  const nd = newestFirst(decisions).map((d) => ({ id: d.id, title: d.title }));
  const nm = newestFirst(memories).map((m) => ({ slug: m.slug, title: m.title, type: m.type }));
  const touched = recorded?.files.length ? staleTouched((await staleMarks(kb)).all, recorded.files) : [];
  const counts = {
    decisions: decisions.length,
    memories: memories.length,
    open_questions: state.items.question.filter((q) => isLive('question', q)).length,
    backlog_open: state.items.backlog.filter((b) => isLive('backlog', b)).length,
  };
  const text = [
    '# Closing the session: what to extract',
    'Go through this session and collect, then call axme_finalize_close ONCE with all of it (one commit):',
    '1. decisions: choices made about architecture, libraries, conventions (title, decision, reasoning; enforce "required" only for hard rules). A decision that replaces an existing one: action "supersede" with `supersedes` = its ID; one that no longer holds: action "remove" with `id` and `reason` (a required decision is removed by the user only).',
    '2. memories: feedback (how the user wants work done: corrections, preferences) and patterns (how this code does things). One idea per memory. A memory that replaces a stored one: action "supersede" with `supersedes` = its slug; one that no longer holds: action "remove" with `slug`.',
    '3. safety_rules: commands or paths the user forbade or allowed (rule_type bash_deny, bash_allow, fs_deny, fs_readonly, git_protected_branch).',
    '4. the handoff: stopped_at, summary, in_progress, next_steps, test_results, blockers, prs, dirty_branches, and startup_text (what to tell the user next time).',
    '5. worklog_entry: a short narrative of the session.',
    'Scope: leave `scope` out for knowledge that holds for every repository; name repositories otherwise.',
    'Leave out what is already stored (below) unless it changed; axme also returns duplicates instead of storing them twice.',
    '',
    `Stored now: ${counted(counts.decisions, 'decision')}, ${counted(counts.memories, 'memory', 'memories')}, ${counted(counts.open_questions, 'open question')}, ${counted(counts.backlog_open, 'open backlog item')}.`,
    nd.length ? `Newest decisions: ${nd.map((d) => `${d.id} ${d.title}`).join('; ')}` : 'No decisions yet.',
    nm.length ? `Newest memories: ${nm.map((m) => `${m.slug}: ${m.title} (${m.type})`).join('; ')}` : 'No memories yet.',
    ...recordedLines(recorded),
    ...staleLines(touched),
  ].join('\n');
  return {
    text,
    counts,
    newest: { decisions: nd, memories: nm },
    session: kb.session ?? null,
    recorded,
    stale: touched.map((s) => ({ kind: s.kind, id: s.id, slug: s.slug, title: s.title, reason: s.reason })),
  };
}

/** The stale items whose anchors cover one of `files`: the session worked on the code they describe. */
function staleTouched(stale: StaleItem[], files: string[]): StaleItem[] {
  return stale.filter((s) => s.changes.some((c) => files.some((f) => anchorCovers(parseAnchor(c.anchor), f) || c.path === f || c.to === f)));
}

function staleLines(stale: StaleItem[]): string[] {
  if (!stale.length) return [];
  return [
    '',
    'Knowledge this session may have made outdated (its code changed since it was learned): update each one in this close (a decision: action "supersede" with `supersedes` = its ID), or, when it still holds, call axme_reconfirm with its ID.',
    ...stale.slice(0, 20).map((s) => `- ${s.kind} ${s.id ?? s.slug} ${s.title}: ${s.reason}`),
  ];
}

/** The session's own record, for the handoff: what it touched, so the agent need not remember. */
function recordedLines(r: BeginCloseResult['recorded']): string[] {
  if (!r || (!r.files.length && !r.commits.length)) return [];
  const files = r.files.length > 30 ? `${r.files.slice(0, 30).join(', ')} and ${r.files.length - 30} more` : r.files.join(', ');
  return [
    '',
    `This session (since ${r.started.slice(0, 16).replace('T', ' ')} UTC) changed ${r.files.length} file${r.files.length === 1 ? '' : 's'}${r.files.length ? `: ${files}` : ''}; ${r.commits.length} commit${r.commits.length === 1 ? '' : 's'}${r.commits.length ? ` (${r.commits.map((c) => c.slice(0, 12)).join(', ')})` : ''}. The summary records them; mention the unfinished ones in in_progress.`,
  ];
}

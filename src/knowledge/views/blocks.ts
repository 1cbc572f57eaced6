import type { BacklogItem } from '../../model/backlog.ts';
import type { Decision } from '../../model/decision.ts';
import { type FamilyName, familySpec } from '../../model/families.ts';
import type { Handoff } from '../../model/handoff.ts';
import { isLive } from '../../model/liveness.ts';
import type { Memory } from '../../model/memory.ts';
import type { OraclePage } from '../../model/oracle.ts';
import type { Question } from '../../model/question.ts';
import type { SafetyRules } from '../../model/safety-rules.ts';
import { agentRef } from './recall-lines.ts';

/** Compact text renderings of items for agents (what the MCP tools and `axme context` print). */

/** `from`: the store the item comes from when it is not the repository's own (a workspace store); `stale`: the line saying its code moved (stale-marks.ts). */
export function decisionBlock(d: Decision, from?: string | null, stale?: string): string {
  const head = `### ${agentRef(d, !!from)} [${d.enforce}] ${d.title}${d.scope?.length ? `  (scope: ${d.scope.join(', ')})` : ''}${fromNote(from)}`;
  const lines = [head, d.decision];
  if (d.reasoning) lines.push(`Why: ${d.reasoning}`);
  if (d.supersedes.length) lines.push(`Supersedes: ${d.supersedes.join(', ')}`);
  if (d.anchors.length) lines.push(`Applies to: ${d.anchors.join(', ')}`);
  if (stale) lines.push(stale);
  return lines.join('\n');
}

export function memoryBlock(m: Memory, from?: string | null, stale?: string): string {
  const lines = [`### ${m.title} (${m.type}, ${m.slug})${fromNote(from)}`, m.description];
  if (m.body) lines.push(m.body);
  if (m.keywords.length) lines.push(`Keywords: ${m.keywords.join(', ')}`);
  if (m.anchors.length) lines.push(`Applies to: ${m.anchors.join(', ')}`);
  if (stale) lines.push(stale);
  return lines.join('\n');
}

/** A backlog item in full, as its single-item read shows it: the list line's head, its description, notes, tags and anchors. */
export function backlogBlock(b: BacklogItem, from?: string | null, stale?: string): string {
  const head = `### ${agentRef(b, !!from)} [${b.status}, ${b.priority}] ${b.title}${b.scope?.length ? `  (scope: ${b.scope.join(', ')})` : ''}${fromNote(from)}`;
  const lines = [head];
  if (b.description) lines.push(b.description);
  if (b.notes) lines.push(`Notes:\n${b.notes}`);
  if (b.tags.length) lines.push(`Tags: ${b.tags.join(', ')}`);
  if (b.anchors.length) lines.push(`Applies to: ${b.anchors.join(', ')}`);
  if (stale) lines.push(stale);
  return lines.join('\n');
}

export function backlogLine(b: BacklogItem): string {
  return `- ${b.id} [${b.status}, ${b.priority}] ${b.title}`;
}

export function questionBlock(q: Question): string {
  return `- ${q.id} [${q.status}] ${q.question}${q.context ? `\n  Context: ${q.context}` : ''}${q.answer ? `\n  Answer: ${q.answer}` : ''}`;
}

/** An oracle page; `label` ("Workspace" or "Project") when a workspace's pages are shown with the repository's. */
export function oracleBlock(p: OraclePage, label?: string | null, stale?: string): string {
  return `## ${label ? `${label}: ` : ''}${p.title ?? p.slug}\n\n${stale ? `${stale}\n\n` : ''}${p.body}`;
}

function fromNote(from: string | null | undefined): string {
  return from ? '  [workspace]' : '';
}

export function handoffBlock(h: Handoff): string {
  const parts = [`Session ${h.slug} (${h.source}, ${h.created.slice(0, 16).replace('T', ' ')})`];
  if (h.stopped_at) parts.push(`Stopped at: ${h.stopped_at}`);
  if (h.summary) parts.push(`Summary: ${h.summary}`);
  if (h.in_progress) parts.push(`In progress: ${h.in_progress}`);
  if (h.next_steps) parts.push(`Next steps: ${h.next_steps}`);
  if (h.blockers) parts.push(`Blockers: ${h.blockers}`);
  if (h.test_results) parts.push(`Tests: ${h.test_results}`);
  if (h.prs.length) parts.push(`PRs: ${h.prs.map((p) => `[${p.status}] ${p.title}${p.url ? ` ${p.url}` : ''}`).join('; ')}`);
  if (h.dirty_branches.length) parts.push(`Dirty branches: ${h.dirty_branches.join(', ')}`);
  return parts.join('\n');
}

/** The rule families in a few words each, for the agent's context. */

export function safetyBlock(r: SafetyRules): string {
  const lines = [
    `- Protected branches: ${r.git.protectedBranches.join(', ') || '(none)'}; force push ${r.git.allowForcePush ? 'allowed' : 'denied'}; direct push to protected branches ${r.git.allowDirectPushToMain ? 'allowed' : 'denied'}${r.git.requirePrForMain ? '; changes reach them through pull requests' : ''}`,
    `- Commit/push commands end with: #!axme pr=<N|none> repo=<owner>/<name> (required for ${r.git.requireAxmeSuffix})`,
    `- Denied commands: ${[...r.bash.deniedPrefixes, ...r.bash.deniedCommands].join(', ') || '(none)'}`,
  ];
  if (r.bash.allowedPrefixes.length) lines.push(`- Allowed anyway: ${r.bash.allowedPrefixes.join(', ')}`);
  lines.push(
    `- Denied paths: ${r.filesystem.deniedPaths.join(', ') || '(none)'}${r.filesystem.readOnlyPaths.length ? `; read-only: ${r.filesystem.readOnlyPaths.join(', ')}` : ''}`,
  );
  const families = Object.entries(r.families).filter(([, action]) => action !== 'off');
  if (families.length)
    lines.push(
      `- Also ${families.map(([name, action]) => `${action === 'ask' ? 'asked' : 'denied'}: ${familySpec(name as FamilyName).words}`).join('; ')} (docs/safety.md)`,
    );
  return lines.join('\n');
}

/** Active decisions, required first (then by ID): what is current, never what was replaced. */
export function currentDecisions(all: Decision[]): Decision[] {
  return all.filter((d) => isLive('decision', d)).sort((a, b) => (a.enforce === b.enforce ? 0 : a.enforce === 'required' ? -1 : 1));
}

/** Active memories: feedback first (how to work here), then patterns. */
export function currentMemories(all: Memory[]): Memory[] {
  return all.filter((m) => isLive('memory', m)).sort((a, b) => (a.type === b.type ? 0 : a.type === 'feedback' ? -1 : 1));
}

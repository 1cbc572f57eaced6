import type { AuditAnswer, AuditMode } from '../../model/audit.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { detectWorkspace, findMember } from '../workspace/detect-workspace.ts';
import { routeByScope } from '../workspace/route-scope.ts';
import { applyAudit, type AuditApplied } from './apply-audit.ts';

export interface RoutedAudit {
  /** the session's own store: ONE commit with the handoff and everything not routed elsewhere */
  main: AuditApplied;
  /** other repositories of the workspace that decisions or memories named in `scope`: one commit each */
  others: Array<{ store: string; applied: AuditApplied }>;
}

/**
 * Where the audit's extractions go, as agent writes go (DESIGN.md §7, routeByScope): in a
 * workspace, a decision or memory whose `scope` names other repositories is written to each named
 * repository's store (one commit there, by `auditor`); the rest, and the session's handoff and
 * summary, to the session's own store in ONE commit. A name the workspace does not know keeps the
 * item here (its scope recorded), so an audit never fails halfway for a model's guess.
 */
export async function applyRouted(kb: KnowledgeBase, answer: AuditAnswer, opts: { mode: AuditMode; dryRun?: boolean }): Promise<RoutedAudit> {
  const link = kb.workspace;
  if (!link) return { main: await applyAudit(kb, answer, opts), others: [] };
  const members = detectWorkspace({ dir: link.root, force: true }).members;
  const elsewhere = new Map<string, Pick<AuditAnswer, 'decisions' | 'memories'>>();
  const here = (scope: string[] | undefined): boolean => {
    if (!scope?.length || scope.includes('all')) return true;
    const named = scope.map((n) => findMember(members, n));
    if (named.some((m) => !m)) return true;
    let mine = false;
    for (const m of named) {
      if (m!.name === link.member) mine = true;
      else if (!elsewhere.has(m!.name)) elsewhere.set(m!.name, { decisions: [], memories: [] });
    }
    return mine;
  };
  const keep: AuditAnswer = { ...answer, decisions: [], memories: [] };
  for (const d of answer.decisions) {
    if (here(d.scope)) keep.decisions.push(d);
    for (const n of names(d.scope, members, link.member)) elsewhere.get(n)!.decisions.push(d);
  }
  for (const m of answer.memories) {
    if (here(m.scope)) keep.memories.push(m);
    for (const n of names(m.scope, members, link.member)) elsewhere.get(n)!.memories.push(m);
  }
  const main = await applyAudit(kb, keep, opts);
  const others: RoutedAudit['others'] = [];
  for (const [name, part] of elsewhere) {
    if (!part.decisions.length && !part.memories.length) continue;
    const only: AuditAnswer = { ...emptyLike(answer), ...part };
    type One = { store: string; applied: AuditApplied; others?: One[] };
    const r = await routeByScope<One>(kb, [name], async (t) => ({ store: t.label ?? name, applied: await applyAudit(t, only, { mode: opts.mode, dryRun: opts.dryRun, record: false }) }));
    others.push({ store: r.store, applied: r.applied });
  }
  return { main, others };
}

/** The other members an item's scope names (known names only). */
function names(scope: string[] | undefined, members: ReturnType<typeof detectWorkspace>['members'], own: string | null): string[] {
  if (!scope?.length || scope.includes('all')) return [];
  const found = scope.map((n) => findMember(members, n));
  if (found.some((m) => !m)) return [];
  return [...new Set(found.map((m) => m!.name).filter((n) => n !== own))];
}

/** An answer with nothing in it but what `part` adds: no handoff, no questions, no rules. */
function emptyLike(a: AuditAnswer): AuditAnswer {
  return { ...a, decisions: [], memories: [], safety_rules: [], questions: [], stopped_at: '', summary: '', in_progress: '', next_steps: '', worklog_entry: '', startup_text: '', test_results: '', blockers: '', prs: [], dirty_branches: [] };
}

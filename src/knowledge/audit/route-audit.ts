import { AuditAnswer, type AuditMode } from '../../model/audit.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { detectWorkspace, findMember, type WorkspaceMember } from '../workspace/detect-workspace.ts';
import { routeByScope } from '../workspace/route-scope.ts';
import { type AuditApplied, applyAudit } from './apply-audit.ts';

/** The items routed to one store. */
type Routed = Pick<AuditAnswer, 'decisions' | 'memories'>;
/** One store's result, in the shape routeByScope returns. */
type OneStore = { store: string; applied: AuditApplied; others?: OneStore[] };

export interface RoutedAudit {
  /** the session's own store: ONE commit with the handoff and everything not routed elsewhere */
  main: AuditApplied;
  /** other repositories of the workspace that decisions or memories named in `scope`: one commit each */
  others: Array<{ store: string; applied: AuditApplied }>;
}

/**
 * Where the audit's extractions go, as agent writes go (docs/workspaces.md, routeByScope): in a
 * workspace, a decision or memory whose `scope` names other repositories is written to each named
 * repository's store (one commit there, by `auditor`); the rest, and the session's handoff and
 * summary, to the session's own store in ONE commit. A name the workspace does not know keeps the
 * item here (its scope recorded), so an audit never fails halfway for a model's guess.
 */
export async function applyRouted(kb: KnowledgeBase, answer: AuditAnswer, opts: { mode: AuditMode; dryRun?: boolean }): Promise<RoutedAudit> {
  const link = kb.workspace;
  if (!link) return { main: await applyAudit(kb, answer, opts), others: [] };
  const members = detectWorkspace({ dir: link.root, force: true }).members;
  const keep: AuditAnswer = { ...answer, decisions: [], memories: [] };
  const elsewhere = new Map<string, Routed>();
  const to = (name: string) => elsewhere.get(name) ?? elsewhere.set(name, { decisions: [], memories: [] }).get(name)!;
  /** An item into `keep` and/or the members its scope names, through `list` (the decisions or the memories of a part). */
  const place = <T extends { scope?: string[] | undefined }>(item: T, list: (part: Routed) => T[]) => {
    const named = scopeMembers(item.scope, members);
    if (!named || named.some((n) => n === link.member)) list(keep).push(item);
    for (const n of named ?? []) if (n !== link.member) list(to(n)).push(item);
  };
  for (const d of answer.decisions) place(d, (part) => part.decisions);
  for (const m of answer.memories) place(m, (part) => part.memories);
  const main = await applyAudit(kb, keep, opts);
  const others: RoutedAudit['others'] = [];
  for (const [name, part] of elsewhere) {
    // nothing but the routed items: the handoff, questions and rules stay with the session's store
    const only: AuditAnswer = { ...AuditAnswer.parse({}), ...part };
    const r = await routeByScope<OneStore>(kb, [name], async (t) => ({
      store: t.label ?? name,
      applied: await applyAudit(t, only, { mode: opts.mode, dryRun: opts.dryRun, record: false }),
    }));
    others.push({ store: r.store, applied: r.applied });
  }
  return { main, others };
}

/** The members an item's scope names, or null when it stays here only: no scope, "all", or a name the workspace does not know. */
function scopeMembers(scope: string[] | undefined, members: WorkspaceMember[]): string[] | null {
  if (!scope?.length || scope.includes('all')) return null;
  const found = scope.map((n) => findMember(members, n));
  return found.every((m) => m !== undefined) ? [...new Set(found.map((m) => m!.name))] : null;
}

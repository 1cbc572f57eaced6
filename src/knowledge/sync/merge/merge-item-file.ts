import { PRIORITIES } from '../../../model/backlog.ts';
import type { Decision } from '../../../model/decision.ts';
import { keepSource, sourceOf } from '../../../model/frontmatter-source.ts';
import { decodeItem, encodeItem, type ItemBase, type KindSpec } from '../../../model/kind.ts';
import { type FileMerge, keptAndOther, settledOf, tieBreak, valueAt } from './file-merge.ts';
import type { MergeConflict } from './merge-plan.ts';
import { type MergeRules, mergeValues, type SettleRule } from './values.ts';

/**
 * An item file changed on both sides, merged field by field (values.ts): text fields with diff3,
 * notes and revocation reasons appended, ordered fields by their order, other scalars to the
 * later edit. What does not combine — text edits that overlap, a link set to two successors, a
 * decision revoked on one side and superseded on the other, a side that does not parse — keeps
 * one version in place and is a conflict.
 */
export function mergeItemFile(
  path: string,
  spec: KindSpec<ItemBase>,
  slug: string,
  bt: string | undefined,
  xt: string,
  yt: string,
  oursCommit: string,
  theirsCommit: string,
): FileMerge {
  const dx = decodeItem(spec, slug, xt);
  const dy = decodeItem(spec, slug, yt);
  const db = bt === undefined ? null : decodeItem(spec, slug, bt);
  const whole = (why: string[]) => {
    const winner = dx.ok && dy.ok ? winnerOf(dx.item, dy.item, oursCommit, theirsCommit) : tieBreak(oursCommit, theirsCommit);
    const kept = winner === 'ours' ? dx : dy;
    return {
      text: winner === 'ours' ? xt : yt,
      conflict: {
        path,
        id: kept.ok ? ((kept.item as { id?: string }).id ?? null) : null,
        title: kept.ok ? titleOf(kept.item) : path,
        fields: why,
        ...keptAndOther(winner, oursCommit, theirsCommit),
      },
    };
  };
  if (!dx.ok || !dy.ok) return whole(['(the file does not parse on one side)']);
  const winner = winnerOf(dx.item, dy.item, oursCommit, theirsCommit);
  const rules: MergeRules = {
    textFields: new Set([spec.lead, ...spec.sections.map(([, f]) => f), ...(spec.prose ?? [])]),
    // two revocations with their reasons, two notes: both kept
    appendFields: new Set(['notes', 'revoked_reason']),
    winner,
    special: itemOrder,
    // superseded on both clones by different decisions: both successors stay, a person picks one
    conflictFields: ASKED_SCALARS,
  };
  const r = mergeValues(db?.ok ? db.item : undefined, dx.item, dy.item, rules);
  const revoked = spec.kind === 'decision' ? revokedAndSuperseded(dx.item as unknown as Decision, dy.item as unknown as Decision) : null;
  // the revocation stands (the status lattice); a revoked decision has no successor, so the
  // other side's link goes (it stays in history, and the successor still names what it replaced)
  if (revoked) delete (r.value as { superseded_by?: string }).superseded_by;
  const parsed = spec.schema.safeParse(r.value);
  if (!parsed.success) return whole(['(the combined fields are not a valid item)']);
  const text = encodeMerged(spec, parsed.data, winner === 'ours' ? dx.item : dy.item);
  const id = (parsed.data as { id?: string }).id ?? null;
  const settled = settledOf(path, id, titleOf(parsed.data), r.clashes, (f) => valueAt(parsed.data, f), oursCommit, theirsCommit);
  if (!r.conflicts.length && !revoked) return { text, settled };
  const conflict: MergeConflict = {
    path,
    id,
    title: titleOf(parsed.data),
    fields: r.conflicts,
    ...keptAndOther(winner, oursCommit, theirsCommit),
  };
  if (revoked) {
    const [revoker, superseder] = revoked.side === 'ours' ? [oursCommit, theirsCommit] : [theirsCommit, oursCommit];
    Object.assign(conflict, { fields: [...r.conflicts, 'status', 'superseded_by'], kept: revoker, other: superseder });
    const reason = revoked.reason ? ` (${JSON.stringify(revoked.reason.split('\n')[0]!.slice(0, 120))})` : '';
    conflict.note = `It was revoked on one clone${reason} and superseded by decisions/${revoked.successor}.md on the other: it stays revoked, and decisions/${revoked.successor}.md is active. If the revocation holds, revoke the successor too (axme decision revoke ${revoked.successor} --reason ...); if the successor stands, keep it and answer this question.`;
    for (const f of settled) if (f.field === 'status' || f.field === 'superseded_by') f.rule = 'asked';
    return { text, conflict, settled };
  }
  const successors = [dx.item, dy.item].map((i) => (i as { superseded_by?: string }).superseded_by);
  if (r.conflicts.includes('superseded_by') && successors[0] && successors[1]) {
    const [keptBy, otherBy] = winner === 'ours' ? successors : [successors[1], successors[0]];
    conflict.note = `It was superseded on both clones: by decisions/${keptBy}.md and by decisions/${otherBy}.md; both successors are active now. Keep one and revoke the other (axme decision revoke <id> --reason ...), or supersede both with one that settles it.`;
  }
  return { text, conflict, settled };
}

/** Which side wins a scalar both changed: the later `updated`, ties broken by the larger commit OID. */
function winnerOf(x: { updated?: unknown }, y: { updated?: unknown }, oursCommit: string, theirsCommit: string): 'ours' | 'theirs' {
  const xu = typeof x.updated === 'string' ? x.updated : '';
  const yu = typeof y.updated === 'string' ? y.updated : '';
  if (xu !== yu) return xu > yu ? 'ours' : 'theirs';
  return tieBreak(oursCommit, theirsCommit);
}

/**
 * Item fields with an order that makes one value the fair one (docs/sync.md, "What a merge
 * settled"): the later `updated`, the earlier `created` and `revoked_at`; a required decision
 * over an advisory one (the stricter); the more urgent priority (a backlog item raised by one
 * teammate is not buried by another's lowering).
 */
function itemOrder(key: string, x: unknown, y: unknown): { value: unknown; rule: SettleRule } | null {
  if (typeof x !== 'string' || typeof y !== 'string') return null;
  if (key === 'updated') return { value: x > y ? x : y, rule: 'later' };
  if (key === 'created' || key === 'revoked_at') return { value: x < y ? x : y, rule: 'earlier' };
  if (key === 'enforce' && (x === 'required' || y === 'required')) return { value: 'required', rule: 'stricter' };
  const urgency = PRIORITIES as readonly string[];
  if (key === 'priority' && urgency.includes(x) && urgency.includes(y)) return { value: urgency.indexOf(x) < urgency.indexOf(y) ? x : y, rule: 'more-urgent' };
  return null;
}

/**
 * Scalars with no such order: a clash keeps the later edit in place and asks a person — a link
 * set to two successors, a title, a memory's type (a person chose each, and neither is safer).
 */
const ASKED_SCALARS: ReadonlySet<string> = new Set(['superseded_by', 'title', 'type']);

/**
 * The merged item's file. Unknown fields keep the source text of the winning side (tags,
 * comments, anchors as a person wrote them) where their value is that side's, so both clones
 * write the same bytes; when that text cannot be kept (an alias to a field axme rewrites), the
 * fields are written from their values rather than failing the sync.
 */
function encodeMerged(spec: KindSpec<ItemBase>, merged: ItemBase, winner: ItemBase): string {
  const extra = (merged as { extra?: Record<string, unknown> }).extra;
  if (!extra) return encodeItem(spec, merged);
  const withSource = { ...merged, extra: { ...extra } };
  keepSource(withSource.extra, sourceOf((winner as { extra?: Record<string, unknown> }).extra));
  try {
    return encodeItem(spec, withSource);
  } catch {
    return encodeItem(spec, { ...merged, extra: { ...extra } });
  }
}

/**
 * A decision revoked on one side and superseded on the other (neither operation is possible
 * after the other on one clone, so only a merge meets both): which side revoked, the other
 * side's successor and the reason of the revocation. Null for any other pair.
 */
function revokedAndSuperseded(x: Decision, y: Decision): { side: 'ours' | 'theirs'; successor: string; reason: string } | null {
  for (const [side, r, s] of [
    ['ours', x, y],
    ['theirs', y, x],
  ] as const) {
    if (r.status === 'revoked' && !r.superseded_by && s.status === 'superseded' && s.superseded_by)
      return { side, successor: s.superseded_by, reason: r.revoked_reason ?? '' };
  }
  return null;
}

/** An item's title in a conflict: its title (a question's question), first line, at most 120 characters. */
function titleOf(item: ItemBase): string {
  const i = item as { title?: string; question?: string };
  return (i.title ?? i.question ?? item.slug).split('\n')[0]!.slice(0, 120);
}

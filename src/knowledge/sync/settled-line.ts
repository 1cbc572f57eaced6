import type { SettledField } from './merge/merge-plan.ts';
import type { SettleRule } from './merge/values.ts';

/** Why the kept value was kept, in words. */
const WHY: Record<SettleRule, string> = {
  'status-order': 'the further state',
  stricter: 'the stricter',
  'more-urgent': 'the more urgent',
  later: 'the later',
  earlier: 'the earlier',
  combined: 'both kept',
  'kept-change': 'a change over a removal',
  'later-edit': 'the later edit',
  asked: 'the later edit, until a person answers',
};

/** A value as a short phrase: a word as it is, anything longer quoted and cut. */
export function shortValue(v: unknown): string {
  if (v === undefined || v === null) return '(none)';
  if (Array.isArray(v)) return `[${v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(', ')}]`.slice(0, 80);
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  if (/^[\w.:@/+-]{1,40}$/.test(s)) return s;
  const one = s.split('\n')[0]!;
  return JSON.stringify(one.length > 40 ? `${one.slice(0, 40)}…` : one) + (s.includes('\n') ? ' (…)' : '');
}

/** A list's entries as a short phrase: at most 10, then how many more. */
function entries(list: unknown[]): string {
  const said = list.slice(0, 10).map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
  return `[${said.join(', ')}${list.length > 10 ? `, and ${list.length - 10} more` : ''}]`;
}

/** The entries of `a` that `b` lacks. */
function without(a: unknown[], b: unknown[]): unknown[] {
  const there = new Set(b.map((x) => JSON.stringify(x)));
  return a.filter((x) => !there.has(JSON.stringify(x)));
}

/**
 * A list field both sides changed, by how the lists differ (the same long list cut short would
 * read alike on both sides): what only each side had, and what the merge kept.
 */
function listLine(what: string, f: SettledField, a: { commit: string; value: unknown[] }, b: { commit: string; value: unknown[] }): string {
  const merged = f.value as unknown[];
  const kept = [a, b].find((s) => JSON.stringify(s.value) === JSON.stringify(merged));
  if (f.rule === 'combined' || !kept) {
    const only = [a, b].map((s, i) => `only in ${s.commit.slice(0, 8)}: ${entries(without(s.value, (i ? a : b).value))}`);
    const dropped = without([...a.value, ...b.value], merged);
    return `${what}: combined the two lists into ${merged.length} entries (${only.join('; ')}${dropped.length ? `; dropped: ${entries(dropped)}` : ''})`;
  }
  const other = kept === a ? b : a;
  const asked = f.rule === 'asked' ? `; asked in ${f.question ?? 'a question'}` : '';
  return `${what}: kept ${kept.commit.slice(0, 8)}'s list (${WHY[f.rule]}; ${merged.length} entries): only in it: ${entries(without(kept.value, other.value))}; only in ${other.commit.slice(0, 8)}'s, not kept: ${entries(without(other.value, kept.value))}${asked}`;
}

/**
 * One field a merge settled, as one line: `B-001 "Add request logging" priority: kept high (the
 * more urgent; 1a2b3c4d) over low (5e6f7a8b)`. Both values and both commits are in it; of two
 * lists, how they differ.
 */
export function settledLine(f: SettledField): string {
  const what = `${f.id ? `${f.id} "${f.title}"` : f.path} ${f.field}`;
  const [a, b] = f.sides;
  if (Array.isArray(a?.value) && Array.isArray(b?.value) && Array.isArray(f.value))
    return listLine(what, f, a as { commit: string; value: unknown[] }, b as { commit: string; value: unknown[] });
  const kept = f.sides.find((s) => JSON.stringify(s.value) === JSON.stringify(f.value));
  if (f.rule === 'combined' || !kept) {
    return `${what}: combined ${shortValue(a!.value)} (${a!.commit.slice(0, 8)}) and ${shortValue(b!.value)} (${b!.commit.slice(0, 8)}) into ${shortValue(f.value)}`;
  }
  const other = kept === a ? b! : a!;
  const asked = f.rule === 'asked' ? `; asked in ${f.question ?? 'a question'}` : '';
  return `${what}: kept ${shortValue(kept.value)} (${WHY[f.rule]}; ${kept.commit.slice(0, 8)}) over ${shortValue(other.value)} (${other.commit.slice(0, 8)})${asked}`;
}

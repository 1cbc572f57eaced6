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

/**
 * One field a merge settled, as one line: `B-001 "Add request logging" priority: kept high (the
 * more urgent; 1a2b3c4d) over low (5e6f7a8b)`. Both values and both commits are in it.
 */
export function settledLine(f: SettledField): string {
  const what = `${f.id ? `${f.id} "${f.title}"` : f.path} ${f.field}`;
  const [a, b] = f.sides;
  const kept = f.sides.find((s) => JSON.stringify(s.value) === JSON.stringify(f.value));
  if (f.rule === 'combined' || !kept) {
    return `${what}: combined ${shortValue(a!.value)} (${a!.commit.slice(0, 8)}) and ${shortValue(b!.value)} (${b!.commit.slice(0, 8)}) into ${shortValue(f.value)}`;
  }
  const other = kept === a ? b! : a!;
  const asked = f.rule === 'asked' ? `; asked in ${f.question ?? 'a question'}` : '';
  return `${what}: kept ${shortValue(kept.value)} (${WHY[f.rule]}; ${kept.commit.slice(0, 8)}) over ${shortValue(other.value)} (${other.commit.slice(0, 8)})${asked}`;
}

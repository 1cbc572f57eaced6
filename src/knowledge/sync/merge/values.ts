import { merge3 } from './text3.ts';

/**
 * Three-way merge of plain values (an item's fields, the safety rules, axme.yaml), field by field
 * against the merge base. Every rule is symmetric in the two sides, so two clones merging the same
 * pair of commits compute the same result:
 * - changed on one side only: that side;
 * - lists: the base's entries minus those either side removed, then everything either side added
 *   (additions sorted);
 * - objects: key by key;
 * - `status`: the higher state of the lattice (revoked > superseded > archived > done ...);
 * - text fields named by the caller: diff3 (`merge3`); a clash is a conflict;
 * - other scalars: the value of the winning side (the later `updated`, ties by commit OID),
 *   chosen by the caller; a clash of a field in `conflictFields` is also reported.
 * Every field both sides changed differently is returned as a clash, with both values and the rule
 * that settled it, so the merge can say what it decided (docs/sync.md, "What a merge settled").
 */

/** How a clash was settled: by an order of its own, by keeping both, or by keeping one and asking a person. */
export type SettleRule =
  | 'status-order' // the higher state of the lattice
  | 'stricter' // the safer safety value, or a required decision
  | 'more-urgent' // the higher priority
  | 'later' // updated: the later time; format: the higher
  | 'earlier' // created, revoked_at: the earlier time
  | 'combined' // lists, appended notes, text edits that do not overlap: both kept
  | 'kept-change' // removed on one side, changed on the other
  | 'later-edit' // the winning side's value (the later `updated`, ties by commit OID)
  | 'asked'; // the winner's value in place, and a question opened

/** One field both sides changed, differently. */
export interface Clash {
  /** dotted path of the field */
  field: string;
  ours: unknown;
  theirs: unknown;
  /** what the merge holds now */
  value: unknown;
  rule: SettleRule;
}

export interface MergeRules {
  /** fields merged as text with diff3 */
  textFields: ReadonlySet<string>;
  /** text fields where both sides only append (notes): both appendices are kept */
  appendFields: ReadonlySet<string>;
  /** which side wins a scalar both changed */
  winner: 'ours' | 'theirs';
  /** fields whose clash is settled by a rule of their own (max, min, strictest, ...) */
  special?: (key: string, ours: unknown, theirs: unknown) => { value: unknown; rule: SettleRule } | null;
  /** scalars whose clash is reported as a conflict although the winner's value is kept (a link both sides set differently, a title) */
  conflictFields?: ReadonlySet<string>;
}

export interface MergeOutcome {
  value: unknown;
  /** dotted paths of text fields that could not be combined (the winner's text was kept) */
  conflicts: string[];
  /** every field changed on both sides, differently, and how it was settled */
  clashes: Clash[];
}

/** Status order: on a clash, the higher state wins (a revocation is never undone by a merge). */
const STATUS_RANK: Record<string, number> = {
  revoked: 9,
  superseded: 8,
  deprecated: 8,
  archived: 7,
  abandoned: 6,
  done: 5,
  applied: 5,
  answered: 4,
  blocked: 3,
  'in-progress': 2,
  active: 1,
  open: 1,
  draft: 0,
};

const ABSENT = Symbol('absent');
type V = unknown | typeof ABSENT;

const key = (v: unknown) => JSON.stringify(v);
const equal = (a: V, b: V) => a === b || (a !== ABSENT && b !== ABSENT && key(a) === key(b));

export function mergeValues(base: unknown, ours: unknown, theirs: unknown, rules: MergeRules, hasBase = base !== undefined): MergeOutcome {
  const conflicts: string[] = [];
  const clashes: Clash[] = [];
  const value = merge(hasBase ? base : ABSENT, ours === undefined ? ABSENT : ours, theirs === undefined ? ABSENT : theirs, '', rules, conflicts, clashes);
  return { value: value === ABSENT ? undefined : value, conflicts, clashes };
}

function merge(b: V, x: V, y: V, path: string, rules: MergeRules, conflicts: string[], clashes: Clash[]): V {
  if (equal(x, y)) return x;
  if (equal(x, b)) return y;
  if (equal(y, b)) return x;
  // both changed, differently
  if (isObject(x) && isObject(y) && !rules.special?.(path.slice(path.lastIndexOf('.') + 1), x, y))
    return mergeObjects(b, x, y, path, rules, conflicts, clashes);
  const settle = (value: V, rule: SettleRule): V => {
    clashes.push({ field: path, ours: x === ABSENT ? undefined : x, theirs: y === ABSENT ? undefined : y, value: value === ABSENT ? undefined : value, rule });
    if (rule === 'asked') conflicts.push(path);
    return value;
  };
  return settle(...settleLeaf(b, x, y, path, rules));
}

/** Two objects both sides changed: key by key. */
function mergeObjects(
  b: V,
  x: Record<string, unknown>,
  y: Record<string, unknown>,
  path: string,
  rules: MergeRules,
  conflicts: string[],
  clashes: Clash[],
): Record<string, unknown> {
  const bo = isObject(b) ? b : {};
  const out: Record<string, unknown> = {};
  // key order must not depend on which side is ours: the base's keys, then the winner's, then the other's
  const [first, second] = rules.winner === 'ours' ? [x, y] : [y, x];
  const keys = [...new Set([...Object.keys(bo), ...Object.keys(first), ...Object.keys(second)])];
  for (const k of keys) {
    const v = merge(k in bo ? bo[k] : ABSENT, k in x ? x[k] : ABSENT, k in y ? y[k] : ABSENT, path ? `${path}.${k}` : k, rules, conflicts, clashes);
    if (v !== ABSENT) out[k] = v;
  }
  return out;
}

/** A value (not an object) both sides changed: its merged value and the rule that chose it. */
function settleLeaf(b: V, x: V, y: V, path: string, rules: MergeRules): [V, SettleRule] {
  const name = path.slice(path.lastIndexOf('.') + 1);
  if (x === ABSENT) return [y, 'kept-change']; // removed on one side, changed on the other: the change is kept
  if (y === ABSENT) return [x, 'kept-change'];
  const special = rules.special?.(name, x, y);
  if (special) return [special.value, special.rule];
  if (Array.isArray(x) && Array.isArray(y)) return [mergeLists(Array.isArray(b) ? b : [], x, y), 'combined'];
  const winner = rules.winner === 'ours' ? x : y;
  if (name === 'status' && typeof x === 'string' && typeof y === 'string' && x in STATUS_RANK && y in STATUS_RANK && STATUS_RANK[x] !== STATUS_RANK[y]) {
    return [STATUS_RANK[x]! > STATUS_RANK[y]! ? x : y, 'status-order'];
  }
  if (typeof x === 'string' && typeof y === 'string' && (rules.textFields.has(name) || rules.appendFields.has(name))) {
    const bt = typeof b === 'string' ? b : '';
    if (rules.appendFields.has(name) && x.startsWith(bt) && y.startsWith(bt)) {
      // two appendices to one base: both kept, in an order that does not depend on the side
      const parts = [x.slice(bt.length), y.slice(bt.length)].map((s) => s.replace(/^\n+/, '')).sort();
      return [[bt.replace(/\n+$/, ''), ...parts].filter((s) => s !== '').join('\n'), 'combined'];
    }
    const r = merge3(bt, x, y);
    return r.ok ? [r.text, 'combined'] : [winner, 'asked'];
  }
  return [winner, rules.conflictFields?.has(name) ? 'asked' : 'later-edit'];
}

/** base minus what either side removed, then what either side added (sorted, once). */
export function mergeLists(base: unknown[], ours: unknown[], theirs: unknown[]): unknown[] {
  const inOurs = new Set(ours.map(key));
  const inTheirs = new Set(theirs.map(key));
  const inBase = new Set(base.map(key));
  const kept = base.filter((v) => inOurs.has(key(v)) && inTheirs.has(key(v)));
  const added = new Map<string, unknown>();
  for (const v of [...ours, ...theirs]) if (!inBase.has(key(v))) added.set(key(v), v);
  const seen = new Set(kept.map(key));
  return [
    ...kept,
    ...[...added.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .filter(([k]) => !seen.has(k))
      .map(([, v]) => v),
  ];
}

function isObject(v: V): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

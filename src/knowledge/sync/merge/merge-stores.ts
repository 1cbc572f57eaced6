import { createHash } from 'node:crypto';
import { PRIORITIES } from '../../../model/backlog.ts';
import type { Decision } from '../../../model/decision.ts';
import { parseYaml, stringifyYaml } from '../../../model/frontmatter.ts';
import { keepSource, sourceOf } from '../../../model/frontmatter-source.ts';
import { nextId } from '../../../model/ids.ts';
import { decodeItem, encodeItem, type ItemBase, type KindSpec } from '../../../model/kind.ts';
import { ID_KINDS, type IdKind } from '../../../model/kinds.ts';
import { CONFIG_PATH, classifyPath, RULES_PATH, SPECS } from '../../../model/paths.ts';
import { Question } from '../../../model/question.ts';
import type { RulesData } from '../../../model/safety-defaults.ts';
import { mergeRules, STRICTNESS } from '../../../model/safety-merge.ts';
import { RULES_HEADER, SafetyRules } from '../../../model/safety-rules.ts';
import { SLUG_MAX, slugify, uniqueSlug } from '../../../model/slug.ts';
import type { Snapshot } from '../../../store/tree.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { renumberCollisions } from '../../core/renumber-ids.ts';
import { parseSnapshot } from '../../core/state.ts';
import { type Clash, type MergeRules, mergeValues, type SettleRule } from './values.ts';

/**
 * The three-way merge of two memory trees against their merge base (an empty tree when the two
 * histories share none). Per path: changed on one side -> that side; changed on both -> items
 * field by field (values.ts), the safety rules and axme.yaml value by value; a file removed on
 * one side and changed on the other is kept. Lifecycle clashes of a decision (superseded twice,
 * revoked on one side and superseded on the other) are conflicts too. Then display-ID collisions
 * are renumbered and every clash that could not be combined becomes an open question, named by
 * its conflict. Pure given the three trees: both clones compute the same files.
 */

export interface MergeConflict {
  path: string;
  id: string | null;
  title: string;
  fields: string[];
  /** the commit whose version was kept in place, and the other one (still in history: a parent of the merge) */
  kept: string;
  other: string;
  /** what the question says beyond "which version is right" (a decision superseded twice, or revoked and superseded) */
  note?: string;
  /** path of the question that asks about this conflict (set when the questions are opened) */
  question?: string;
}

/** A field both sides changed differently, and what the merge holds now: both values stay in view (the sync report, `axme history`). */
export interface SettledField {
  path: string;
  id: string | null;
  title: string;
  /** dotted path of the field (`priority`, `git.allowForcePush`) */
  field: string;
  rule: SettleRule;
  /** the merged value */
  value: unknown;
  /** each side's value with the tip of that side (the sync report names the commit that made each edit) */
  sides: Array<{ commit: string; value: unknown }>;
  /** with rule `asked`: the question about it */
  question?: string;
}

export interface MergePlan {
  /** file changes to apply to `ours` (null removes) */
  changes: Map<string, Buffer | null>;
  conflicts: MergeConflict[];
  /** every field both sides changed differently, by path then field */
  settled: SettledField[];
  renumbered: Array<{ path: string; from: string; to: string }>;
  /** paths of the questions opened for conflicts */
  questions: string[];
}

export interface MergeInput {
  kb: KnowledgeBase;
  base: Snapshot | null;
  ours: Snapshot & { commit: string };
  theirs: Snapshot & { commit: string };
  /** only these paths (what one merge settled, read back for `axme history`): no renumbering, no questions */
  only?: ReadonlySet<string>;
}

/** paths merged at once */
const READ_BATCH = 64;

export async function planMerge(input: MergeInput): Promise<MergePlan> {
  const { kb, base, ours, theirs } = input;
  const blob = (snap: Snapshot | null, path: string) => snap?.files.get(path)?.oid;
  const read = async (snap: Snapshot | null, path: string) => {
    const oid = blob(snap, path);
    return oid ? (await kb.repo.backend.readBlob(oid)).toString('utf8') : undefined;
  };
  const plan: MergePlan = { changes: new Map(), conflicts: [], settled: [], renumbered: [], questions: [] };
  const all = input.only ? [...input.only] : [...(base?.files.keys() ?? []), ...ours.files.keys(), ...theirs.files.keys()];
  const paths = [...new Set(all)].sort();
  // blobs are read many at a time (the cat-file process pipelines them); results land by path
  const merged = new Map<string, { text?: Buffer | null; conflict?: MergeConflict; settled?: SettledField[] }>();
  const work = paths.map((path) => async () => {
    const [b, x, y] = [blob(base, path), blob(ours, path), blob(theirs, path)];
    if (x === y || y === b) return; // ours already holds the answer
    if (x === b) return void merged.set(path, { text: y ? await kb.repo.backend.readBlob(y) : null });
    // changed on both sides, differently; a removal loses to a change
    if (!x || !y) return void (x ? undefined : merged.set(path, { text: await kb.repo.backend.readBlob(y!) }));
    const [bt, xt, yt] = await Promise.all([read(base, path), read(ours, path), read(theirs, path)]);
    const m = mergeFile(path, bt, xt!, yt!, ours.commit, theirs.commit);
    merged.set(path, { text: m.text !== xt ? Buffer.from(m.text, 'utf8') : undefined, conflict: m.conflict, settled: m.settled });
  });
  for (let i = 0; i < work.length; i += READ_BATCH) await Promise.all(work.slice(i, i + READ_BATCH).map((w) => w()));
  for (const path of paths) {
    const m = merged.get(path);
    if (!m) continue;
    if (m.conflict) plan.conflicts.push(m.conflict);
    if (m.settled) plan.settled.push(...m.settled);
    if (m.text !== undefined) plan.changes.set(path, m.text);
  }
  if (input.only) return plan;
  await renumber(kb, input, plan);
  await openQuestions(kb, input, plan);
  for (const f of plan.settled) if (f.rule === 'asked') f.question = plan.conflicts.find((c) => c.path === f.path)?.question;
  return plan;
}

/** Bookkeeping fields a merge settles every time (the later `updated`, the earlier `created`): not worth a line. */
const BOOKKEEPING = new Set(['updated', 'created']);

/** The clashes of one file as settled fields; `valueOf` reads a field's merged value. */
function settledOf(
  path: string,
  id: string | null,
  title: string,
  clashes: Clash[],
  valueOf: (field: string) => unknown,
  oursCommit: string,
  theirsCommit: string,
): SettledField[] {
  return clashes
    .filter((c) => !BOOKKEEPING.has(c.field))
    .map((c) => ({
      path,
      id,
      title,
      field: c.field,
      rule: c.rule,
      value: valueOf(c.field),
      sides: [
        { commit: oursCommit, value: c.ours },
        { commit: theirsCommit, value: c.theirs },
      ],
    }));
}

/** The value at a dotted path of a plain object. */
function valueAt(v: unknown, field: string): unknown {
  return field.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), v);
}

/** Which side wins a scalar both changed: the later `updated`, ties broken by the larger commit OID. */
function winnerOf(x: { updated?: unknown }, y: { updated?: unknown }, oursCommit: string, theirsCommit: string): 'ours' | 'theirs' {
  const xu = typeof x.updated === 'string' ? x.updated : '';
  const yu = typeof y.updated === 'string' ? y.updated : '';
  if (xu !== yu) return xu > yu ? 'ours' : 'theirs';
  return oursCommit > theirsCommit ? 'ours' : 'theirs';
}

type FileMerge = { text: string; conflict?: MergeConflict; settled?: SettledField[] };

function mergeFile(path: string, bt: string | undefined, xt: string, yt: string, oursCommit: string, theirsCommit: string): FileMerge {
  const c = classifyPath(path);
  if (c.type === 'item') return mergeItemFile(path, c.spec, c.slug, bt, xt, yt, oursCommit, theirsCommit);
  if (path === RULES_PATH || path === CONFIG_PATH) {
    const parsed = [bt, xt, yt].map((t) => {
      try {
        return t === undefined ? undefined : parseYaml(t);
      } catch {
        return null;
      }
    });
    if (parsed[1] && parsed[2] && typeof parsed[1] === 'object' && typeof parsed[2] === 'object') {
      const winner = oursCommit > theirsCommit ? 'ours' : 'theirs';
      const r = mergeValues(parsed[0] ?? undefined, parsed[1], parsed[2], {
        textFields: new Set(),
        appendFields: new Set(),
        winner,
        special: path === RULES_PATH ? strictest : maxFormat,
      });
      // two stores that never shared rules: neither side accepted the other's exceptions, so they
      // combine like a workspace's (allows need both); with a common base an edit is an edit
      if (path === RULES_PATH && bt === undefined) {
        const [first, second] = winner === 'ours' ? [parsed[1], parsed[2]] : [parsed[2], parsed[1]];
        const strict = rulesWithoutBase(first, second);
        if (strict) Object.assign(r.value as object, strict);
      }
      const body = stringifyYaml(r.value as object);
      const settled = settledOf(path, null, path, r.clashes, (f) => valueAt(r.value, f), oursCommit, theirsCommit);
      return { text: path === RULES_PATH ? RULES_HEADER + body : body, settled };
    }
  }
  // a file axme does not model, or one side unparsable: keep one whole version, ask about it
  const winner = oursCommit > theirsCommit ? 'ours' : 'theirs';
  return {
    text: winner === 'ours' ? xt : yt,
    conflict: {
      path,
      id: null,
      title: path,
      fields: ['(whole file)'],
      kept: winner === 'ours' ? oursCommit : theirsCommit,
      other: winner === 'ours' ? theirsCommit : oursCommit,
    },
  };
}

/** Both sides' rules combined by mergeRules (never less strict than either); null when one side is not valid rules. */
function rulesWithoutBase(a: unknown, b: unknown): RulesData | null {
  const x = SafetyRules.safeParse(a);
  const y = SafetyRules.safeParse(b);
  return x.success && y.success ? mergeRules(x.data, y.data) : null;
}

/** Rule clashes settle on the safer value: deny beats allow, requiring beats not requiring. */
function strictest(key: string, x: unknown, y: unknown): { value: unknown; rule: SettleRule } | null {
  if (typeof x === 'boolean' && typeof y === 'boolean') {
    if (key.startsWith('allow')) return { value: x && y, rule: 'stricter' };
    if (key.startsWith('require')) return { value: x || y, rule: 'stricter' };
  }
  const o = (STRICTNESS as Record<string, readonly string[]>)[key];
  if (o && typeof x === 'string' && typeof y === 'string' && o.includes(x) && o.includes(y))
    return { value: o.indexOf(x) > o.indexOf(y) ? x : y, rule: 'stricter' };
  return null;
}

function maxFormat(key: string, x: unknown, y: unknown): { value: unknown; rule: SettleRule } | null {
  return key === 'format' && typeof x === 'number' && typeof y === 'number' ? { value: Math.max(x, y), rule: 'later' } : null;
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

function mergeItemFile(
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
    const winner = dx.ok && dy.ok ? winnerOf(dx.item, dy.item, oursCommit, theirsCommit) : oursCommit > theirsCommit ? 'ours' : 'theirs';
    const kept = winner === 'ours' ? dx : dy;
    return {
      text: winner === 'ours' ? xt : yt,
      conflict: {
        path,
        id: kept.ok ? ((kept.item as { id?: string }).id ?? null) : null,
        title: kept.ok ? titleOf(kept.item) : path,
        fields: why,
        kept: winner === 'ours' ? oursCommit : theirsCommit,
        other: winner === 'ours' ? theirsCommit : oursCommit,
      },
    };
  };
  if (!dx.ok || !dy.ok) return whole(['(the file does not parse on one side)']);
  const winner = winnerOf(dx.item, dy.item, oursCommit, theirsCommit);
  const rules: MergeRules = {
    textFields: new Set([spec.lead, ...spec.sections.map(([, f]) => f)]),
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
    kept: winner === 'ours' ? oursCommit : theirsCommit,
    other: winner === 'ours' ? theirsCommit : oursCommit,
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

function titleOf(item: ItemBase): string {
  const i = item as { title?: string; question?: string };
  return (i.title ?? i.question ?? item.slug).split('\n')[0]!.slice(0, 120);
}

/** The merged tree's item at `path` of an ID kind: from the changes, else ours. */
async function mergedItems(
  kb: KnowledgeBase,
  input: MergeInput,
  plan: MergePlan,
  kind: IdKind,
): Promise<Array<{ path: string; item: ItemBase & { id: string; aliases?: string[] } }>> {
  const spec = SPECS[kind] as unknown as KindSpec<ItemBase>;
  const out: Array<{ path: string; item: ItemBase & { id: string; aliases?: string[] } }> = [];
  // ours through the parse cache: a store of 10,000 items is not decoded again for every merge
  const state = await parseSnapshot(kb, input.ours);
  for (const item of state.items[kind] as Array<ItemBase & { id: string; aliases?: string[] }>) {
    const path = `${spec.dir}/${item.slug}.md`;
    if (!plan.changes.has(path)) out.push({ path, item });
  }
  for (const [path, buf] of plan.changes) {
    if (!buf || !path.startsWith(`${spec.dir}/`) || !path.endsWith('.md')) continue;
    const d = decodeItem(spec, path.slice(spec.dir.length + 1, -3), buf.toString('utf8'));
    if (d.ok) out.push({ path, item: d.item as ItemBase & { id: string } });
  }
  return out;
}

/**
 * Two items created on two clones can get one display ID. The earlier (created, then path) keeps
 * it; each later one takes the next free number and keeps the old one in `aliases`.
 */
async function renumber(kb: KnowledgeBase, input: MergeInput, plan: MergePlan): Promise<void> {
  for (const kind of ID_KINDS) {
    const spec = SPECS[kind] as unknown as KindSpec<ItemBase>;
    // only a change can bring a collision: skip the decoding when no item of this kind changed
    if (![...plan.changes.keys()].some((p) => p.startsWith(`${spec.dir}/`))) continue;
    const items = await mergedItems(kb, input, plan, kind);
    for (const r of renumberCollisions(spec, items)) {
      plan.changes.set(r.path, Buffer.from(r.text, 'utf8'));
      plan.renumbered.push({ path: r.path, from: r.from, to: r.to });
    }
  }
}

/** One open question per conflict, so a person settles what the merge could not. */
async function openQuestions(kb: KnowledgeBase, input: MergeInput, plan: MergePlan): Promise<void> {
  if (!plan.conflicts.length) return;
  const spec = SPECS.question as unknown as KindSpec<Question>;
  const used = (await mergedItems(kb, input, plan, 'question')).flatMap((e) => [e.item.id, ...(e.item.aliases ?? [])]);
  // dated by the later of the two commits: both clones write the same bytes
  const [a, b] = await Promise.all([kb.repo.backend.readCommit(input.ours.commit), kb.repo.backend.readCommit(input.theirs.commit)]);
  const stamp = new Date(Math.max(a.committer.timestamp, b.committer.timestamp) * 1000).toISOString();
  const taken = new Set<string>();
  const pathOf = (slug: string) => `${spec.dir}/${slug}.md`;
  for (const c of [...plan.conflicts].sort((p, q) => (p.path < q.path ? -1 : 1))) {
    let slug = questionSlug(c);
    // another conflict of this merge got this name already (a hash collision): the next free one
    if (taken.has(pathOf(slug))) slug = uniqueSlug(slug, (s) => taken.has(pathOf(s)) || input.ours.files.has(pathOf(s)));
    const path = pathOf(slug);
    taken.add(path);
    c.question = path;
    // asked already (this pair was merged before): the question stands as it is
    if (input.ours.files.has(path) && !plan.changes.has(path)) continue;
    const id = nextId(spec.idPrefix!, used);
    used.push(id);
    const label = c.id ? `${c.id} "${c.title}"` : c.path;
    // a one-line value both sides set (a title, a type): both are named in the question
    const values = plan.settled
      .filter(
        (f) => f.path === c.path && f.rule === 'asked' && f.sides.every((s) => typeof s.value === 'string' && !s.value.includes('\n') && s.value.length <= 200),
      )
      .map((f) => `${f.field}: ${JSON.stringify(f.value)} (kept) or ${JSON.stringify(f.sides.find((s) => s.value !== f.value)?.value)}`);
    const q = Question.parse({
      slug,
      id,
      question: `Two clones changed ${label} in ways that do not combine (${c.fields.join(', ')}${values.length ? `; ${values.join('; ')}` : ''}). ${c.note ?? 'Which version is right?'}`,
      context: `Sync kept the version of commit ${c.kept} in place (${c.path}). The other version is in history: \`git show ${c.other}:${c.path}\`. Edit the item to the right text, then answer this question.`,
      status: 'open',
      source: 'sync',
      created: stamp,
      updated: stamp,
    });
    plan.changes.set(path, Buffer.from(encodeItem(spec, q), 'utf8'));
    plan.questions.push(path);
  }
}

/**
 * The slug of the question about a conflict: `merge-conflict-<path>-<commit>`, where <commit>
 * is the first 8 digits of the version not kept. A path too long for a slug is cut and told
 * apart from others with its beginning by a short hash of the whole path, so every conflict of
 * one merge gets its own question.
 */
function questionSlug(c: MergeConflict): string {
  const tail = `-${c.other.slice(0, 8)}`;
  const head = slugify(`merge conflict ${c.path.replace(/\.md$/, '')}`);
  if (head.length + tail.length <= SLUG_MAX) return head + tail;
  const hash = `-${createHash('sha1').update(c.path).digest('hex').slice(0, 6)}`;
  return head.slice(0, SLUG_MAX - tail.length - hash.length).replace(/-+$/, '') + hash + tail;
}

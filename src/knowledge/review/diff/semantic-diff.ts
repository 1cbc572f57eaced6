import { createPatch } from 'diff';
import { parseMarkdown } from '../../../model/frontmatter.ts';
import type { ItemBase, KindName } from '../../../model/kind.ts';
import { KIND_ORDER } from '../../../model/kinds.ts';
import { classifyPath, itemPath } from '../../../model/paths.ts';
import { RULE_TYPES, type RuleType, type SafetyRules } from '../../../model/safety-rules.ts';
import { changedFiles, emptySnapshot, type Snapshot, snapshotAt } from '../../../store/tree.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { type Diagnostic, type KnowledgeState, parseSnapshot, snapshotState } from '../../core/state.ts';

/**
 * The semantic diff of two memory revisions: what a reviewer of a knowledge change needs to
 * read — items added, superseded (and by what), revoked, archived, answered, changed field by
 * field with the Markdown body as a unified diff; safety rules added and removed; settings
 * changed; files that do not parse on the new side. Only the files that differ are decoded.
 */

export type ItemChangeType = 'added' | 'removed' | 'superseded' | 'revoked' | 'archived' | 'answered' | 'reopened' | 'changed';

export interface ItemRef {
  kind: KindName;
  slug: string;
  id?: string | undefined;
  title: string;
}

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

export interface ItemChange extends ItemRef {
  path: string;
  change: ItemChangeType;
  /** status before and after (items that have one) */
  status?: { before: string | null; after: string | null } | undefined;
  /** the decision or memory that replaced it (superseded) */
  successor?: ItemRef | undefined;
  /** frontmatter fields that changed (the `updated` timestamp left out) */
  fields: FieldChange[];
  /** unified diff of the Markdown body (the item's text), when it changed; for an added item, its body */
  body?: string | undefined;
  /** the revoked decision's reason, the question's answer: what a reviewer wants to read next to the change */
  detail?: string | undefined;
}

export interface RuleChange {
  type: RuleType;
  value: string;
}

export interface SettingChange {
  /** `git.allowForcePush`, `review.required`, ... */
  setting: string;
  before: unknown;
  after: unknown;
}

export interface SemanticDiff {
  from: string | null;
  to: string | null;
  items: ItemChange[];
  rules: { added: RuleChange[]; removed: RuleChange[]; settings: SettingChange[] };
  /** axme.yaml settings that changed */
  config: SettingChange[];
  /** files on the new side that do not parse (or were broken and still are, when changed) */
  broken: Diagnostic[];
  /** changed files axme does not model */
  other: string[];
  counts: Record<ItemChangeType, number> & { rulesAdded: number; rulesRemoved: number };
}

/**
 * The semantic diff from commit `from` to commit `to` (null: the empty store). Both sides are
 * parsed through the state cache; only the changed files are compared.
 */
export async function semanticDiff(kb: KnowledgeBase, from: string | null, to: string | null): Promise<SemanticDiff> {
  const [before, after] = await Promise.all([stateFor(kb, from), stateFor(kb, to)]);
  return diffStates(kb, before, after);
}

async function stateFor(kb: KnowledgeBase, commit: string | null): Promise<KnowledgeState> {
  return commit ? snapshotState(kb, await snapshotAt(kb.repo, commit)) : parseSnapshot(kb, emptySnapshot());
}

/** The semantic diff of two parsed states. */
async function diffStates(kb: KnowledgeBase, before: KnowledgeState, after: KnowledgeState): Promise<SemanticDiff> {
  const changed = changedFiles(before.snapshot, after.snapshot);
  const beforeItems = itemsByPath(before, changed);
  const afterItems = itemsByPath(after, changed);
  const items: ItemChange[] = [];
  const other: string[] = [];
  const brokenPaths = new Set(after.diagnostics.filter((d) => d.severity === 'error').map((d) => d.path));
  const paths = [...changed.keys()].sort();
  await Promise.all(
    paths.map(async (path) => {
      const c = classifyPath(path);
      if (c.type === 'rules' || c.type === 'config') return;
      if (c.type === 'other') return void other.push(path);
      if (brokenPaths.has(path)) return; // reported with the findings, not as an item change
      const old = beforeItems.get(path);
      const now = afterItems.get(path);
      if (!old && !now) return; // broken before and removed now, or not an item
      const [oldText, newText] = await Promise.all([textAt(kb, before.snapshot, path), textAt(kb, after.snapshot, path)]);
      items.push(itemChange(c.spec.kind, path, old, now, oldText, newText, after));
    }),
  );
  items.sort(
    (a, b) =>
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
      (a.id && b.id ? a.id.length - b.id.length || (a.id < b.id ? -1 : 1) : 0) ||
      (a.path < b.path ? -1 : 1),
  );
  const rules = diffRules(before.rules, after.rules);
  const config = diffValues('', before.config ?? {}, after.config ?? {});
  const broken = after.diagnostics.filter(
    (d) => d.severity === 'error' && (changed.has(d.path) || (d.path === 'axme.yaml' && !after.snapshot.files.has(d.path))),
  );
  const counts = {
    added: 0,
    removed: 0,
    superseded: 0,
    revoked: 0,
    archived: 0,
    answered: 0,
    reopened: 0,
    changed: 0,
    rulesAdded: rules.added.length,
    rulesRemoved: rules.removed.length,
  };
  for (const i of items) counts[i.change]++;
  return { from: before.commit, to: after.commit, items, rules, config, broken, other: other.sort(), counts };
}

/** True when nothing a reviewer would read changed. */
export function isEmptyDiff(d: SemanticDiff): boolean {
  return (
    !d.items.length && !d.rules.added.length && !d.rules.removed.length && !d.rules.settings.length && !d.config.length && !d.broken.length && !d.other.length
  );
}

function itemsByPath(state: KnowledgeState, changed: Map<string, string | null>): Map<string, ItemBase> {
  const wanted = new Map<KindName, Set<string>>();
  for (const path of changed.keys()) {
    const c = classifyPath(path);
    if (c.type === 'item') (wanted.get(c.spec.kind) ?? wanted.set(c.spec.kind, new Set()).get(c.spec.kind)!).add(c.slug);
  }
  const out = new Map<string, ItemBase>();
  for (const [kind, slugs] of wanted) {
    for (const item of state.items[kind] as ItemBase[]) {
      if (!slugs.has(item.slug)) continue;
      const path = pathIn(state.snapshot, kind, item);
      if (path && changed.has(path)) out.set(path, item);
    }
  }
  return out;
}

/** The path of an item in a snapshot, when it is there (sessions are filed by month). */
function pathIn(snap: Snapshot, kind: KindName, item: ItemBase): string | null {
  const p = itemPath(kind, item.slug, item.created);
  return snap.files.has(p) ? p : null;
}

async function textAt(kb: KnowledgeBase, snap: Snapshot, path: string): Promise<string | null> {
  const f = snap.files.get(path);
  if (!f) return null;
  return (await kb.repo.backend.readBlob(f.oid)).toString('utf8');
}

function refOf(kind: KindName, item: ItemBase): ItemRef {
  const x = item as ItemBase & { id?: string; title?: string; question?: string; session?: string };
  const title = x.title ?? (x.question ? firstLine(x.question) : undefined) ?? (kind === 'session' ? `session ${item.slug}` : item.slug);
  return x.id ? { kind, slug: item.slug, id: x.id, title } : { kind, slug: item.slug, title };
}

function firstLine(s: string): string {
  const line = s.trim().split('\n')[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

const statusOf = (item: ItemBase | undefined): string | null => (item as { status?: string } | undefined)?.status ?? null;

function itemChange(
  kind: KindName,
  path: string,
  old: ItemBase | undefined,
  now: ItemBase | undefined,
  oldText: string | null,
  newText: string | null,
  after: KnowledgeState,
): ItemChange {
  const ref = refOf(kind, (now ?? old)!);
  const oldDoc = oldText !== null ? safeParse(oldText) : null;
  const newDoc = newText !== null ? safeParse(newText) : null;
  const fields = diffValues('', oldDoc?.data ?? {}, newDoc?.data ?? {})
    .filter((f) => f.setting !== 'updated')
    .map((f) => ({ field: f.setting, before: f.before, after: f.after }));
  const s = { before: statusOf(old), after: statusOf(now) };
  const out: ItemChange = { ...ref, path, change: 'changed', fields: old && now ? fields : [] };
  if (s.before !== null || s.after !== null) out.status = s;
  if (!old) {
    out.change = 'added';
    out.body = newDoc?.body.trim() ?? '';
  } else if (!now) {
    out.change = 'removed';
  } else {
    out.change = s.before !== s.after ? statusChange(kind, s.after) : 'changed';
    const a = oldDoc?.body ?? '';
    const b = newDoc?.body ?? '';
    if (a !== b) out.body = bodyPatch(path, a, b);
  }
  const x = now as (ItemBase & { superseded_by?: string; revoked_reason?: string; answer?: string }) | undefined;
  if (out.change === 'superseded' && x?.superseded_by) {
    const next = (after.items[kind] as ItemBase[]).find((d) => d.slug === x.superseded_by);
    out.successor = next ? refOf(kind, next) : { kind, slug: x.superseded_by, title: x.superseded_by };
  }
  if (out.change === 'revoked' && x?.revoked_reason) out.detail = x.revoked_reason;
  if (out.change === 'answered' && x?.answer) out.detail = x.answer.trim();
  const description = (now as { description?: string } | undefined)?.description;
  if (out.change === 'added' && description) out.detail = description;
  return out;
}

function statusChange(kind: KindName, status: string | null): ItemChangeType {
  if (status === 'superseded' && (kind === 'decision' || kind === 'memory')) return 'superseded';
  if (status === 'revoked') return 'revoked';
  if (status === 'archived') return 'archived';
  if (status === 'answered' && kind === 'question') return 'answered';
  if (status === 'open' && kind === 'question') return 'reopened';
  return 'changed';
}

function safeParse(text: string): { data: Record<string, unknown>; body: string } | null {
  try {
    const d = parseMarkdown(text);
    return { data: d.data as Record<string, unknown>, body: d.body };
  } catch {
    return null;
  }
}

/** A unified diff of an item's body, without the `Index:`/`===` header createPatch starts with. */
function bodyPatch(path: string, before: string, after: string): string {
  const patch = createPatch(path, before.endsWith('\n') || !before ? before : `${before}\n`, after.endsWith('\n') || !after ? after : `${after}\n`, '', '', {
    context: 3,
  });
  return patch.split('\n').slice(4).join('\n').trimEnd();
}

/** Leaf values that differ between two plain objects, by dotted path (lists compared whole). */
function diffValues(prefix: string, a: unknown, b: unknown): SettingChange[] {
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObj(a) && isObj(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => diffValues(prefix ? `${prefix}.${k}` : k, a[k], b[k]));
  }
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  return [{ setting: prefix, before: a ?? null, after: b ?? null }];
}

/** Rules added to and removed from each list; scalar settings that changed. */
function diffRules(a: SafetyRules, b: SafetyRules): SemanticDiff['rules'] {
  const added: RuleChange[] = [];
  const removed: RuleChange[] = [];
  const lists = new Set<string>();
  for (const [type, [group, list]] of Object.entries(RULE_TYPES) as Array<[RuleType, readonly [string, string]]>) {
    lists.add(`${group}.${list}`);
    const before = new Set(listOf(a, group, list));
    const after = new Set(listOf(b, group, list));
    for (const v of after) if (!before.has(v)) added.push({ type, value: v });
    for (const v of before) if (!after.has(v)) removed.push({ type, value: v });
  }
  const settings = diffValues('', a, b).filter((s) => !lists.has(s.setting));
  return { added, removed, settings };
}

function listOf(rules: SafetyRules, group: string, list: string): string[] {
  const g = (rules as unknown as Record<string, Record<string, unknown> | undefined>)[group];
  const v = g?.[list];
  return Array.isArray(v) ? v.map(String) : [];
}

import { StoreConfig, sharedConfig } from '../../model/config.ts';
import { parseYaml } from '../../model/frontmatter.ts';
import { sourceOf } from '../../model/frontmatter-source.ts';
import { idLineOf } from '../../model/ids.ts';
import { decodeItem, describeIssues, type ItemBase, type KindName, type KindSpec } from '../../model/kind.ts';
import { configuredBudget } from '../../model/page-budget.ts';
import { CONFIG_PATH, classifyPath, type ItemOf, itemPath, RULES_PATH, SPECS } from '../../model/paths.ts';
import { SafetyRules } from '../../model/safety-rules.ts';
import { tipReadError } from '../../store/ref-damage.ts';
import { resolveAt } from '../../store/revision.ts';
import { changedFiles, rememberSnapshot, type Snapshot, type SnapshotRecord, snapshotAt, snapshotFromRecord, snapshotRecord } from '../../store/tree.ts';
import { type KnowledgeBase, notInitialized } from './kb.ts';
import { carryIndex } from './list-index.ts';
import { baseFolder, cachedFolder, type ParsedFile, storeFolder } from './parse-cache.ts';

export interface Diagnostic {
  path: string;
  severity: 'error' | 'warning';
  reason: string;
  /** the file could not be read at all (a missing object): a later read may succeed, so nothing is cached */
  transient?: boolean;
  /** the store the file is in, when it is not this repository's own (a workspace store) */
  store?: string;
  /** a machine-local setting the shared axme.yaml sets, ignored here (ignored-settings.ts) */
  setting?: string;
  /** the line of the file the finding is on, when it is one line's (a credential `axme check` found) */
  line?: number;
}

/** The items of a state, by kind: each kind's list of its decoded items. */
export type ItemsByKind = { [K in KindName]: Array<ItemOf<K>> };

/** The parsed knowledge of one memory commit. Broken files are diagnostics, never exceptions. */
export interface KnowledgeState {
  commit: string | null;
  snapshot: Snapshot;
  items: ItemsByKind;
  /** display IDs that files which failed to parse seem to hold, by kind: never handed out again */
  brokenIds: Partial<Record<KindName, string[]>>;
  /** item files that failed to parse, by kind, with the display ID they seem to hold: a lookup names them instead of saying "no such item" */
  brokenFiles: Partial<Record<KindName, Array<{ path: string; id?: string }>>>;
  /** effective safety rules (defaults where the file is missing or broken) */
  rules: SafetyRules;
  config: StoreConfig | null;
  diagnostics: Diagnostic[];
}

/** Reads the knowledge at the tip, or at `at` (revision or date). NOT_INITIALIZED when there is none. */
export async function readState(kb: KnowledgeBase, at?: string): Promise<KnowledgeState> {
  const commit = await resolveAt(kb.repo, kb.ref, at, kb.now());
  if (!commit) throw notInitialized(kb);
  // A commit's state never changes: a warm reader (the MCP server) re-reads nothing until the tip moves.
  const key = `state:${commit}`;
  const hit = kb.cache.recall<KnowledgeState>(key);
  if (hit) return hit;
  const snap = await snapshotOfCommit(kb, commit).catch(async (err) =>
    Promise.reject(at === undefined ? await tipReadError(kb.repo.git, kb.ref, commit, err) : err),
  );
  return snapshotState(kb, snap);
}

/** Stores of up to this many files keep their commits' snapshots in the disk cache (a record per commit read). */
const SNAPSHOT_RECORD_MAX_FILES = 5000;

/**
 * A commit's snapshot: remembered by the repository, else from the disk cache, else read from
 * the objects (and put in the disk cache). With the folder parses and the parsed rules and
 * config cached too, a warm read of a small store starts no git process at all.
 */
async function snapshotOfCommit(kb: KnowledgeBase, commit: string): Promise<Snapshot> {
  if (kb.repo.snapshots.has(commit)) return snapshotAt(kb.repo, commit);
  const key = `snapshot-${commit}`;
  const record = await kb.cache.disk.get<SnapshotRecord>(key);
  const cached = record ? snapshotFromRecord(commit, record) : null;
  if (cached) return rememberSnapshot(kb.repo, cached);
  const snap = await snapshotAt(kb.repo, commit);
  if (snap.files.size <= SNAPSHOT_RECORD_MAX_FILES) void kb.cache.disk.put(key, snapshotRecord(snap));
  return snap;
}

/** The state of a snapshot: remembered by its commit, or parsed (and remembered unless a read failed). */
export async function snapshotState(kb: KnowledgeBase, snap: Snapshot): Promise<KnowledgeState> {
  const key = `state:${snap.commit}`;
  const hit = snap.commit ? kb.cache.recall<KnowledgeState>(key) : undefined;
  if (hit) return hit;
  const derived = snap.commit ? await fromParent(kb, snap) : null;
  if (derived) return kb.cache.remember(key, derived);
  const state = await parseSnapshot(kb, snap);
  return !snap.commit || state.diagnostics.some((d) => d.transient) ? state : kb.cache.remember(key, state);
}

/** At most this many changed files are decoded one by one; more, and the folder parses are cheaper. */
const DERIVE_MAX_FILES = 256;

/**
 * The state of a commit whose parent's state is remembered (another writer — a hook, a CLI run,
 * a teammate's sync — committed on top of what this process knows): the changed files are read
 * and decoded, the rest is carried over by patchState. Null when that does not apply.
 */
async function fromParent(kb: KnowledgeBase, snap: Snapshot): Promise<KnowledgeState | null> {
  // the snapshot knows its parents when it was read or written here; otherwise ask once
  const parents = snap.parents ?? (await kb.repo.backend.readCommit(snap.commit!)).parents;
  const prev = parents[0] ? kb.cache.recall<KnowledgeState>(`state:${parents[0]}`) : undefined;
  if (!prev) return null;
  const diff = changedFiles(prev.snapshot, snap);
  if (diff.size > DERIVE_MAX_FILES) return null;
  const changes = new Map<string, Buffer | null>();
  try {
    await Promise.all([...diff].map(async ([path, oid]) => void changes.set(path, oid ? await kb.repo.backend.readBlob(oid) : null)));
  } catch {
    return null; // a missing object: the full parse reports it on its file
  }
  return patchState(kb, prev, snap, changes);
}

/**
 * The state of `next`, a commit this process just wrote as `prev` plus `changes`, derived
 * without reading or parsing the unchanged files: the changed item files are decoded from the
 * bytes written and put in their sorted place. Null when that is not exact — a changed file
 * that was or is broken, a file axme does not model, two items in one sort position — and the
 * caller reads `next` the usual way. Equal to parseSnapshot(next) (tested).
 */
export async function patchState(kb: KnowledgeBase, prev: KnowledgeState, next: Snapshot, changes: Map<string, Buffer | null>): Promise<KnowledgeState | null> {
  const items = { ...prev.items };
  let diagnostics = prev.diagnostics;
  const special: string[] = [];
  const moved = new Map<KindName, { removed: ItemBase[]; added: ItemBase[] }>();
  for (const [path, buf] of changes) {
    if (diagnostics.some((d) => d.path === path)) return null;
    if (path === RULES_PATH || path === CONFIG_PATH) {
      special.push(path);
      continue;
    }
    const c = classifyPath(path);
    if (c.type !== 'item') return null;
    const kind = c.spec.kind;
    const list = (items[kind] === prev.items[kind] ? (items[kind] = [...prev.items[kind]] as never) : items[kind]) as ItemBase[];
    // a session summary's folder is its month: one filed elsewhere by hand is read the usual way
    if (kind === 'session' && list.some((i) => i.slug === c.slug && itemPathOf(c.spec, i) !== path)) return null;
    const m = moved.get(kind) ?? moved.set(kind, { removed: [], added: [] }).get(kind)!;
    const at = list.findIndex((i) => i.slug === c.slug);
    if (at >= 0) m.removed.push(...list.splice(at, 1));
    if (!buf) continue;
    const text = textOf(buf);
    if (typeof text !== 'string') return null;
    const r = decodeItem(c.spec, c.slug, text);
    if (!r.ok) return null;
    const pos = sortedPosition(list, r.item);
    if (pos < 0) return null;
    list.splice(pos, 0, r.item);
    m.added.push(r.item);
  }
  for (const [kind, m] of moved) carryIndex(kb.cache, prev.items[kind] as ItemBase[], items[kind] as ItemBase[], m.removed, m.added, byIdThenSlug);
  let { rules, config } = prev;
  if (special.length) {
    diagnostics = diagnostics.filter((d) => !special.includes(d.path));
    rules = await memoByBlob(kb, next, RULES_PATH, diagnostics, parseRules);
    config = await memoByBlob(kb, next, CONFIG_PATH, diagnostics, parseConfig);
    diagnostics.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
  return { commit: next.commit, snapshot: next, items, brokenIds: prev.brokenIds, brokenFiles: prev.brokenFiles, rules, config, diagnostics };
}

/** Where an item of a parsed list lives (sessions are filed by month, other kinds by slug). */
function itemPathOf(spec: KindSpec<ItemBase>, item: ItemBase): string {
  return itemPath(spec.kind, item.slug, item.created);
}

/** Where `item` goes in a list sorted by byIdThenSlug; -1 when an item there sorts equal (the order would depend on folder order). */
function sortedPosition(list: ItemBase[], item: ItemBase): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const c = byIdThenSlug(list[mid]!, item);
    if (c === 0) return -1;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Parses a snapshot, reusing cached parses of folders (and of unchanged files in a changed folder). */
export async function parseSnapshot(kb: KnowledgeBase, snap: Snapshot): Promise<KnowledgeState> {
  const items = Object.fromEntries(Object.keys(SPECS).map((k) => [k, []])) as unknown as ItemsByKind;
  const diagnostics: Diagnostic[] = [];
  const brokenIds: Partial<Record<KindName, string[]>> = {};
  const brokenFiles: Partial<Record<KindName, Array<{ path: string; id?: string }>>> = {};
  // folder -> spec, for every folder that holds items
  const folders = new Map<string, KindSpec<ItemBase>>();
  for (const path of snap.files.keys()) {
    const c = classifyPath(path);
    if (c.type === 'item') folders.set(path.slice(0, path.lastIndexOf('/')), c.spec);
    else if (c.type === 'other') diagnostics.push({ path, severity: 'warning', reason: `unexpected file: ${c.reason}; axme ignores it` });
  }
  await Promise.all(
    [...folders].map(async ([dir, spec]) => {
      for (const p of await parseFolder(kb, snap, dir, spec)) {
        const path = `${dir}/${p.name}`;
        if (p.item) (items[spec.kind] as ItemBase[]).push(p.item);
        else if (p.error) {
          diagnostics.push(p.unreadable ? { path, severity: 'error', reason: p.error, transient: true } : { path, severity: 'error', reason: p.error });
          if (p.id) (brokenIds[spec.kind] ??= []).push(p.id);
          (brokenFiles[spec.kind] ??= []).push(p.id ? { path, id: p.id } : { path });
        }
      }
    }),
  );
  for (const list of Object.values(items) as ItemBase[][]) list.sort(byIdThenSlug);
  const rules = await memoByBlob(kb, snap, RULES_PATH, diagnostics, parseRules);
  const config = await memoByBlob(kb, snap, CONFIG_PATH, diagnostics, parseConfig);
  diagnostics.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const list of Object.values(brokenFiles)) list.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { commit: snap.commit, snapshot: snap, items, brokenIds, brokenFiles, rules, config, diagnostics };
}

/** The order of every parsed item list: by display ID (shorter first), then by slug. */
export function byIdThenSlug(a: ItemBase, b: ItemBase): number {
  const ia = (a as { id?: string }).id;
  const ib = (b as { id?: string }).id;
  if (ia && ib && ia !== ib) return ia.length - ib.length || (ia < ib ? -1 : 1);
  return a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0;
}

async function parseFolder(kb: KnowledgeBase, snap: Snapshot, dir: string, spec: KindSpec<ItemBase>): Promise<ParsedFile[]> {
  const tree = snap.dirs.get(dir)!;
  const hit = await cachedFolder(kb, dir, tree.oid);
  if (hit) return hit;
  // Miss: reuse the parses of files whose blob is unchanged since the folder's base parse.
  const base = await baseFolder(kb, dir);
  const prev = new Map((base?.files ?? []).map((p) => [p.name, p]));
  const entries = tree.entries.filter((e) => e.type === 'blob' && e.name.endsWith('.md'));
  const usable: ParsedFile[] = [];
  const fresh: Array<Promise<void>> = [];
  for (const e of entries) {
    const reused = prev.get(e.name);
    if (reused && reused.oid === e.oid) usable.push(reused);
    else fresh.push(parseFile(kb, dir, spec, e.name, e.oid).then((p) => void (p && usable.push(p))));
  }
  await Promise.all(fresh);
  if (!usable.some((p) => p.unreadable)) await storeFolder(kb, dir, tree.oid, usable, base);
  return usable;
}

/** Parses one item file; null for a file that is not an item (it is reported elsewhere). */
async function parseFile(kb: KnowledgeBase, dir: string, spec: KindSpec<ItemBase>, name: string, oid: string): Promise<ParsedFile | null> {
  const c = classifyPath(`${dir}/${name}`);
  if (c.type !== 'item') return null;
  let text: string | { error: string };
  try {
    text = await readText(kb, oid);
  } catch (err) {
    // a missing object: report it on the file, go on with the others, cache nothing (a fetch may bring it)
    return { name, oid, error: `cannot read the file's object ${oid}: ${(err as Error).message}`, unreadable: true };
  }
  if (typeof text !== 'string') return { name, oid, error: text.error };
  const r = decodeItem(spec, c.slug, text);
  if (r.ok) {
    const source = sourceOf(r.item.extra);
    return source ? { name, oid, item: r.item, source } : { name, oid, item: r.item };
  }
  const id = idLineOf(text);
  return id ? { name, oid, error: r.reason, id } : { name, oid, error: r.reason };
}

async function readText(kb: KnowledgeBase, oid: string): Promise<string | { error: string }> {
  return textOf(await kb.repo.backend.readBlob(oid));
}

/** A file's bytes as text, or why they are not Markdown text. */
export function textOf(buf: Buffer): string | { error: string } {
  if (buf.includes(0)) return { error: 'file holds binary data (NUL bytes), not Markdown text' };
  const text = buf.toString('utf8');
  if (text.includes('\uFFFD') && !Buffer.from(text, 'utf8').equals(buf)) return { error: 'file is not valid UTF-8 text' };
  return text;
}

/**
 * Runs `parse` once per blob: the result and its diagnostics are remembered by the file's OID,
 * in memory and in the disk cache (the rules and the config of a store change rarely; a warm
 * read then neither reads nor parses them). A parse that could not read its object throws and
 * is kept nowhere.
 */
async function memoByBlob<T>(
  kb: KnowledgeBase,
  snap: Snapshot,
  path: string,
  diagnostics: Diagnostic[],
  parse: (kb: KnowledgeBase, snap: Snapshot, d: Diagnostic[]) => Promise<T>,
): Promise<T> {
  const oid = snap.files.get(path)?.oid;
  const key = `file:${path}:${oid ?? (snap.commit ? 'missing' : 'empty')}`;
  const hit = kb.cache.recall<ParsedBlob<T>>(key);
  if (hit) {
    diagnostics.push(...hit.diagnostics);
    return hit.value;
  }
  const diskKey = oid ? `parsed-${path.replace(/[^a-z0-9]+/g, '-')}-${oid}` : null;
  const stored = diskKey ? await kb.cache.disk.get<ParsedBlob<T>>(diskKey) : undefined;
  if (stored && Array.isArray(stored.diagnostics) && 'value' in stored) {
    kb.cache.remember(key, stored);
    diagnostics.push(...stored.diagnostics);
    return stored.value;
  }
  const own: Diagnostic[] = [];
  const value = await parse(kb, snap, own);
  const parsed: ParsedBlob<T> = { value, diagnostics: own };
  kb.cache.remember(key, parsed);
  if (diskKey) void kb.cache.disk.put(diskKey, parsed);
  diagnostics.push(...own);
  return value;
}

interface ParsedBlob<T> {
  value: T;
  diagnostics: Diagnostic[];
}

async function parseRules(kb: KnowledgeBase, snap: Snapshot, diagnostics: Diagnostic[]): Promise<SafetyRules> {
  const f = snap.files.get(RULES_PATH);
  return rulesFrom(f ? await readText(kb, f.oid) : null, snap.commit !== null, diagnostics);
}

/**
 * The effective rules of a rules file's text (null: the file is missing): the defaults where it
 * is missing or broken, with the problem reported in `diagnostics`. Never fewer rules than the defaults.
 */
export function rulesFrom(text: string | { error: string } | null, hasCommit: boolean, diagnostics: Diagnostic[]): SafetyRules {
  const defaults = SafetyRules.parse({});
  if (text === null) {
    if (hasCommit)
      diagnostics.push({ path: RULES_PATH, severity: 'warning', reason: 'missing: the default safety rules apply (run `axme init` to write them)' });
    return defaults;
  }
  if (typeof text !== 'string') {
    diagnostics.push({ path: RULES_PATH, severity: 'error', reason: `${text.error}; the default safety rules apply` });
    return defaults;
  }
  try {
    const r = SafetyRules.safeParse(parseYaml(text) ?? {});
    if (r.success) return r.data;
    diagnostics.push({ path: RULES_PATH, severity: 'error', reason: `${describeIssues(r.error)}; the default safety rules apply` });
  } catch (err) {
    diagnostics.push({
      path: RULES_PATH,
      severity: 'error',
      reason: `not valid YAML (${(err as Error).message.split('\n')[0]}); the default safety rules apply`,
    });
  }
  return defaults;
}

async function parseConfig(kb: KnowledgeBase, snap: Snapshot, diagnostics: Diagnostic[]): Promise<StoreConfig | null> {
  const f = snap.files.get(CONFIG_PATH);
  if (!f) {
    if (snap.commit) diagnostics.push({ path: CONFIG_PATH, severity: 'error', reason: 'missing: run `axme init` to write it' });
    return null;
  }
  const text = await readText(kb, f.oid);
  if (typeof text !== 'string') {
    diagnostics.push({ path: CONFIG_PATH, severity: 'error', reason: text.error });
    return null;
  }
  try {
    const r = StoreConfig.safeParse(parseYaml(text));
    if (r.success) {
      // what arrives through git is data: where data goes and what runs is each machine's own choice
      const { config, ignored } = sharedConfig(r.data);
      for (const setting of ignored) {
        diagnostics.push({
          path: CONFIG_PATH,
          severity: 'warning',
          setting,
          reason: `${setting} is ignored here: it chooses where data or credentials go or what runs, so only a machine-local setting may set it (.git/axme/config.yaml or ~/.config/axme/config.yaml, docs/settings.md); remove it from axme.yaml`,
        });
      }
      // a page budget no page can keep to, or no number at all: said, and the least (or the default) applies
      const budget = configuredBudget(config).problem;
      if (budget) diagnostics.push({ path: CONFIG_PATH, severity: 'warning', reason: budget });
      return config;
    }
    diagnostics.push({ path: CONFIG_PATH, severity: 'error', reason: describeIssues(r.error) });
  } catch (err) {
    diagnostics.push({ path: CONFIG_PATH, severity: 'error', reason: `not valid YAML: ${(err as Error).message.split('\n')[0]}` });
  }
  return null;
}

/** Items of one kind, typed. */
export function itemsOf<K extends KindName>(state: KnowledgeState, kind: K): ItemsByKind[K] {
  return state.items[kind];
}

export { SPECS };

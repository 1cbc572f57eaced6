import { type FrontmatterSource, keepSource } from '../../model/frontmatter-source.ts';
import type { ItemBase } from '../../model/kind.ts';
import type { KnowledgeBase } from './kb.ts';

/** One file of a folder as parsed: the item, or why it could not be read. */
export interface ParsedFile {
  name: string;
  oid: string;
  item?: ItemBase;
  error?: string;
  /** the display ID a broken file seems to hold: kept out of reuse until the file is fixed */
  id?: string;
  /** the blob could not be read (missing object): never cached */
  unreadable?: boolean;
  /** the frontmatter source the item keeps (frontmatter-source.ts): stored beside it, since JSON drops it from the item */
  source?: FrontmatterSource;
}

/**
 * On disk a folder's parse is either full or a delta against a full "base" parse of an earlier
 * tree of the same folder, so that an add writes a few KB instead of the whole folder again.
 */
interface CacheFile {
  base?: string;
  entries: ParsedFile[];
  removed?: string[];
}

const key = (folder: string, oid: string) => `${folder.replace(/\//g, '-')}-${oid}`;
const lastKey = (folder: string) => `${folder.replace(/\//g, '-')}-base`;

/**
 * The parse of one folder tree, from memory or disk, or undefined when never cached. A delta
 * whose chain of bases comes back to a tree already on it is a miss: no writer makes one on
 * purpose (storeFolder), but a cache written by two processes at once, or by an older axme, may
 * hold one, and following it would never end.
 */
export async function cachedFolder(
  kb: KnowledgeBase,
  folder: string,
  treeOid: string,
  chain: ReadonlySet<string> = new Set(),
): Promise<ParsedFile[] | undefined> {
  const k = key(folder, treeOid);
  const hit = kb.cache.recall<ParsedFile[]>(k);
  if (hit) return kb.cache.remember(k, hit);
  const file = await kb.cache.disk.get<CacheFile>(k);
  if (!file) return undefined;
  for (const f of file.entries) if (f.item && f.source) keepSource(f.item.extra, f.source);
  if (!file.base) return kb.cache.remember(k, file.entries);
  const seen = new Set(chain).add(treeOid);
  if (seen.has(file.base)) return undefined;
  const base = await cachedFolder(kb, folder, file.base, seen);
  if (!base) return undefined;
  return kb.cache.remember(k, applyDelta(base, file));
}

/** The latest full parse of the folder (any tree): what a miss reuses unchanged files from. */
export async function baseFolder(kb: KnowledgeBase, folder: string): Promise<{ oid: string; files: ParsedFile[] } | undefined> {
  const oid = kb.cache.recall<string>(lastKey(folder)) ?? (await kb.cache.disk.get<string>(lastKey(folder)));
  if (!oid) return undefined;
  const files = await cachedFolder(kb, folder, oid);
  return files ? { oid, files } : undefined;
}

/** Stores a folder's parse: as a delta against `base` when the difference is small, else in full. */
export async function storeFolder(
  kb: KnowledgeBase,
  folder: string,
  treeOid: string,
  files: ParsedFile[],
  base: { oid: string; files: ParsedFile[] } | undefined,
): Promise<void> {
  kb.cache.remember(key(folder, treeOid), files);
  // a base of this very tree (another process stored it while this one parsed): a delta against it
  // would overwrite the full parse with a delta of itself, so the full parse is written again
  if (base && base.oid !== treeOid) {
    const old = new Map(base.files.map((f) => [f.name, f.oid]));
    const entries = files.filter((f) => old.get(f.name) !== f.oid);
    const names = new Set(files.map((f) => f.name));
    const removed = base.files.filter((f) => !names.has(f.name)).map((f) => f.name);
    if (entries.length + removed.length <= Math.max(64, base.files.length / 8)) {
      void kb.cache.disk.put(key(folder, treeOid), { base: base.oid, entries, removed } satisfies CacheFile);
      return;
    }
  }
  kb.cache.remember(lastKey(folder), treeOid);
  // Not awaited: a cache write never fails the caller, and Node finishes pending writes before
  // it exits. The base is written before the pointer to it (writes are ordered by the chain).
  void kb.cache.disk.put(key(folder, treeOid), { entries: files } satisfies CacheFile).then(() => kb.cache.disk.put(lastKey(folder), treeOid));
}

function applyDelta(base: ParsedFile[], delta: CacheFile): ParsedFile[] {
  const byName = new Map(base.map((f) => [f.name, f]));
  for (const n of delta.removed ?? []) byName.delete(n);
  for (const f of delta.entries) byName.set(f.name, f);
  return [...byName.values()];
}

import { AxmeError } from '../model/errors.ts';
import { byteOrder, type GitBackend, type TreeEntry, treeEntryKey } from './backend.ts';

export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** Every tree of one memory commit, read once: the raw entries per folder and the blobs by path. */
export interface Snapshot {
  /** the commit read, or null for the empty store before the first commit */
  commit: string | null;
  /** the commit's parents, when the snapshot was read from or written as a commit */
  parents?: string[];
  tree: string;
  /** folder path ('' for the root) -> its tree */
  dirs: Map<string, { oid: string; entries: TreeEntry[] }>;
  /** file path -> blob OID and mode */
  files: Map<string, { oid: string; mode: string }>;
}

export function emptySnapshot(): Snapshot {
  return { commit: null, tree: EMPTY_TREE, dirs: new Map([['', { oid: EMPTY_TREE, entries: [] }]]), files: new Map() };
}

/**
 * Reads every tree reachable from a commit's root tree (subtrees in parallel). With `like` (a
 * snapshot of a nearby commit, e.g. the parent), a folder whose tree OID it already holds is
 * taken from it instead of being read again: after one commit, only the changed folders are read.
 */
export async function readSnapshot(backend: GitBackend, commit: string, like?: Snapshot): Promise<Snapshot> {
  const c = await backend.readCommit(commit);
  const snap: Snapshot = { commit, parents: c.parents, tree: c.tree, dirs: new Map(), files: new Map() };
  const known = new Map<string, string>();
  for (const [dir, d] of like?.dirs ?? []) known.set(d.oid, dir);
  const walk = async (oid: string, dir: string): Promise<void> => {
    const same = known.get(oid);
    const entries = same !== undefined ? like!.dirs.get(same)!.entries : await backend.readTree(oid);
    snap.dirs.set(dir, { oid, entries });
    const subs: Promise<void>[] = [];
    for (const e of entries) {
      const path = dir ? `${dir}/${e.name}` : e.name;
      if (e.type === 'tree') subs.push(walk(e.oid, path));
      else if (e.type === 'blob') snap.files.set(path, { oid: e.oid, mode: e.mode });
    }
    await Promise.all(subs);
  };
  await walk(c.tree, '');
  return snap;
}

/**
 * One file of a commit's tree, read without the rest of the tree: the trees on its path, then
 * the blob. Null when the path is not a file there. For a reader that needs one file of a large
 * store (the safety hook's rules).
 */
export async function blobAt(backend: GitBackend, commit: string, path: string): Promise<Buffer | null> {
  let tree = (await backend.readCommit(commit)).tree;
  const parts = path.split('/');
  for (const [i, name] of parts.entries()) {
    const last = i === parts.length - 1;
    const entry = (await backend.readTree(tree)).find((e) => e.name === name);
    if (!entry || entry.type !== (last ? 'blob' : 'tree')) return null;
    if (last) return backend.readBlob(entry.oid);
    tree = entry.oid;
  }
  return null;
}

/**
 * The files that differ between two snapshots: path -> the new blob OID, or null where removed.
 * Folders with the same tree OID are skipped unread, so a commit that changed one file costs a
 * walk of that file's folder, not of the store.
 */
export function changedFiles(prev: Snapshot, next: Snapshot): Map<string, string | null> {
  const out = new Map<string, string | null>();
  const blobs = (d: { entries: TreeEntry[] } | undefined) => new Map((d?.entries ?? []).filter((e) => e.type === 'blob').map((e) => [e.name, e.oid]));
  const path = (dir: string, name: string) => (dir ? `${dir}/${name}` : name);
  for (const [dir, d] of next.dirs) {
    const before = prev.dirs.get(dir);
    if (before?.oid === d.oid) continue;
    const old = blobs(before);
    for (const e of d.entries) {
      if (e.type !== 'blob') continue;
      if (old.get(e.name) !== e.oid) out.set(path(dir, e.name), e.oid);
      old.delete(e.name);
    }
    for (const name of old.keys()) out.set(path(dir, name), null);
  }
  for (const [dir, d] of prev.dirs) {
    if (next.dirs.has(dir)) continue;
    for (const e of d.entries) if (e.type === 'blob') out.set(path(dir, e.name), null);
  }
  return out;
}

/** What remembers snapshots: an open repository (a commit's trees never change, so they never go stale). */
export interface SnapshotMemory {
  backend: GitBackend;
  snapshots: Map<string, Snapshot>;
}

/** How many snapshots a repository keeps: the tip a writer works on and the few before it. */
const SNAPSHOTS_KEPT = 4;

/**
 * The snapshot of `commit`: one this process wrote or read lately, else read from the objects —
 * reusing the folders of the newest remembered snapshot (another writer's commit on top of ours
 * changes a folder or two).
 */
export async function snapshotAt(repo: SnapshotMemory, commit: string): Promise<Snapshot> {
  const hit = repo.snapshots.get(commit);
  if (hit) return hit;
  const newest = [...repo.snapshots.values()].at(-1);
  return rememberSnapshot(repo, await readSnapshot(repo.backend, commit, newest));
}

/** Keeps a commit's snapshot (the newest few) so the next read of that commit reads no tree. */
export function rememberSnapshot(repo: SnapshotMemory, snap: Snapshot): Snapshot {
  if (!snap.commit) return snap;
  repo.snapshots.delete(snap.commit);
  repo.snapshots.set(snap.commit, snap);
  for (const old of repo.snapshots.keys()) {
    if (repo.snapshots.size <= SNAPSHOTS_KEPT) break;
    repo.snapshots.delete(old);
  }
  return snap;
}

/** Where the entry called `name` (a file or a folder) is in git-ordered entries, or -1. */
function findEntry(entries: TreeEntry[], name: string): number {
  for (const key of [name, `${name}/`]) {
    const at = insertionPoint(entries, key);
    if (at < entries.length && treeEntryKey(entries[at]!) === key) return at;
  }
  return -1;
}

/** The first position whose key is not before `key` in git's order. */
function insertionPoint(entries: TreeEntry[], key: string): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (byteOrder(treeEntryKey(entries[mid]!), key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const parentOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const baseOf = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/**
 * Writes the blobs of `changes` (path -> new content, or null to remove) and every tree on
 * their way to the root; untouched folders keep their tree OIDs. Returns the new root tree.
 * Files axme does not know (and their modes) are carried over unchanged.
 */
export async function writeChanges(backend: GitBackend, snap: Snapshot, changes: Map<string, Buffer | null>): Promise<string> {
  return (await applyChanges(backend, snap, changes)).tree;
}

/**
 * writeChanges, returning the snapshot of the new tree (commit: null until one is written for
 * it): what a reader would get from readSnapshot, without reading back the trees just written.
 */
export async function applyChanges(backend: GitBackend, snap: Snapshot, changes: Map<string, Buffer | null>): Promise<Snapshot> {
  // folder -> name -> new entry (null = remove); child folders are filled in bottom-up
  const mods = new Map<string, Map<string, TreeEntry | null | 'subtree'>>();
  const mod = (dir: string) => mods.get(dir) ?? mods.set(dir, new Map()).get(dir)!;
  const writes = [...changes].filter((c): c is [string, Buffer] => c[1] !== null);
  const oids = await backend.writeBlobs(writes.map(([, content]) => content));
  writes.forEach(([path], i) => mod(parentOf(path)).set(baseOf(path), { mode: '100644', name: baseOf(path), oid: oids[i]!, type: 'blob' }));
  for (const [path, content] of changes) if (content === null) mod(parentOf(path)).set(baseOf(path), null);
  for (const dir of [...mods.keys()]) {
    for (let d = dir; d !== ''; d = parentOf(d)) {
      const m = mod(parentOf(d));
      if (!m.has(baseOf(d))) m.set(baseOf(d), 'subtree');
    }
  }
  const depth = (d: string) => (d === '' ? 0 : d.split('/').length);
  const written = new Map<string, string | null>(); // folder -> new tree OID (null: now empty)
  const dirs = new Map(snap.dirs);
  for (const dir of [...mods.keys()].sort((a, b) => depth(b) - depth(a))) {
    // the folder's entries stay in git's order: each change is a binary search, not a rebuild
    const entries = [...(snap.dirs.get(dir)?.entries ?? [])];
    for (const [name, m] of mods.get(dir)!) {
      const path = dir ? `${dir}/${name}` : name;
      const at = findEntry(entries, name);
      const existing = at >= 0 ? entries[at] : undefined;
      let next: TreeEntry | null;
      if (m === 'subtree') {
        if (existing && existing.type !== 'tree') {
          throw new AxmeError('CORRUPT', `${path} is a file in the memory tree but axme needs a folder there; move it away with git and retry`, { path });
        }
        const oid = written.get(path);
        next = oid ? { mode: '040000', name, oid, type: 'tree' } : null;
      } else {
        if (m && existing && existing.type === 'tree') {
          throw new AxmeError('CORRUPT', `${path} is a folder in the memory tree but axme needs a file there; move it away with git and retry`, { path });
        }
        next = m;
      }
      if (at >= 0) entries.splice(at, 1);
      if (next) entries.splice(insertionPoint(entries, treeEntryKey(next)), 0, next);
    }
    if (entries.length || dir === '') {
      const oid = await backend.writeTree(entries);
      written.set(dir, oid);
      dirs.set(dir, { oid, entries });
    } else {
      written.set(dir, null);
      dirs.delete(dir);
    }
  }
  const files = new Map(snap.files);
  writes.forEach(([path], i) => files.set(path, { oid: oids[i]!, mode: '100644' }));
  for (const [path, content] of changes) if (content === null) files.delete(path);
  const tree = written.get('') ?? snap.tree;
  return { commit: null, tree, dirs, files };
}

/**
 * A commit's snapshot as the disk cache keeps it: its parents, root tree and folders (the file
 * map follows from the folders). A warm read of a commit then reads no object at all.
 */
export interface SnapshotRecord {
  parents: string[];
  tree: string;
  /** [folder path, tree OID, entries as [mode, name, oid, type]] */
  dirs: Array<[string, string, Array<[string, string, string, string]>]>;
}

export function snapshotRecord(s: Snapshot): SnapshotRecord {
  return { parents: s.parents ?? [], tree: s.tree, dirs: [...s.dirs].map(([dir, d]) => [dir, d.oid, d.entries.map((e) => [e.mode, e.name, e.oid, e.type])]) };
}

/** The snapshot a record describes, or null when the record is not one (a damaged cache entry is a miss). */
export function snapshotFromRecord(commit: string, r: SnapshotRecord): Snapshot | null {
  if (!r || !Array.isArray(r.parents) || typeof r.tree !== 'string' || !Array.isArray(r.dirs)) return null;
  const snap: Snapshot = { commit, parents: r.parents, tree: r.tree, dirs: new Map(), files: new Map() };
  for (const d of r.dirs) {
    if (!Array.isArray(d) || typeof d[0] !== 'string' || typeof d[1] !== 'string' || !Array.isArray(d[2])) return null;
    const entries: TreeEntry[] = [];
    for (const e of d[2]) {
      if (!Array.isArray(e) || e.length !== 4 || !e.every((x) => typeof x === 'string')) return null;
      const [mode, name, oid, type] = e;
      entries.push({ mode, name, oid, type: type as TreeEntry['type'] });
      if (type === 'blob') snap.files.set(d[0] ? `${d[0]}/${name}` : name, { oid, mode });
    }
    snap.dirs.set(d[0], { oid: d[1], entries });
  }
  return snap.dirs.get('')?.oid === r.tree ? snap : null;
}

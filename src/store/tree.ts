import { AxmeError } from '../model/errors.ts';
import type { GitBackend, TreeEntry } from './backend.ts';

export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** Every tree of one memory commit, read once: the raw entries per folder and the blobs by path. */
export interface Snapshot {
  /** the commit read, or null for the empty store before the first commit */
  commit: string | null;
  tree: string;
  /** folder path ('' for the root) -> its tree */
  dirs: Map<string, { oid: string; entries: TreeEntry[] }>;
  /** file path -> blob OID and mode */
  files: Map<string, { oid: string; mode: string }>;
}

export function emptySnapshot(): Snapshot {
  return { commit: null, tree: EMPTY_TREE, dirs: new Map([['', { oid: EMPTY_TREE, entries: [] }]]), files: new Map() };
}

/** Reads every tree reachable from a commit's root tree (subtrees in parallel). */
export async function readSnapshot(backend: GitBackend, commit: string): Promise<Snapshot> {
  const c = await backend.readCommit(commit);
  const snap: Snapshot = { commit, tree: c.tree, dirs: new Map(), files: new Map() };
  const walk = async (oid: string, dir: string): Promise<void> => {
    const entries = await backend.readTree(oid);
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

const parentOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const baseOf = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/**
 * Writes the blobs of `changes` (path -> new content, or null to remove) and every tree on
 * their way to the root; untouched folders keep their tree OIDs. Returns the new root tree.
 * Files axme does not know (and their modes) are carried over unchanged.
 */
export async function writeChanges(backend: GitBackend, snap: Snapshot, changes: Map<string, Buffer | null>): Promise<string> {
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
  for (const dir of [...mods.keys()].sort((a, b) => depth(b) - depth(a))) {
    const entries = new Map((snap.dirs.get(dir)?.entries ?? []).map((e) => [e.name, e]));
    for (const [name, m] of mods.get(dir)!) {
      const path = dir ? `${dir}/${name}` : name;
      const existing = entries.get(name);
      if (m === 'subtree') {
        if (existing && existing.type !== 'tree') {
          throw new AxmeError('CORRUPT', `${path} is a file in the memory tree but axme needs a folder there; move it away with git and retry`, { path });
        }
        const oid = written.get(path);
        if (oid) entries.set(name, { mode: '040000', name, oid, type: 'tree' });
        else entries.delete(name);
      } else if (m === null) entries.delete(name);
      else {
        if (existing && existing.type === 'tree') {
          throw new AxmeError('CORRUPT', `${path} is a folder in the memory tree but axme needs a file there; move it away with git and retry`, { path });
        }
        entries.set(name, m);
      }
    }
    written.set(dir, entries.size || dir === '' ? await backend.writeTree([...entries.values()]) : null);
  }
  return written.get('') ?? snap.tree;
}

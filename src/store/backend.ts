/**
 * The object layer under the store. Two implementations (isomorphic-git in-process, git CLI)
 * pass one contract suite (test/store/backend-contract.test.ts). Ref updates are not here: they always
 * go through `git update-ref` (refs.ts), which has compare-and-swap.
 */
import { AxmeError } from '../model/errors.ts';

export type ObjectType = 'blob' | 'tree' | 'commit';

export interface TreeEntry {
  /** git mode as written in trees: 100644, 100755, 120000, 040000, 160000 */
  mode: string;
  /** one path component */
  name: string;
  oid: string;
  type: ObjectType;
}

export interface Signature {
  name: string;
  email: string;
  /** seconds since the epoch */
  timestamp: number;
  /** git's spelling, e.g. "+0000", "-0530" */
  tz: string;
}

export interface CommitObject {
  tree: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  /** normalized: no CR, no leading blank lines, exactly one trailing newline */
  message: string;
}

export interface GitBackend {
  readonly name: BackendName;
  /** OID the ref points to (loose or packed; a tag ref gives the tag object), or null when it does not exist. */
  resolveRef(ref: string): Promise<string | null>;
  /** Content of a blob. Throws CORRUPT when it is missing or not a blob. */
  readBlob(oid: string): Promise<Buffer>;
  /** Entries of a tree, in git's order. Throws CORRUPT when missing or not a tree. */
  readTree(oid: string): Promise<TreeEntry[]>;
  /** A parsed commit. Throws CORRUPT when missing or not a commit. */
  readCommit(oid: string): Promise<CommitObject>;
  /** Stores a blob and returns its OID. The object is complete on disk when this resolves. */
  writeBlob(data: Buffer): Promise<string>;
  /** Stores many blobs at once (a merge writes thousands); OIDs in the order given. */
  writeBlobs(datas: Buffer[]): Promise<string[]>;
  /** Stores a tree (entries in any order; written in git order) and returns its OID. */
  writeTree(entries: TreeEntry[]): Promise<string>;
  /** Stores a commit and returns its OID; the same commit gives the same OID on every backend. */
  writeCommit(commit: CommitObject): Promise<string>;
  /** Releases processes and handles. The backend must not be used afterwards. */
  close(): Promise<void>;
}

/** isogit: isomorphic-git in-process; cli: the git CLI; hybrid: reads by the CLI, writes in-process (backend-hybrid.ts) */
export type BackendName = 'isogit' | 'cli' | 'hybrid';

/**
 * Sorts tree entries the way git does: by the bytes of the name, a tree's name compared as
 * `name/`. Entries already in order (trees read back from git, a tree being rewritten) are
 * returned as they are, after one pass that compares strings without encoding them.
 */
export function sortTreeEntries(entries: TreeEntry[]): TreeEntry[] {
  const key = treeEntryKey;
  let sorted = true;
  for (let i = 1; i < entries.length && sorted; i++) sorted = byteOrder(key(entries[i - 1]!), key(entries[i]!)) < 0;
  if (sorted) return entries;
  const keyed = entries.map((e) => ({ e, k: Buffer.from(key(e)) }));
  keyed.sort((a, b) => Buffer.compare(a.k, b.k));
  return keyed.map((x) => x.e);
}

/** What git sorts a tree entry by: its name, a tree's as `name/`. */
export function treeEntryKey(e: Pick<TreeEntry, 'name' | 'type'>): string {
  return e.type === 'tree' ? `${e.name}/` : e.name;
}

// UTF-16 order is UTF-8 byte order except where a surrogate pair (a character beyond U+FFFF) meets U+E000..U+FFFF
const SURROGATE = /[\uD800-\uDFFF]/;

/** Compares two strings by their UTF-8 bytes. */
export function byteOrder(a: string, b: string): number {
  if (SURROGATE.test(a) || SURROGATE.test(b)) return Buffer.compare(Buffer.from(a), Buffer.from(b));
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Normalizes a commit message as git and isomorphic-git store it. */
export function normalizeMessage(message: string): string {
  return message.replace(/\r/g, '').replace(/^\n+/, '').replace(/\n+$/, '') + '\n';
}

/** Canonical commit text (what git hashes after the object header). */
export function renderCommit(c: CommitObject): string {
  const sig = (s: Signature) => `${s.name} <${s.email}> ${s.timestamp} ${s.tz}`;
  let text = `tree ${c.tree}\n`;
  for (const p of c.parents) text += `parent ${p}\n`;
  text += `author ${sig(c.author)}\ncommitter ${sig(c.committer)}\n\n`;
  return text + normalizeMessage(c.message);
}

/** Parses commit text (headers, blank line, message); continuation header lines are skipped. */
export function parseCommit(text: string): CommitObject {
  const split = text.indexOf('\n\n');
  const head = split === -1 ? text : text.slice(0, split);
  const message = split === -1 ? '' : text.slice(split + 2);
  const parents: string[] = [];
  let tree = '';
  let author: Signature | undefined;
  let committer: Signature | undefined;
  for (const line of head.split('\n')) {
    if (line.startsWith(' ')) continue;
    const sp = line.indexOf(' ');
    const key = line.slice(0, sp);
    const value = line.slice(sp + 1);
    if (key === 'tree') tree = value;
    else if (key === 'parent') parents.push(value);
    else if (key === 'author') author = parseSignature(value);
    else if (key === 'committer') committer = parseSignature(value);
  }
  if (!tree || !author || !committer)
    throw new AxmeError(
      'CORRUPT',
      `a commit object has no ${!tree ? 'tree' : !author ? 'author' : 'committer'} line: the repository is damaged; run \`git fsck\` to find it`,
    );
  return { tree, parents, author, committer, message };
}

function parseSignature(s: string): Signature {
  const m = /^(.*) <(.*)> (-?\d+) ([+-]\d{4})$/.exec(s);
  if (!m) return { name: s, email: '', timestamp: 0, tz: '+0000' };
  return { name: m[1]!, email: m[2]!, timestamp: Number(m[3]), tz: m[4]! };
}

/** Minutes east of UTC for a git tz string ("+0130" -> 90). */
export function tzMinutes(tz: string): number {
  const sign = tz.startsWith('-') ? -1 : 1;
  return sign * (Number(tz.slice(1, 3)) * 60 + Number(tz.slice(3, 5)));
}

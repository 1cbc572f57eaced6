import { AxmeError, isAxmeError } from '../../model/errors.ts';
import { normalId } from '../../model/ids.ts';
import type { KindName } from '../../model/kind.ts';
import { KIND_ORDER, kindFacts, kindOfPrefix } from '../../model/kinds.ts';
import { classifyPath, itemPath, SPECS } from '../../model/paths.ts';
import { isSlug } from '../../model/slug.ts';
import { readLog } from '../../store/log.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { findItem } from '../core/lookup.ts';
import { readMergedState } from '../core/merged-state.ts';
import { type KnowledgeState, readState } from '../core/state.ts';
import { type MergeSettled, readMerge } from '../sync/settled-fields.ts';

export interface ItemVersion {
  commit: string;
  date: string;
  author: string;
  actor: string | null;
  event: string | null;
  subject: string;
  /** added, changed or removed in this commit; merged: a sync merge that combined two concurrent versions (both are listed too) */
  change: 'added' | 'changed' | 'removed' | 'merged';
  /** the file at this version (null when removed) */
  text: string | null;
  /** unified diff from the version before it on its first parent's line (with `patch`) */
  patch?: string;
  /** a merged version: its two parents, and every field both sides changed differently, with both values and the rule that settled it */
  merge?: { parents: string[]; settled: MergeSettled[] };
}

export interface HistoryResult {
  path: string;
  /** the store holding the file when it is not this repository's (a workspace item, read from a member) */
  store?: string;
  /** newest first */
  versions: ItemVersion[];
}

/**
 * Every version of one item (by ID, slug, alias or memory-tree path), newest first: each commit
 * that changed its file on any line of history (two clones' concurrent edits both appear), and
 * each sync merge that combined two concurrent versions (change `merged`, with what it settled).
 */
export async function itemHistory(
  session: KnowledgeBase,
  opts: { ref: string; kind?: KindName | undefined; at?: string | undefined; patch?: boolean | undefined },
): Promise<HistoryResult> {
  // the store holding the item: this repository's, or its workspace's
  const { kb, path, store, rev } = await locate(session, opts);
  const log = await readLog(kb.repo, { rev, path, fullHistory: true });
  if (log.length === 0) throw new AxmeError('NOT_FOUND', `${path} has no history in ${kb.ref}: \`axme log\` lists what changed`, { path });
  const texts = new Map<string, Promise<string | null>>();
  const textAt = (commit: string) => {
    if (!texts.has(commit)) texts.set(commit, fileAt(kb, commit, path));
    return texts.get(commit)!;
  };
  const { createTwoFilesPatch } = opts.patch ? await import('diff') : { createTwoFilesPatch: undefined };
  const versions = await Promise.all(
    log.map(async (e): Promise<ItemVersion | null> => {
      const parent = e.parents[0];
      const [text, before] = await Promise.all([textAt(e.commit), parent ? textAt(parent) : null]);
      let merge: ItemVersion['merge'];
      if (e.parents.length > 1) {
        // a merge is a version of this file only where both sides had changed it (cheap check first: the two sides differ)
        const other = await textAt(e.parents[1]!);
        if (before === null || other === null || before === other) return null;
        const m = await readMerge(kb, e.commit, new Set([path]));
        if (!m.concurrent.has(path)) return null;
        merge = { parents: e.parents, settled: m.settled };
      }
      const v: ItemVersion = {
        commit: e.commit,
        date: e.date,
        author: e.author,
        actor: e.trailers['Axme-Actor']?.[0] ?? null,
        event: e.trailers['Axme-Event']?.[0] ?? null,
        subject: e.subject,
        change: merge ? 'merged' : text === null ? 'removed' : before === null ? 'added' : 'changed',
        text,
        ...(merge ? { merge } : {}),
      };
      if (createTwoFilesPatch)
        v.patch = createTwoFilesPatch(`a/${path}`, `b/${path}`, before ?? '', text ?? '', before === null ? '' : parent!.slice(0, 12), e.commit.slice(0, 12));
      return v;
    }),
  );
  return { path, ...(store ? { store } : {}), versions: versions.filter((v): v is ItemVersion => v !== null) };
}

/**
 * The store and file whose history `opts.ref` asks for: the repository's own, else (in a member
 * of a workspace) the workspace store's item the repository reads (docs/workspaces.md).
 */
async function locate(
  kb: KnowledgeBase,
  opts: { ref: string; kind?: KindName | undefined; at?: string | undefined },
): Promise<{ kb: KnowledgeBase; path: string; store: string | null; rev: string }> {
  const state = await readState(kb, opts.at);
  try {
    return { kb, path: await resolvePath(kb, state, opts.ref.trim(), opts.kind), store: null, rev: state.commit! };
  } catch (err) {
    if (!isAxmeError(err, 'NOT_FOUND') || !kb.workspace || kb.workspace.self) throw err;
    const ws = (await readMergedState(kb, opts.at)).workspace;
    if (!ws?.kb || !ws.state) throw err;
    try {
      return { kb: ws.kb, path: await resolvePath(ws.kb, ws.state, opts.ref.trim(), opts.kind), store: ws.store, rev: ws.state.commit! };
    } catch {
      throw err;
    }
  }
}

/** The file at one commit: null when that commit's tree has none (removed is history); CORRUPT when listed but unreadable. */
async function fileAt(kb: KnowledgeBase, commit: string, path: string): Promise<string | null> {
  const r = await kb.repo.git(['cat-file', 'blob', `${commit}:${path}`], { allowFail: true });
  if (r.code === 0) return r.stdout.toString('utf8');
  const listed = await kb.repo.git(['ls-tree', commit, '--', path], { allowFail: true });
  if (listed.stdout.length > 0) {
    throw new AxmeError(
      'CORRUPT',
      `the version of ${path} in commit ${commit.slice(0, 12)} cannot be read (its object is missing): run \`git fsck\`, or fetch the store again from a teammate`,
      { path, commit },
    );
  }
  return null;
}

async function resolvePath(kb: KnowledgeBase, state: KnowledgeState, ref: string, kind: KindName | undefined): Promise<string> {
  if (ref.includes('/') || ref.endsWith('.yaml') || ref.endsWith('.md')) {
    if (ref.split('/').includes('..') || classifyPath(ref).type === 'other') {
      throw new AxmeError(
        'INVALID_INPUT',
        `${JSON.stringify(ref.slice(0, 100))} is not a path in the memory tree (like decisions/use-valkey.md or safety/rules.yaml)`,
      );
    }
    return ref;
  }
  // D-001 however its number is padded (D-1, d-0001), as every other command takes it
  const id = normalId(ref);
  if (id) {
    const k = kindOfPrefix(id.slice(0, 1))!;
    if (kind && kind !== k) throw new AxmeError('INVALID_INPUT', `${ref} is a ${k} ID, but --kind says ${kind}: leave --kind out, or give the ${kind}'s slug`);
    try {
      const item = findItem(state, k, id);
      return itemPath(k, item.slug, item.created);
    } catch (err) {
      // a file that does not parse still has a history: that is how to find its last good version
      if (isAxmeError(err, 'CORRUPT') && typeof err.data.path === 'string') return err.data.path;
      // a memory titled "D-042" has the slug d-042: looked up as a slug below
      if (!isAxmeError(err, 'NOT_FOUND') || !isSlug(ref.toLowerCase())) throw err;
      ref = ref.toLowerCase();
    }
  }
  if (!isSlug(ref)) throw new AxmeError('INVALID_INPUT', `${JSON.stringify(ref.slice(0, 80))} is neither an ID (D-001), a slug nor a memory-tree path`);
  const kinds = kind ? [kind] : KIND_ORDER;
  const hits = kinds.flatMap((k) =>
    (state.items[k] as Array<{ slug: string; created: string }>).filter((i) => i.slug === ref).map((i) => itemPath(k, i.slug, i.created)),
  );
  if (hits.length === 1) return hits[0]!;
  if (hits.length > 1) throw new AxmeError('AMBIGUOUS', `${ref} names several items (${hits.join(', ')}): pass --kind, or the path`, { paths: hits });
  // Not at this revision: it may still have a history (a reverted add, a pruned handoff, a hand-deleted file): ask git which files by that name ever were
  const gone = await removedFiles(kb, state, kinds, ref);
  if (gone.length === 1) return gone[0]!;
  if (gone.length > 1) throw new AxmeError('AMBIGUOUS', `${ref} named several items that are gone (${gone.join(', ')}): give the path`, { paths: gone });
  throw new AxmeError(
    'NOT_FOUND',
    `no item ${ref}, now or earlier: ${[...new Set(kinds.map((k) => `\`${kindFacts(k).listCommand}\``))].join(', ')} and \`axme log\` show what there is and was`,
    { ref },
  );
}

/** The files of `kinds` named `slug` that some commit up to this revision had (sessions in any month's folder). */
async function removedFiles(kb: KnowledgeBase, state: KnowledgeState, kinds: readonly KindName[], slug: string): Promise<string[]> {
  if (!state.commit) return [];
  const specs = kinds.map((k) => (k === 'session' ? `:(glob)${SPECS.session.dir}/*/${slug}.md` : `:(literal)${itemPath(k, slug)}`));
  const r = await kb.repo.git(['log', '--format=', '--name-only', '--diff-filter=D', state.commit, '--', ...specs], { allowFail: true });
  return [
    ...new Set(
      r.stdout
        .toString('utf8')
        .split('\n')
        .filter((l) => l.trim() !== ''),
    ),
  ];
}

import type { KnowledgeBase } from '../core/kb.ts';
import { readMergedState } from '../core/merged-state.ts';

/** Who wrote an item: the git identity of the commit that added its file to the store (docs/storage.md, "Who wrote an item"). */
export interface ItemAuthor {
  /** the commit author's name (git's `user.name` on the clone that wrote it) */
  name: string;
  /** the commit author's email */
  email: string;
  /** the commit that added the file */
  commit: string;
  /** its author date, ISO 8601 */
  date: string;
}

const FS = '\x1f';
const RS = '\x1e';

/**
 * Who added each file of the store at `commit`: the identity of the newest commit in its history
 * that added the path. A file a teammate wrote is theirs, brought in by the merge or fast-forward of
 * a sync (a merge adds nothing a parent had); a file a merge itself created (a conflict's question)
 * is the merging clone's. The whole store costs one `git log`, remembered per commit; when the tip
 * moved on from the one read last, only the commits since are read (`git log <new> ^<last>`, after
 * one `merge-base --is-ancestor`). `paths` narrows it to those files (one item shown), unremembered.
 */
export async function itemAuthors(kb: KnowledgeBase, opts: { commit: string; paths?: string[] | undefined }): Promise<Map<string, ItemAuthor>> {
  if (opts.paths) return readAdds(kb, [opts.commit, '--', ...opts.paths.map((p) => `:(literal)${p}`)], new Map());
  const key = `item-authors:${opts.commit}`;
  const known = kb.cache.recall<Map<string, ItemAuthor>>(key);
  if (known) return known;
  const last = kb.cache.recall<{ commit: string; authors: Map<string, ItemAuthor> }>(LAST);
  const since = last && (await kb.repo.git(['merge-base', '--is-ancestor', last.commit, opts.commit], { allowFail: true })).code === 0 ? last : null;
  const authors = since
    ? await readAdds(kb, [opts.commit, `^${since.commit}`, '--'], new Map(), since.authors)
    : await readAdds(kb, [opts.commit, '--'], new Map());
  kb.cache.remember(LAST, { commit: opts.commit, authors });
  return kb.cache.remember(key, authors);
}

const LAST = 'item-authors:last';

/** The adds of the commits `revs` name, newest first, into `into`; then what `older` knew of paths they did not add. */
async function readAdds(kb: KnowledgeBase, revs: string[], into: Map<string, ItemAuthor>, older?: Map<string, ItemAuthor>): Promise<Map<string, ItemAuthor>> {
  // --cc: a merge shows only what differs from every parent, so what a merge brought in stays its author's
  const args = ['log', '--cc', '--diff-filter=A', '--name-only', '--no-renames', '-z', `--format=${RS}%H${FS}%an${FS}%ae${FS}%aI`, ...revs];
  const out = (await kb.repo.git(args)).stdout.toString('utf8');
  for (const record of out.split(RS)) {
    if (!record) continue;
    const [head = '', ...files] = record.split('\0');
    const [commit = '', name = '', email = '', date = ''] = head.split(FS);
    const who = { name, email, commit, date };
    // newest first: a path added again later (removed, then written anew) is its newer writer's
    for (const f of files) {
      const path = f.replace(/^\n+/, '');
      if (path && !into.has(path)) into.set(path, who);
    }
  }
  if (older) for (const [path, who] of older) if (!into.has(path)) into.set(path, who);
  return into;
}

/**
 * One shown item with who wrote it (`author`), read from the store it comes from (a workspace
 * item's from the workspace store); without an author when no commit added the file (a store
 * whose history was cut short).
 */
export async function withAuthor<R extends { path: string; commit: string; store?: string | undefined }>(
  kb: KnowledgeBase,
  shown: R,
  at?: string | undefined,
): Promise<R & { author?: ItemAuthor }> {
  const from = shown.store ? (await readMergedState(kb, at)).workspace?.kb : kb;
  if (!from) return shown;
  const author = (await itemAuthors(from, { commit: shown.commit, paths: [shown.path] })).get(shown.path);
  return author ? { ...shown, author } : shown;
}

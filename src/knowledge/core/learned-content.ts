import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ANCHORED_KINDS, type Anchor, type AnchoredKind, anchorCovers, parseAnchor } from '../../model/anchor.ts';
import type { ItemBase } from '../../model/kind.ts';
import { isManifest, MANIFEST_PATHSPECS } from '../../model/manifests.ts';
import { worktreeOf } from './auto-anchors.ts';
import type { KnowledgeBase } from './kb.ts';
import { restageItem, type Staged } from './staging.ts';

/**
 * The files of `paths` (repository-relative, under the working tree `root`) whose content differs
 * from commit `head`'s, each with the blob of its working-tree content, written to the object
 * database so that `axme verify` can read it later: what an item learned now learned from where
 * `learned_at` alone does not say it (a manifest `npm i` changed and the user commits after).
 * Undefined when every file is as `head` has it. Two git processes, whatever the number of files.
 */
export async function learnedContentNow(
  kb: KnowledgeBase,
  root: string,
  paths: string[],
  head: string | undefined,
): Promise<Record<string, string> | undefined> {
  const present = paths.filter((p) => !/[\n\r]/.test(p) && existsSync(join(root, p)));
  if (!head || !present.length) return undefined;
  const [worked, tree] = await Promise.all([
    kb.repo.git(['hash-object', '-w', '--', ...present.map((p) => join(root, p))], { allowFail: true }),
    kb.repo.git(['ls-tree', '-z', '--full-tree', head, '--', ...present], { allowFail: true }),
  ]);
  if (worked.code !== 0) return undefined;
  const atHead = new Map<string, string>();
  for (const line of tree.stdout.toString('utf8').split('\0')) {
    const m = /^\d+ blob ([0-9a-f]+)\t([\s\S]+)$/.exec(line);
    if (m) atHead.set(m[2]!, m[1]!);
  }
  const blobs = worked.stdout.toString('utf8').trim().split('\n');
  const out: Record<string, string> = {};
  present.forEach((p, i) => {
    const blob = blobs[i];
    if (blob && blob !== atHead.get(p)) out[p] = blob;
  });
  return Object.keys(out).length ? out : undefined;
}

/**
 * Records what each item this operation learned anew was learned from, where HEAD alone does not
 * say it: for an item staged with a `learned_at` it did not have before (saved, superseded,
 * reconfirmed), the blobs of the files its anchors name that differ from HEAD in the working tree
 * (`learned_content`: edited, added, or new and not yet in git). An agent edits, saves a decision
 * about the edit, then commits: that commit is what the decision was learned from, not a change
 * since (`axme verify`). An item whose operation set `learned_content` itself (the oracle's scan)
 * keeps it. Nothing happens, and no git process runs, when no such item has anchors; one `git
 * status` and one `git hash-object` otherwise, whatever the number of items.
 */
export async function stampLearnedContent(kb: KnowledgeBase, st: Staged): Promise<void> {
  const fresh: Array<{ kind: AnchoredKind; item: LearnedItem; anchors: Anchor[] }> = [];
  for (const kind of ANCHORED_KINDS) {
    for (const item of (st.touched.get(kind)?.values() ?? []) as Iterable<LearnedItem>) {
      if (!item.learned_at || !item.anchors?.length) continue;
      const before = (st.base.items[kind] as LearnedItem[]).find((x) => x.slug === item.slug);
      if (before?.learned_at === item.learned_at) continue;
      if (item.learned_content !== undefined && item.learned_content !== before?.learned_content) continue;
      fresh.push({ kind, item, anchors: item.anchors.map(parseAnchor) });
    }
  }
  const root = fresh.length ? worktreeOf(kb) : null;
  if (!root) return;
  const changed = await changedFiles(kb, root, pathspecsOf(fresh.flatMap((f) => f.anchors)));
  const wanted = new Set<string>();
  const per = fresh.map((f) => {
    const files = changed.filter((p) => f.anchors.some((a) => names(a, p)));
    for (const p of files) wanted.add(p);
    return files;
  });
  const blobs = await learnedContentNow(kb, root, [...wanted], fresh[0]!.item.learned_at);
  fresh.forEach(({ kind, item }, i) => {
    const own = Object.fromEntries(per[i]!.flatMap((p) => (blobs?.[p] ? [[p, blobs[p]]] : [])));
    const next: LearnedItem = { ...item };
    if (Object.keys(own).length) next.learned_content = own;
    else delete next.learned_content;
    if (JSON.stringify(next.learned_content) !== JSON.stringify(item.learned_content)) restageItem(st, kind, next);
  });
}

type LearnedItem = ItemBase & { anchors?: string[]; learned_at?: string; learned_content?: Record<string, string> };

/** True when anchor `a` is about file `path`: what `anchorCovers` says, and any manifest for a `dep:` anchor (the range is read from it). */
function names(a: Anchor, path: string): boolean {
  return a.type === 'dep' ? isManifest(path) : anchorCovers(a, path);
}

/**
 * The git pathspecs that cover what `anchors` name, so that `git status` looks only there (a large
 * tree's other untracked files are not walked); null when one cannot be said as a pathspec (a glob
 * with `{a,b}`, which git's globs lack): then the whole tree is asked.
 */
export function pathspecsOf(anchors: readonly Anchor[]): string[] | null {
  const out = new Set<string>();
  for (const a of anchors) {
    if (a.type === 'dep') for (const m of MANIFEST_PATHSPECS) out.add(m);
    else if (a.type === 'glob') {
      if (/[{}]/.test(a.glob)) return null;
      out.add(`:(glob)${a.glob}`);
    } else {
      const p = a.path.replace(/\/+$/, '');
      if (p) out.add(`:(literal)${p}`);
    }
  }
  return [...out];
}

/** The files of the working tree that differ from HEAD (changed, added, untracked; not deleted) among `pathspecs` (null: anywhere), repository-relative. */
async function changedFiles(kb: KnowledgeBase, root: string, pathspecs: string[] | null): Promise<string[]> {
  if (pathspecs?.length === 0) return [];
  const r = await kb.repo.git(['-C', root, 'status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--', ...(pathspecs ?? [])], {
    allowFail: true,
  });
  if (r.code !== 0) return [];
  const out: string[] = [];
  for (const entry of r.stdout.toString('utf8').split('\0')) {
    if (entry.length < 4 || entry[0] === 'D' || entry[1] === 'D') continue;
    out.push(entry.slice(3));
  }
  return out;
}

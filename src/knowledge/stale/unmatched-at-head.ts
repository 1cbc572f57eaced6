import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ANCHORED_KINDS, type AnchoredKind, anchorProblem, parseAnchor, type VerifyInput } from '../../model/anchor.ts';
import { isLive } from '../../model/liveness.ts';
import { worktreeOf } from '../core/auto-anchors.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { readMergedState, storeOf } from '../core/merged-state.ts';
import { unmatchedAnchors } from './anchor-matches.ts';
import { commitFiles } from './code-files.ts';
import { notesTip } from './session-commits.ts';
import type { UnmatchedAnchor, UnmatchedItemAnchor, VerifyResult } from './types.ts';
import { suggestionFor } from './unmatched-words.ts';

interface Anchored {
  kind: AnchoredKind;
  id: string | null;
  slug: string;
  title: string;
  anchors: string[];
  learned_at?: string;
}

/**
 * The anchors of the current items of this repository (those `verified` was run on) that name
 * nothing at HEAD and named nothing at the item's learned_at either: an anchor that never pointed
 * at anything (docs/staleness.md#anchors-that-name-nothing). One that matched at learned_at and is
 * gone since is the stale finding's (reported there, or deliberately not when the saving session
 * deleted it), and an anchor of a stale change is not said twice; an item whose learned_at is not
 * a commit here is `unverifiable`'s. Costs one `git ls-tree` of HEAD and one `git cat-file --batch`
 * when some item has anchors, and one `git ls-tree` per learned_at of an item with an anchor that
 * matches nothing at HEAD. Not on the stale marks' path (context, search): `axme verify` alone asks.
 */
export async function unmatchedAtHead(kb: KnowledgeBase, verified: VerifyResult, input: VerifyInput = {}): Promise<UnmatchedItemAnchor[]> {
  const head = verified.head;
  if (!head) return [];
  const state = await readMergedState(kb, input.at);
  const key = `unmatched:${state.snapshot.tree}:${head}:${await notesTip(kb)}`;
  const hit = kb.cache.recall<UnmatchedItemAnchor[]>(key);
  if (hit) return hit;
  const items: Anchored[] = [];
  for (const kind of ANCHORED_KINDS) {
    for (const item of state.items[kind] as Array<{ slug: string; id?: string; title?: string; status?: string; anchors?: string[]; learned_at?: string }>) {
      if (!isLive(kind, item) || storeOf(state, item) !== null) continue;
      const anchors = (item.anchors ?? []).filter((a) => anchorProblem(a) === null);
      if (anchors.length)
        items.push({
          kind,
          id: item.id ?? null,
          slug: item.slug,
          title: item.title ?? item.slug,
          anchors,
          ...(item.learned_at ? { learned_at: item.learned_at } : {}),
        });
    }
  }
  const out = items.length ? await neverMatched(kb, head, items, verified) : [];
  return kb.cache.remember(key, out);
}

async function neverMatched(kb: KnowledgeBase, head: string, items: Anchored[], verified: VerifyResult): Promise<UnmatchedItemAnchor[]> {
  const tip = await commitFiles(kb, head);
  if (!tip) return [];
  const atHead = new Map((await unmatchedAnchors([...new Set(items.flatMap((i) => i.anchors))], tip)).map((u) => [u.anchor, u]));
  if (!atHead.size) return [];
  const staleAnchors = new Set(verified.stale.flatMap((s) => s.changes.map((c) => `${s.kind}\0${s.slug}\0${c.anchor}`)));
  const candidates = items
    .map((item) => ({ item, misses: item.anchors.filter((a) => atHead.has(a) && !staleAnchors.has(`${item.kind}\0${item.slug}\0${a}`)) }))
    .filter((c) => c.misses.length);
  // what matched at learned_at and is gone since is the stale finding's; an unknown learned_at, unverifiable's
  const byLearned = new Map<string, Set<string>>();
  for (const { item, misses } of candidates)
    if (item.learned_at) for (const a of misses) byLearned.set(item.learned_at, (byLearned.get(item.learned_at) ?? new Set()).add(a));
  const neverThere = new Map<string, Set<string> | null>();
  await Promise.all(
    [...byLearned].map(async ([at, anchors]) => {
      const then = await commitFiles(kb, at);
      neverThere.set(at, then ? new Set((await unmatchedAnchors([...anchors], then)).map((u) => u.anchor)) : null);
    }),
  );
  const root = worktreeOf(kb);
  const out: UnmatchedItemAnchor[] = [];
  for (const { item, misses } of candidates) {
    const never = item.learned_at ? neverThere.get(item.learned_at) : undefined;
    if (never === null) continue;
    const own = misses.filter((a) => !never || never.has(a)).map((a) => atHead.get(a)!);
    for (const u of own) {
      out.push({
        kind: item.kind,
        id: item.id,
        slug: item.slug,
        title: item.title,
        ...u,
        suggestion: suggestionFor(item, u, own, root !== null && inWorktree(root, u)),
      });
    }
  }
  return out;
}

/** A `no-file` anchor whose path is in the working tree, not committed (or ignored by git). */
function inWorktree(root: string, u: UnmatchedAnchor): boolean {
  if (u.problem !== 'no-file') return false;
  const a = parseAnchor(u.anchor);
  return (a.type === 'path' || a.type === 'grep') && a.path.replace(/\/+$/, '') !== '' && existsSync(join(root, a.path));
}

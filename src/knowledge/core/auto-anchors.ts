import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { anchorProblem, normalPath } from '../../model/anchor.ts';
import { readSession } from '../../session/sessions.ts';
import type { KnowledgeBase } from './kb.ts';

/** At most this many anchors are added automatically to one item. */
export const MAX_AUTO_ANCHORS = 10;
/** A session that edited at most this many files anchors what an agent saves to all of them. */
export const FEW_SESSION_FILES = 5;

/**
 * The anchors axme adds to an item saved without any (`anchors` not given), so that `axme verify`
 * can tell when the code it is about moves on:
 * - the paths named in its text that exist in the working tree (`src/pay.ts`, `docs/adr/`);
 * - when an agent saves during a session, the files the session edited (as the post-tool-use
 *   hook recorded them) that the text names by path or file name, or all of them when the
 *   session edited only a few (FEW_SESSION_FILES): what it worked on is what it learned about.
 * Sorted, at most MAX_AUTO_ANCHORS. Nothing when the repository has no working tree.
 */
export function autoAnchors(kb: KnowledgeBase, texts: ReadonlyArray<string | undefined>): string[] {
  const root = worktreeOf(kb);
  if (!root) return [];
  const text = texts.filter(Boolean).join('\n');
  const found = new Set<string>();
  for (const p of pathsNamedIn(text)) if (insideTree(root, p)) found.add(p);
  if (kb.actor === 'agent' && kb.session) {
    const edited = (readSession(kb.repo.commonDir, kb.session)?.files ?? []).map(normalPath).filter((f) => f && !f.startsWith('..') && !f.startsWith('/'));
    const named = edited.filter((f) => text.includes(f) || new RegExp(`(^|[^\\w.-])${escape(basename(f))}($|[^\\w-])`).test(text));
    for (const f of edited.length <= FEW_SESSION_FILES ? edited : named) if (insideTree(root, f)) found.add(f);
  }
  return [...found]
    .filter((a) => anchorProblem(a) === null && a.length <= 200)
    .sort()
    .slice(0, MAX_AUTO_ANCHORS);
}

/** Path-like words of a text: with a `/` (src/pay.ts, docs/adr/) or a file name with a known kind of extension. */
export function pathsNamedIn(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(
    /(?:^|[\s`'"(\[<])((?:\.\/)?[\w@.-]+(?:\/[\w@.-]+)+\/?|[\w@-][\w@.-]*\.(?:ts|tsx|js|jsx|mjs|cjs|py|go|rs|java|kt|rb|php|cs|c|h|cc|cpp|hpp|swift|scala|sql|sh|yaml|yml|toml|json|md|proto|graphql|tf|css|scss|html|vue|svelte))(?=$|[\s`'"),.;:!?\]>])/gm,
  )) {
    const p = normalPath(m[1]!).replace(/[.]+$/, '');
    if (p && !p.includes('://') && !/^\d+(\.\d+)*$/.test(p)) out.add(p);
  }
  return [...out];
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The working tree of the repository, found from its git dir without running git; null when bare or unknown. */
export function worktreeOf(kb: KnowledgeBase): string | null {
  const { repo } = kb;
  if (repo.bare) return null;
  const cached = kb.cache.recall<string | null>('auto-anchors:worktree');
  if (cached !== undefined) return cached;
  let root: string | null = null;
  if (basename(repo.gitDir) === '.git') root = dirname(repo.gitDir);
  else {
    const linked = join(repo.gitDir, 'gitdir');
    if (existsSync(linked)) root = dirname(resolve(repo.gitDir, readFileSync(linked, 'utf8').trim()));
  }
  return kb.cache.remember('auto-anchors:worktree', root && existsSync(root) ? root : null);
}

function insideTree(root: string, p: string): boolean {
  if (p.split('/').includes('..') || p.startsWith('.git/') || p === '.git') return false;
  try {
    statSync(join(root, p));
    return true;
  } catch {
    return false;
  }
}

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type AnchoredKind, parseAnchor } from '../../model/anchor.ts';
import { worktreeOf } from '../core/auto-anchors.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { unmatchedAnchors } from './anchor-matches.ts';
import { worktreeFiles } from './code-files.ts';
import type { UnmatchedAnchor } from './types.ts';
import { suggestionFor, unmatchedPhrase } from './unmatched-words.ts';

/** An item a save wrote with the anchors it set: new, superseding, reconfirmed, or given new anchors. */
export interface SavedAnchors {
  kind: AnchoredKind;
  /** display ID, null for kinds without one */
  id: string | null;
  slug: string;
  anchors: readonly string[];
}

/** A warning in a save's answer: an anchor it stored that names nothing in the working tree. */
export interface AnchorWarning extends UnmatchedAnchor {
  code: 'unmatched-anchor';
  kind: AnchoredKind;
  /** the item: its display ID, else its slug */
  item: string;
  /** one paragraph: what names nothing, the nearest, that it was saved anyway and how to fix it */
  message: string;
}

/**
 * The anchors of `saved` that name nothing in the working tree — no file or folder git tracks or
 * could (untracked, not ignored), no file the glob matches, a `path#symbol` file without the
 * symbol, a `dep:` no manifest declares — each a warning with the nearest that exists and the
 * `axme reconfirm` that fixes it (docs/staleness.md#anchors-that-name-nothing). The save itself is
 * never refused: the file may be written later in the session. Nothing without a working tree (a
 * bare repository, a workspace store). One `git ls-files` limited to what the anchors name, a
 * second of the whole tree only when one names nothing (for the nearest); never on a hook's path.
 */
export async function anchorWarnings(kb: KnowledgeBase, saved: readonly SavedAnchors[]): Promise<AnchorWarning[]> {
  const withAnchors = saved.filter((s) => s.anchors.length);
  const root = withAnchors.length ? worktreeOf(kb) : null;
  if (!root) return [];
  const anchors = [...new Set(withAnchors.flatMap((s) => s.anchors))];
  const misses = new Map((await unmatchedAnchors(anchors, worktreeFiles(kb, root, anchors))).map((u) => [u.anchor, u]));
  const out: AnchorWarning[] = [];
  for (const s of withAnchors) {
    const own = s.anchors.flatMap((a) => (misses.has(a) ? [misses.get(a)!] : []));
    const item = s.id ?? s.slug;
    for (const u of own) {
      const ignored = ignoredPath(root, u);
      const what = `anchor ${unmatchedPhrase(u, 'in the working tree', ` of ${item}`)}`;
      const message = ignored
        ? `${what}: git ignores ${ignored}, so axme verify never compares it; saved as given. Anchor a file git tracks instead: ${suggestionFor(s, { ...u }, own, false).replace(/^correct it or leave it out: /, '')}`
        : `${what}. Saved as given; until it names something, editing that code recalls nothing and axme verify --check reports it. If it is a typo, ${suggestionFor(s, u, own, false)}`;
      out.push({ code: 'unmatched-anchor', kind: s.kind, item, ...u, message });
    }
  }
  return out;
}

/** The path of a `no-file` anchor that is on disk all the same: git ignores it. */
function ignoredPath(root: string, u: UnmatchedAnchor): string | null {
  if (u.problem !== 'no-file') return null;
  const a = parseAnchor(u.anchor);
  if (a.type !== 'path' && a.type !== 'grep') return null;
  const p = a.path.replace(/\/+$/, '');
  return p !== '' && existsSync(join(root, p)) ? p : null;
}

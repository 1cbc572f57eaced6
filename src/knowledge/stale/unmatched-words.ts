import type { AnchoredKind } from '../../model/anchor.ts';
import type { UnmatchedAnchor } from './types.ts';

/* How an anchor that names nothing is said, and what to do about it: the words of verify's `unmatched` and of a save's warnings (docs/staleness.md#anchors-that-name-nothing). */

/** How an unmatched anchor names nothing, `where` (`at 4be1f0a2c3d9`, `in the working tree`): `src/atuh/login.ts names no file in the working tree (nearest: src/auth/login.ts)`. */
export function unmatchedPhrase(u: UnmatchedAnchor, where: string, of = ''): string {
  const what =
    u.problem === 'no-symbol'
      ? `${u.anchor}${of}: its file does not contain ${u.anchor.slice(u.anchor.indexOf('#') + 1)} ${where}`
      : u.problem === 'no-dependency'
        ? `${u.anchor}${of}: no manifest declares it ${where}`
        : `${u.anchor}${of} ${/[*?[{]/.test(u.anchor) ? 'matches' : 'names'} no file ${where}`;
  return `${what}${u.nearest ? ` (nearest: ${u.nearest})` : ''}`;
}

/**
 * What to do about unmatched anchor `u` of `item` (`all`: every unmatched anchor of the item): the
 * `axme reconfirm` that gives it its anchors with each unmatched one replaced by the nearest, or
 * left out when none is near; `uncommitted`: the path is in the working tree, not at HEAD.
 */
export function suggestionFor(
  item: { kind: AnchoredKind; id: string | null; slug: string; anchors: readonly string[] },
  u: UnmatchedAnchor,
  all: readonly UnmatchedAnchor[],
  uncommitted: boolean,
): string {
  if (uncommitted)
    return `${u.anchor} is in the working tree but not at HEAD: commit it (a file git ignores is never compared: anchor a committed file instead)`;
  const fixed = new Map(all.map((x) => [x.anchor, x.nearest]));
  const anchors = item.anchors.flatMap((a) => (fixed.has(a) ? (fixed.get(a) ? [fixed.get(a)!] : []) : [a]));
  const ref = item.id ?? `${item.slug} --kind ${item.kind}`;
  const flags = anchors.length ? anchors.map((a) => `--anchor ${quoted(a)}`).join(' ') : '--anchor <what it is about>';
  const what = u.nearest ? `did you mean ${u.nearest}? ` : 'correct it or leave it out: ';
  return `${what}axme reconfirm ${ref} ${flags} (axme_reconfirm) gives ${item.id ?? item.slug} these anchors`;
}

/** An anchor as a shell word. */
function quoted(a: string): string {
  return /^[\w./@#:+-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}

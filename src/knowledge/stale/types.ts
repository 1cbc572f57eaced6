import type { ANCHOR_CHANGES, AnchoredKind } from '../../model/anchor.ts';

/** How one anchor of an item moved since the item was learned. */
export interface AnchorChange {
  /** the anchor as the item stores it (`src/pay.ts`, `src/**\/*.sql`, `src/pay.ts#chargeCard`, `dep:react`) */
  anchor: string;
  /**
   * touched: a file it names was changed; deleted: its file or folder is gone; renamed: it moved
   * (`to`); no-match: the file no longer contains the symbol, or the glob matches no file;
   * dep-changed: the declared version range moved (or the dependency was removed or added)
   */
  change: (typeof ANCHOR_CHANGES)[number];
  /** the file or manifest concerned, when it is not the anchor itself */
  path?: string;
  /** where a renamed path went */
  to?: string;
  /** dep-changed: the range declared when the item was learned (absent: not declared then) */
  from_version?: string;
  /** dep-changed: the range declared at HEAD (absent: removed) */
  to_version?: string;
  /** the commits since learned_at that changed it (empty when learned_at is not in HEAD's history: the contents were compared) */
  commits: string[];
  /** lines added and removed by those commits in the files concerned (summed over the commits) */
  diffstat?: { files: number; insertions: number; deletions: number };
}

/** A commit that moved an anchor. */
export interface StaleCommit {
  sha: string;
  /** committer date, ISO 8601 */
  date: string;
  subject: string;
}

/** A current item whose anchors moved since it was learned. */
export interface StaleItem {
  kind: AnchoredKind;
  /** display ID (D-001, B-003), null for kinds without one */
  id: string | null;
  slug: string;
  title: string;
  /** one line a person reads: "src/pay.ts changed in 3 commits since this was decided" */
  reason: string;
  /** the code commit the item was learned at */
  learned_at: string;
  changes: AnchorChange[];
  /** the commits behind the changes, newest first */
  commits: StaleCommit[];
}

/** An anchored item whose learned_at cannot be compared with HEAD. */
export interface UnverifiableItem {
  kind: AnchoredKind;
  id: string | null;
  slug: string;
  learned_at: string;
  reason: string;
}

/** What `axme verify` found. */
export interface VerifyResult {
  /** the code commit compared with (HEAD), null when there is none to compare (bare repository, no commit yet) */
  head: string | null;
  /** current items with anchors and a learned_at that were compared */
  checked: number;
  stale: StaleItem[];
  unverifiable: UnverifiableItem[];
  /** current items with anchors but no learned_at (saved before axme recorded it): not compared */
  unlearned: number;
  /** why nothing was compared, when nothing could be */
  note?: string;
}

/** An anchor that names nothing in a tree of code: no file or folder, no file the glob matches, not the symbol in its file, no manifest declaring the dependency. */
export interface UnmatchedAnchor {
  /** the anchor as given or stored */
  anchor: string;
  /** no-file: no file or folder is that path, or no file matches the glob (for `path#symbol`: its file is not there); no-symbol: the file does not contain the text after `#`; no-dependency: no manifest axme reads declares it */
  problem: 'no-file' | 'no-symbol' | 'no-dependency';
  /** the closest existing anchor (a path a few edits away, the file's nearest word, a declared dependency), when one is close */
  nearest?: string;
}

/** An anchor of a current item that names nothing at HEAD and did not at learned_at either: never matched (`axme verify`'s `unmatched`). */
export interface UnmatchedItemAnchor extends UnmatchedAnchor {
  kind: AnchoredKind;
  id: string | null;
  slug: string;
  title: string;
  /** what to do: commit the file, or give the item the anchors it meant */
  suggestion: string;
}

/** What `axme verify` reports: the stale items, and the anchors that never matched anything. */
export interface VerifyReport extends VerifyResult {
  unmatched: UnmatchedItemAnchor[];
}

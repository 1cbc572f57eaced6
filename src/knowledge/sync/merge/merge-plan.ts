import type { Snapshot } from '../../../store/tree.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import type { SettleRule } from './values.ts';

/** A path whose two versions do not combine: one is kept in place and a question asks which is right. */
export interface MergeConflict {
  path: string;
  id: string | null;
  title: string;
  fields: string[];
  /** the commit whose version was kept in place, and the other one (still in history: a parent of the merge) */
  kept: string;
  other: string;
  /** what the question says beyond "which version is right" (a decision superseded twice, or revoked and superseded) */
  note?: string;
  /** path of the question that asks about this conflict (set when the questions are opened) */
  question?: string;
}

/** A field both sides changed differently, and what the merge holds now: both values stay in view (the sync report, `axme history`). */
export interface SettledField {
  path: string;
  id: string | null;
  title: string;
  /** dotted path of the field (`priority`, `git.allowForcePush`) */
  field: string;
  rule: SettleRule;
  /** the merged value */
  value: unknown;
  /** each side's value with the tip of that side (the sync report names the commit that made each edit) */
  sides: Array<{ commit: string; value: unknown }>;
  /** with rule `asked`: the question about it */
  question?: string;
}

/** What a merge of two memory trees writes onto `ours`, and what it settled, renumbered and asked. */
export interface MergePlan {
  /** file changes to apply to `ours` (null removes) */
  changes: Map<string, Buffer | null>;
  conflicts: MergeConflict[];
  /** every field both sides changed differently, by path then field */
  settled: SettledField[];
  renumbered: Array<{ path: string; from: string; to: string }>;
  /** paths of the questions opened for conflicts */
  questions: string[];
}

/** The three trees of a merge: the merge base (null: the histories share none), ours and theirs with their tips. */
export interface MergeInput {
  kb: KnowledgeBase;
  base: Snapshot | null;
  ours: Snapshot & { commit: string };
  theirs: Snapshot & { commit: string };
  /**
   * the side already published: a sync's remote (`theirs`), or the store against the reviewed branch it
   * adopts (`ours`: the proposals are the newcomers). Of two newcomers sharing a display ID, its own
   * keeps the ID (renumber-merged.ts); without it, the earlier created does, whichever side is ours
   */
  published?: 'ours' | 'theirs';
  /** only these paths (what one merge settled, read back for `axme history`): no renumbering, no questions */
  only?: ReadonlySet<string>;
}

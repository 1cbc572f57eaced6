import { z } from 'zod';
import { SESSION_ID_RE } from './common.ts';
import { type GlobMatcher, globMatcher, globProblem } from './glob.ts';
import { type AnchoredKind, KIND_TABLES } from './kinds.ts';
import { LIMITS } from './limits.ts';
import { stringList } from './text.ts';

/**
 * What a piece of knowledge is about in the code, so that `axme verify` can tell when the code
 * moved on since it was learned:
 * - `src/pay.ts`, `src/pay/` — a path (a folder covers what is under it);
 * - `src/**\/*.sql` — a glob (`*`, `**`, `?`, `{a,b}`, `[...]`);
 * - `src/pay.ts#chargeCard` — a grep anchor: the path must still contain the text after `#`;
 * - `dep:react` — a dependency of a manifest (package.json, Cargo.toml, go.mod, pyproject.toml,
 *   requirements.txt): its declared version range.
 */
export type Anchor =
  | { type: 'path'; path: string; raw: string }
  | { type: 'glob'; glob: string; raw: string }
  | { type: 'grep'; path: string; symbol: string; raw: string }
  | { type: 'dep'; name: string; raw: string };

const GLOB = /[*?[{]/;

/** The meaning of one anchor entry (as stored: one cleaned line). */
export function parseAnchor(raw: string): Anchor {
  const s = raw.trim();
  if (s.startsWith('dep:')) return { type: 'dep', name: s.slice(4).trim(), raw };
  const hash = s.indexOf('#');
  if (hash > 0 && hash < s.length - 1) return { type: 'grep', path: normalPath(s.slice(0, hash)), symbol: s.slice(hash + 1), raw };
  const p = normalPath(s);
  return GLOB.test(p) ? { type: 'glob', glob: p, raw } : { type: 'path', path: p, raw };
}

/** A repository-relative path as anchors keep it: forward slashes, no leading `./` or `/`. */
export function normalPath(p: string): string {
  return p
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(?:\.\/)+/, '')
    .replace(/^\/+/, '');
}

/** Why an anchor entry cannot be used (outside the repository, too long, a glob with too many wildcards), or null. */
export function anchorProblem(raw: string): string | null {
  const s = raw.trim();
  if (s.length > LIMITS.listItem) return `anchor "${s.slice(0, 40)}…": at most ${LIMITS.listItem} characters`;
  if (s.startsWith('dep:')) return s.length > 4 && !/\s/.test(s.slice(4).trim()) ? null : `anchor "${s}": write dep:<name>, e.g. dep:react`;
  const path = normalPath(s.includes('#') ? s.slice(0, s.indexOf('#')) : s);
  if (path === '') return `anchor "${s}": name a path in the repository (src/pay.ts, src/pay/, src/**/*.sql, src/pay.ts#chargeCard or dep:<name>)`;
  if (path.split('/').includes('..')) return `anchor "${s}": a path inside the repository, without ".."`;
  const glob = GLOB.test(path) ? globProblem(path) : null;
  return glob ? `anchor "${s}": ${glob}` : null;
}

/** The `anchors` list of an item's input: like any list, plus each entry must be a usable anchor. */
export function anchorList(description = 'what the item is about in the code: paths, globs, path#symbol, dep:<name>') {
  return stringList(description).superRefine((list, ctx) => {
    for (const a of list) {
      const p = anchorProblem(a);
      if (p) ctx.addIssue({ code: 'custom', message: p });
    }
  });
}

/** How an anchor can have moved since its item was learned (`axme verify`; src/knowledge/stale/types.ts says what each means). */
export const ANCHOR_CHANGES = ['touched', 'deleted', 'renamed', 'no-match', 'dep-changed'] as const;

/** The kinds of item that carry anchors and `learned_at` (declared `anchored`): what `axme verify` checks and `axme reconfirm` moves. */
export const ANCHORED_KINDS = KIND_TABLES.anchoredKinds as readonly [AnchoredKind, ...AnchoredKind[]];
export type { AnchoredKind } from './kinds.ts';

/** The code commit HEAD pointed at when an item was learned (`learned_at`), full hex object name. */
export const LearnedAt = z
  .string()
  .regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/, 'must be a full commit id (40 or 64 hex digits)')
  .describe('the code commit HEAD pointed at when the item was saved or last reconfirmed');

/**
 * The content an item was learned from where it was not `learned_at`'s: file anchor -> the blob
 * (full hex object name) of the file as the working tree had it when the item was learned, for the
 * files that differed from HEAD then (a manifest `npm i` had changed and not yet committed). A later
 * commit of that same content is not a change of the anchor.
 */
export const LearnedContent = z
  .record(z.string().max(200), z.string().regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/, 'must be a full blob id'))
  .describe('file -> the blob it was learned from, for files that differed from learned_at then (uncommitted changes)');

/**
 * The agent session that last reconfirmed an item, when it is not the one that saved it: like the
 * saving session's, its code commits after `learned_at` (up to its close) carry the item out
 * rather than change it (docs/staleness.md#the-sessions-own-commits).
 */
export const ReconfirmedBy = z
  .string()
  .regex(SESSION_ID_RE, 'must be a session id')
  .describe('the agent session that last reconfirmed the item, when another than the one that saved it');

/** Compiled anchor globs (a session start asks every item's anchors about every changed file); null for a glob past the limits, which names nothing. */
const globs = new Map<string, GlobMatcher | null>();
function anchorGlob(glob: string): GlobMatcher | null {
  let m = globs.get(glob);
  if (m === undefined) {
    m = globProblem(glob) ? null : globMatcher(glob);
    if (globs.size < 5_000) globs.set(glob, m);
  }
  return m;
}

/** True when `file` (repository-relative) is what `anchor` names: the file, a file under the folder, a match of the glob (none for a glob past the limits), the grep anchor's file; `dep:` anchors name no file. */
export function anchorCovers(anchor: Anchor, file: string): boolean {
  const f = normalPath(file);
  switch (anchor.type) {
    case 'path': {
      const p = anchor.path.replace(/\/+$/, '');
      return f === p || f.startsWith(`${p}/`);
    }
    case 'glob':
      return anchorGlob(anchor.glob)?.test(f) ?? false;
    case 'grep':
      return f === anchor.path;
    case 'dep':
      return false;
  }
}

/** Parameters of "find the stale items" (`axme verify`, `axme_verify`). */
export const VerifyInput = z.object({
  at: z.string().max(200).optional().describe('check the knowledge as it was: a memory commit, ~N or a date (the code is always compared up to HEAD)'),
});
export type VerifyInput = z.input<typeof VerifyInput>;

/** Parameters of "reconfirm an item" (`axme reconfirm`, `axme_reconfirm`). */
export const ReconfirmInput = z.object({
  id: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe('ID (D-001, B-001) or slug of the decision, memory, backlog item or oracle page that was checked against the code'),
  kind: z
    .enum(ANCHORED_KINDS)
    .optional()
    .describe(`the kind, when a slug is not enough (default: found by ID, else the first kind with that slug: ${ANCHORED_KINDS.join(', ')})`),
  anchors: anchorList('replace the anchors (a renamed path, a new symbol); default: keep them').optional(),
});
export type ReconfirmInput = z.input<typeof ReconfirmInput>;

import { z } from 'zod';
import type { AddResult } from '../knowledge/core/results.ts';
import type { SavedAnchors } from '../knowledge/stale/anchor-warnings.ts';
import type { AnchoredKind } from '../model/anchor.ts';

/** The warnings of a save (operation.ts `anchored`): each anchor it stored that names nothing in the working tree. */
export const Warnings = z
  .array(
    z.looseObject({
      code: z.literal('unmatched-anchor').describe('what is wrong: an anchor that names nothing in the working tree'),
      kind: z.string().describe('decision, memory, backlog or oracle'),
      item: z.string().describe('the item: its display ID, else its slug'),
      anchor: z.string().describe('the anchor as given'),
      problem: z
        .enum(['no-file', 'no-symbol', 'no-dependency'])
        .describe('no-file: no file or folder, no file the glob matches; no-symbol: the file lacks the text after #; no-dependency: no manifest declares it'),
      nearest: z.string().optional().describe('the closest anchor that exists, when one is close'),
      message: z.string().describe('the warning in words, with what to do'),
    }),
  )
  .optional()
  .describe('only when there are any: anchors saved as given that name nothing in the working tree (never recalled nor marked stale until they do)');

/** An item a save wrote, as `anchored` gives it: kind, ID, slug and its anchors. */
export function savedAnchors(kind: AnchoredKind, item: { id?: string | null; slug: string; anchors?: readonly string[] }): SavedAnchors {
  return { kind, id: item.id ?? null, slug: item.slug, anchors: item.anchors ?? [] };
}

/**
 * JSON of a save: the item's own fields at the top level (so `jq .id` works), then what the save
 * did. One shape on every surface (the CLI's --json, the MCP tool's structured content).
 */
export const AddedOutput = z.looseObject({
  slug: z.string().describe("the item's slug (its file name)"),
  duplicate: z.boolean().describe('true when an equal item was already stored: it is returned and nothing was written'),
  path: z.string().describe('the file in the store'),
  location: z.string().describe('where to read it with git show: <ref>:<path>'),
  commit: z.string().nullable().describe('the commit that saved it (null for a duplicate)'),
  store: z.string().optional().describe("the store written, when it is not this repository's (a workspace)"),
  others: z.array(z.looseObject({})).optional().describe('with a scope of several repositories: the saves in the others'),
  warnings: Warnings,
});

export function addedJson<T extends object>(r: AddResult<T>): Record<string, unknown> {
  const { item, others, ...rest } = r;
  return { ...item, ...rest, ...(others ? { others: others.map((o) => addedJson(o)) } : {}) };
}

/** JSON of an edit of an existing item: the item's fields, then whether it changed and where it is. */
export const EditedOutput = z.looseObject({
  slug: z.string().describe("the item's slug (its file name)"),
  changed: z.boolean().describe('false when the item already was in the requested state: nothing was written'),
  path: z.string().describe('the file in the store'),
  location: z.string().describe('where to read it with git show: <ref>:<path>'),
  commit: z.string().nullable().describe('the commit that changed it (null when nothing changed)'),
  warnings: Warnings,
});

export function editedJson<T extends object>(r: { item: T; changed: boolean; path: string; location: string; commit: string | null }): Record<string, unknown> {
  const { item, ...rest } = r;
  return { ...item, ...rest };
}

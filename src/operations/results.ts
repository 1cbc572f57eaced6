import { z } from 'zod';
import type { AddResult } from '../knowledge/core/results.ts';

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
});

export function editedJson<T extends object>(r: { item: T; changed: boolean; path: string; location: string; commit: string | null }): Record<string, unknown> {
  const { item, ...rest } = r;
  return { ...item, ...rest };
}

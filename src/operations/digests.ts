import { z } from 'zod';
import type { ItemAuthor } from '../knowledge/history/item-authors.ts';
import type { ShowResult } from '../knowledge/items/show-item.ts';
import type { StaleItem } from '../knowledge/stale/types.ts';
import type { DigestKind, DigestResult } from '../knowledge/views/read-digest.ts';
import { staleLine } from '../knowledge/views/stale-marks.ts';
import { type AnyOperation, type CliPrinter, type CliSurface, defineOperation, READ } from './operation.ts';
import { atParam, budgetParam, pageParam } from './params.ts';

const Paged = z.looseObject({
  page: z.number().describe('this page (1-based)'),
  pages: z.number().describe('how many pages there are'),
  total: z.number().describe('how many items in all'),
  commit: z.string().describe('the commit read'),
  items: z.array(z.looseObject({})).describe('the items on this page, in full'),
});

const DigestInput = { at: atParam, page: pageParam, budget: budgetParam };

/** The paged session-start reads: `axme_oracle`, `axme_decisions`, `axme_memories`. */
export function digest(
  id: string,
  kind: DigestKind,
  tool: string,
  summary: string,
  description: string,
  cli: CliSurface<typeof DigestInput, DigestResult<unknown>> | null = null,
): AnyOperation {
  return defineOperation({
    id,
    summary,
    description,
    input: DigestInput,
    output: Paged,
    annotations: READ,
    write: false,
    cli,
    mcp: { tool, omit: ['budget'] },
    async run(kb, input): Promise<DigestResult<unknown>> {
      const { readDigest } = await import('../knowledge/views/read-digest.ts');
      return readDigest(kb, { kind, at: input.at, page: input.page, budget: input.budget });
    },
    json: (r) => ({ page: r.page, pages: r.pages, total: r.total, commit: r.commit, items: r.items }),
    text: (r) => r.text,
  });
}

export const Shown = z.looseObject({
  slug: z.string().describe("the item's slug"),
  path: z.string().describe('the file in the store'),
  location: z.string().describe('where to read it with git show: <ref>:<path>'),
  store: z.string().optional().describe("the store it comes from, when not this repository's (a workspace)"),
  written_by: z
    .object({
      name: z.string().describe("the git author's name"),
      email: z.string().describe("the git author's email"),
      commit: z.string().describe('the commit that added the file'),
      date: z.string().describe('its author date'),
    })
    .optional()
    .describe("who wrote the item: the git identity of the commit that added its file (a teammate's item synced in is theirs)"),
});
type ShownParts<T> = ShowResult<T> & { stale?: StaleItem; author?: ItemAuthor };
export const shownJson = <T extends object>(r: ShownParts<T>) => ({
  ...r.item,
  path: r.path,
  location: r.location,
  ...(r.store ? { store: r.store } : {}),
  ...(r.author ? { written_by: r.author } : {}),
  ...(r.stale ? { stale: { reason: r.stale.reason, changes: r.stale.changes, commits: r.stale.commits } } : {}),
});

/** `axme decision show`, `axme memory show`: the stored file as it is, or the item as JSON (the tool's structured content). */
export function printShown(r: ShownParts<object>, p: CliPrinter): void {
  if (p.json) p.printJson(shownJson(r));
  else {
    p.out(r.text);
    if (r.author) p.note(`axme: ${writtenBy(r.author)}`);
    if (r.stale) p.note(`axme: ${staleLine(r.stale)}`);
  }
}

/** Who wrote an item, in words: `written by Ann <ann@example.com> in 1a2b3c4d5e6f (2026-11-01)`. */
export function writtenBy(a: ItemAuthor): string {
  return `written by ${a.name} <${a.email}> in ${a.commit.slice(0, 12)} (${a.date.slice(0, 10)})`;
}

/** The `Written by:` line of an item's text for an agent, or nothing when unknown. */
export const writtenByLine = (a: ItemAuthor | undefined): string => (a ? `\n${writtenBy(a).replace(/^written by/, 'Written by:')}` : '');

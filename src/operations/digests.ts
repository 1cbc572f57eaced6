import { z } from 'zod';
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
});
export const shownJson = <T extends object>(r: ShowResult<T> & { stale?: StaleItem }) => ({
  ...r.item,
  path: r.path,
  location: r.location,
  ...(r.store ? { store: r.store } : {}),
  ...(r.stale ? { stale: { reason: r.stale.reason, changes: r.stale.changes, commits: r.stale.commits } } : {}),
});

/** `axme decision show`, `axme memory show`: the stored file as it is, or the item as JSON (the tool's structured content). */
export function printShown(r: ShowResult<object> & { stale?: StaleItem }, p: CliPrinter): void {
  if (p.json) p.printJson(shownJson(r));
  else {
    p.out(r.text);
    if (r.stale) p.note(`axme: ${staleLine(r.stale)}`);
  }
}

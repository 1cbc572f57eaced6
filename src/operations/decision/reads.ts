import { z } from 'zod';
import type { ItemAuthor } from '../../knowledge/history/item-authors.ts';
import type { ShowResult } from '../../knowledge/items/show-item.ts';
import type { StaleItem } from '../../knowledge/stale/types.ts';
import { decisionBlock } from '../../knowledge/views/blocks.ts';
import { staleLine } from '../../knowledge/views/stale-marks.ts';
import type { Decision } from '../../model/decision.ts';
import { TOOL_ARGS } from '../../model/tool-args.ts';
import { digest, printShown, Shown, shownJson, writtenByLine } from '../digests.ts';
import { defineOperation, READ } from '../operation.ts';
import { atParam } from '../params.ts';

export const decisionCurrent = digest(
  'decision.current',
  'decision',
  'axme_decisions',
  'Decisions',
  'Current architectural decisions, required ones first (superseded or revoked ones are never listed). Paged.',
);

/** decision.show: `axme decision show <id>`, `axme_get_decision`. */
export const decisionShow = defineOperation({
  id: 'decision.show',
  summary: 'One decision',
  description: 'A decision by ID (D-001), alias or slug, in full.',
  input: { [TOOL_ARGS.axme_get_decision]: z.string().min(1).max(200).describe('D-001, an alias or a slug'), at: atParam },
  output: Shown,
  annotations: READ,
  write: false,
  mcp: { tool: 'axme_get_decision' },
  async run(kb, input): Promise<ShowResult<Decision> & { stale?: StaleItem; author?: ItemAuthor }> {
    const { showWithStaleness } = await import('../../knowledge/views/stale-marks.ts');
    const { withAuthor } = await import('../../knowledge/history/item-authors.ts');
    return withAuthor(kb, await showWithStaleness<Decision>(kb, { kind: 'decision', ref: input.id_or_slug, at: input.at }), input.at);
  },
  // the CLI prints the stored file as it is
  cli: {
    command: ['decision', 'show'],
    describe: 'show one decision by ID, slug or alias',
    positional: ['id_or_slug'],
    names: { id_or_slug: 'id' },
    print: (r, p) => printShown(r, p),
  },
  json: shownJson,
  text: (r) =>
    `${decisionBlock(r.item, r.store, r.stale && staleLine(r.stale))}\nStatus: ${r.item.status}${r.item.superseded_by ? ` (superseded by ${r.item.superseded_by})` : ''}${writtenByLine(r.author)}\nSource: ${r.location}`,
});

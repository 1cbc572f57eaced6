import { z } from 'zod';
import type { ItemAuthor } from '../../knowledge/history/item-authors.ts';
import type { ShowResult } from '../../knowledge/items/show-item.ts';
import type { StaleItem } from '../../knowledge/stale/types.ts';
import { memoryBlock } from '../../knowledge/views/blocks.ts';
import { staleLine } from '../../knowledge/views/stale-marks.ts';
import type { Memory } from '../../model/memory.ts';
import { TOOL_ARGS } from '../../model/tool-args.ts';
import { digest, printShown, Shown, shownJson, writtenByLine } from '../digests.ts';
import { defineOperation, READ } from '../operation.ts';
import { atParam } from '../params.ts';

export const memoryCurrent = digest(
  'memory.current',
  'memory',
  'axme_memories',
  'Memories',
  'Current feedback memories (how to work here) and pattern memories (how the code is done). Paged.',
);

/** memory.show: `axme memory show <slug>`, `axme_get_memory`. */
export const memoryShow = defineOperation({
  id: 'memory.show',
  summary: 'One memory',
  description: 'A memory by slug, in full.',
  input: { [TOOL_ARGS.axme_get_memory]: z.string().min(1).max(200).describe('the memory slug'), at: atParam },
  output: Shown,
  annotations: READ,
  write: false,
  mcp: { tool: 'axme_get_memory' },
  async run(kb, input): Promise<ShowResult<Memory> & { stale?: StaleItem; author?: ItemAuthor }> {
    const { showWithStaleness } = await import('../../knowledge/views/stale-marks.ts');
    const { withAuthor } = await import('../../knowledge/history/item-authors.ts');
    return withAuthor(kb, await showWithStaleness<Memory>(kb, { kind: 'memory', ref: input.slug, at: input.at }), input.at);
  },
  cli: { command: ['memory', 'show'], describe: 'show one memory', positional: ['slug'], print: (r, p) => printShown(r, p) },
  json: shownJson,
  text: (r) => `${memoryBlock(r.item, r.store, r.stale && staleLine(r.stale))}\nStatus: ${r.item.status}${writtenByLine(r.author)}\nSource: ${r.location}`,
});

import { z } from 'zod';
import type { ShowResult } from '../../knowledge/items/show-item.ts';
import type { StaleItem } from '../../knowledge/stale/types.ts';
import { backlogLine, decisionBlock, memoryBlock, questionBlock } from '../../knowledge/views/blocks.ts';
import type { DigestKind, DigestResult } from '../../knowledge/views/read-digest.ts';
import { staleLine } from '../../knowledge/views/stale-marks.ts';
import { BACKLOG_STATUSES, type BacklogItem } from '../../model/backlog.ts';
import type { Decision } from '../../model/decision.ts';
import type { Memory } from '../../model/memory.ts';
import type { Question } from '../../model/question.ts';
import { digest, printShown, Shown, shownJson } from '../digests.ts';
import { type AnyOperation, type CliPrinter, type CliSurface, defineOperation, READ } from '../operation.ts';
import { atParam, budgetParam, pageParam } from '../params.ts';

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
  input: { slug: z.string().min(1).max(200).describe('the memory slug'), at: atParam },
  output: Shown,
  annotations: READ,
  write: false,
  mcp: { tool: 'axme_get_memory' },
  async run(kb, input): Promise<ShowResult<Memory> & { stale?: StaleItem }> {
    const { showWithStaleness } = await import('../../knowledge/views/stale-marks.ts');
    return showWithStaleness<Memory>(kb, { kind: 'memory', ref: input.slug, at: input.at });
  },
  cli: { command: ['memory', 'show'], describe: 'show one memory', positional: ['slug'], print: (r, p) => printShown(r, p) },
  json: shownJson,
  text: (r) => `${memoryBlock(r.item, r.store, r.stale && staleLine(r.stale))}\nStatus: ${r.item.status}\nSource: ${r.location}`,
});

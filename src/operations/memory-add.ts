import { z } from 'zod';
import type { AddResult } from '../knowledge/core/results.ts';
import { MemoryInput, type Memory } from '../model/memory.ts';
import { defineOperation, SAVE } from './operation.ts';
import { addedJson, AddedOutput } from './results.ts';

/** memory.add: `axme memory add`, `axme_save_memory`. */
export const memoryAdd = defineOperation({
  id: 'memory.add',
  summary: 'Save a memory',
  description: 'Save feedback (how the user wants work done) or a pattern (how this code does things). An equal active memory is returned instead of a duplicate.',
  input: MemoryInput.shape,
  output: AddedOutput,
  annotations: SAVE,
  write: true,
  cli: { command: ['memory', 'add'], stdin: ['description', 'body'], names: { anchors: 'anchor' } },
  mcp: { tool: 'axme_save_memory' },
  async run(kb, input, opts): Promise<AddResult<Memory>> {
    const { addMemory } = await import('../knowledge/items/memory/add-memory.ts');
    return addMemory(kb, input, opts);
  },
  json: addedJson,
  text: (r) => [r, ...(r.others ?? [])].map((x) => `${x.duplicate ? 'Memory already stored' : 'Memory saved'}: ${x.item.slug} (${x.item.type}) -> ${x.location}`).join('\n'),
});

export type MemoryAddInput = z.input<typeof MemoryInput>;

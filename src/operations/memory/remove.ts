import { z } from 'zod';
import type { EditResult } from '../../knowledge/core/results.ts';
import type { Memory } from '../../model/memory.ts';
import { defineOperation, EDIT } from '../operation.ts';
import { EditedOutput, editedJson } from '../results.ts';

/** memory.remove: `axme memory remove <slug>`, `axme_archive_memory`. */
export const memoryRemove = defineOperation({
  id: 'memory.remove',
  summary: 'Archive a memory (it stays in history)',
  description:
    "Remove a memory that no longer holds: it becomes archived, kept in the tree and in history, no longer offered to agents. With review.required an agent's archive is a proposal.",
  input: { slug: z.string().min(1).max(200).describe("the memory's slug") },
  output: EditedOutput,
  annotations: EDIT,
  write: false,
  cli: { command: ['memory', 'remove'], positional: ['slug'] },
  mcp: { tool: 'axme_archive_memory' },
  async run(kb, input, opts): Promise<EditResult<Memory>> {
    const { archiveMemory } = await import('../../knowledge/items/memory/archive-memory.ts');
    return archiveMemory(kb, input, opts);
  },
  json: editedJson,
  text: (r) =>
    r.changed
      ? `Memory archived: ${r.item.slug}`
      : r.item.status === 'superseded'
        ? `Memory ${r.item.slug} is superseded${r.item.superseded_by ? ` by ${r.item.superseded_by}` : ''}: already retired, nothing to archive`
        : `Memory already archived: ${r.item.slug}`,
});

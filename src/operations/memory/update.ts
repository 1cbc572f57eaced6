import type { EditResult } from '../../knowledge/core/results.ts';
import { type Memory, MemoryUpdate } from '../../model/memory.ts';
import { defineOperation, EDIT } from '../operation.ts';
import { EditedOutput, editedJson, savedAnchors } from '../results.ts';

/** memory.update: `axme memory update <slug>`, `axme_update_memory`. */
export const memoryUpdate = defineOperation({
  id: 'memory.update',
  summary: 'Edit a memory in place (history kept)',
  description:
    'Change an active memory in place: the fields given replace the old ones, the slug stays, the previous version stays in history (axme_history shows both). To replace a memory by a different one, save the new one with `supersedes`.',
  input: MemoryUpdate.shape,
  output: EditedOutput,
  annotations: EDIT,
  write: true,
  cli: { command: ['memory', 'update'], positional: ['slug'], stdin: ['description', 'body'], names: { anchors: 'anchor' } },
  mcp: { tool: 'axme_update_memory' },
  async run(kb, input, opts): Promise<EditResult<Memory>> {
    const { updateMemory } = await import('../../knowledge/items/memory/update-memory.ts');
    return updateMemory(kb, input, opts);
  },
  // an edit that gave it anchors
  anchored: (r, input) => (r.changed && input.anchors !== undefined ? [savedAnchors('memory', r.item)] : []),
  json: editedJson,
  text: (r) => `${r.changed ? 'Memory updated' : 'Memory unchanged'}: ${r.item.slug} (${r.item.type}) -> ${r.location}`,
});

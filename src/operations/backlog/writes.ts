import type { AddResult, EditResult } from '../../knowledge/core/results.ts';
import { BacklogInput, type BacklogItem, BacklogUpdate } from '../../model/backlog.ts';
import { defineOperation, EDIT, SAVE } from '../operation.ts';
import { AddedOutput, addedJson, EditedOutput, editedJson, savedAnchors } from '../results.ts';

/** backlog.add: `axme backlog add`, `axme_backlog_add`. */
export const backlogAdd = defineOperation({
  id: 'backlog.add',
  summary: 'Add to the backlog',
  description: 'Record work to do later. An open item with the same normalized title is returned instead of a duplicate.',
  input: BacklogInput.shape,
  output: AddedOutput,
  annotations: SAVE,
  write: true,
  cli: { command: ['backlog', 'add'], stdin: ['description'], names: { anchors: 'anchor' } },
  mcp: { tool: 'axme_backlog_add' },
  async run(kb, input, opts): Promise<AddResult<BacklogItem>> {
    const { addBacklogItem } = await import('../../knowledge/items/backlog/add-backlog-item.ts');
    return addBacklogItem(kb, input, opts);
  },
  anchored: (r) => (r.duplicate ? [] : [savedAnchors('backlog', r.item)]),
  json: addedJson,
  text: (r) =>
    [r, ...(r.others ?? [])]
      .map(
        (x) =>
          `${x.duplicate ? 'Backlog item exists' : 'Backlog item created'}: ${x.item.id} - ${x.item.title} (${x.item.priority})${x.store ? ` in ${x.store}` : ''}`,
      )
      .join('\n'),
});

/** backlog.update: `axme backlog update <id>`, `axme_backlog_update`. */
export const backlogUpdate = defineOperation({
  id: 'backlog.update',
  summary: 'Update a backlog item',
  description: 'Change status, priority or tags, or append a dated note (past 64 KB of notes, the oldest move to history).',
  input: BacklogUpdate.shape,
  output: EditedOutput,
  annotations: EDIT,
  write: true,
  cli: { command: ['backlog', 'update'], positional: ['id'], stdin: ['notes'] },
  mcp: { tool: 'axme_backlog_update' },
  async run(kb, input, opts): Promise<EditResult<BacklogItem>> {
    const { updateBacklogItem } = await import('../../knowledge/items/backlog/update-backlog-item.ts');
    return updateBacklogItem(kb, input, opts);
  },
  json: editedJson,
  text: (r) => `${r.changed ? 'Backlog item updated' : 'Backlog item unchanged'}: ${r.item.id} - ${r.item.title} [${r.item.status}, ${r.item.priority}]`,
});

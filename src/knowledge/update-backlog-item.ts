import { BacklogItem, BacklogUpdate } from '../model/backlog.ts';
import { AxmeError } from '../model/errors.ts';
import { assertNoSecrets } from '../model/secrets.ts';
import { parseInput } from '../model/validate.ts';
import type { WriteOptions } from './add-decision.ts';
import type { KnowledgeBase } from './kb.ts';
import { written, type EditResult } from './items.ts';
import { findItem } from './lookup.ts';
import { itemFile, mutate, subjectOf } from './mutate.ts';

/** Changes a backlog item's status, priority or tags and/or appends a dated note, in one commit. */
export async function updateBacklogItem(kb: KnowledgeBase, input: BacklogUpdate, opts: WriteOptions = {}): Promise<EditResult<BacklogItem>> {
  const data = parseInput(BacklogUpdate, input, 'backlog update');
  if (data.status === undefined && data.priority === undefined && data.notes === undefined && data.tags === undefined) {
    throw new AxmeError('INVALID_INPUT', 'nothing to update: give a status, priority, tags or a note');
  }
  assertNoSecrets({ notes: data.notes, tags: data.tags }, !!opts.allowSecret);
  const r = await mutate(kb, (state) => {
    const old = findItem<BacklogItem>(state, 'backlog', data.id);
    const now = kb.now().toISOString();
    const note = data.notes?.trim();
    const notes = note ? [old.notes.trim(), `- ${now.slice(0, 10)}: ${note.replace(/\n/g, '\n  ')}`].filter(Boolean).join('\n') : old.notes;
    const next = BacklogItem.parse({ ...old, status: data.status ?? old.status, priority: data.priority ?? old.priority, tags: data.tags ?? old.tags, notes, updated: now });
    const changed = next.status !== old.status || next.priority !== old.priority || next.notes !== old.notes || next.tags.join('\n') !== old.tags.join('\n');
    if (!changed) return { result: { item: old, changed: false } };
    const [path, text] = itemFile('backlog', next);
    const what = [next.status !== old.status ? `status ${next.status}` : '', next.priority !== old.priority ? `priority ${next.priority}` : '', note ? 'note' : '']
      .filter(Boolean)
      .join(', ');
    return {
      result: { item: next, changed: true },
      files: new Map([[path, text]]),
      subject: subjectOf('backlog', 'update', next.id, `${next.title}${what ? ` (${what})` : ''}`),
      event: next.status !== old.status ? `backlog.${next.status}` : 'backlog.updated',
    };
  });
  return written(kb, 'backlog', r);
}

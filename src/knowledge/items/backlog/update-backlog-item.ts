import { BacklogItem, BacklogUpdate, backlogSpec } from '../../../model/backlog.ts';
import { appendNote, noteEntry } from '../../../model/backlog-notes.ts';
import { AxmeError } from '../../../model/errors.ts';
import { encodeItem } from '../../../model/kind.ts';
import { LIMITS } from '../../../model/limits.ts';
import { itemPath } from '../../../model/paths.ts';
import { assertNoSecrets } from '../../../model/secrets.ts';
import { parseInput } from '../../../model/validate.ts';
import { itemFile } from '../../core/item-file.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { findItem } from '../../core/lookup.ts';
import { mutate, subjectOf } from '../../core/mutate.ts';
import type { WriteOptions } from '../../core/results.ts';
import { type EditResult, writtenResult } from '../../core/results.ts';

/**
 * Changes a backlog item's status, priority or tags and/or appends a dated note, in one commit.
 * Notes past the size limit: the oldest move to history (appendNote); a note too long alone is INVALID_INPUT.
 */
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
    const fields = { ...old, status: data.status ?? old.status, priority: data.priority ?? old.priority, tags: data.tags ?? old.tags, updated: now };
    let notes = old.notes;
    if (note) {
      // past the notes limit the oldest notes move to history: this commit's version of the file keeps them
      const room = LIMITS.fileBytes - Buffer.byteLength(encodeItem(backlogSpec, { ...fields, notes: '' })) - '\n\n## Notes\n\n'.length;
      notes = appendNote(old.notes, noteEntry(now.slice(0, 10), note), `${state.commit?.slice(0, 12)}:${itemPath('backlog', old.slug)}`, room);
    }
    const next = BacklogItem.parse({ ...fields, notes });
    const changed = next.status !== old.status || next.priority !== old.priority || next.notes !== old.notes || next.tags.join('\n') !== old.tags.join('\n');
    if (!changed) return { result: { item: old, changed: false } };
    const [path, text] = itemFile('backlog', next);
    const what = [
      next.status !== old.status ? `status ${next.status}` : '',
      next.priority !== old.priority ? `priority ${next.priority}` : '',
      note ? 'note' : '',
    ]
      .filter(Boolean)
      .join(', ');
    return {
      result: { item: next, changed: true },
      files: new Map([[path, text]]),
      subject: subjectOf('backlog', 'update', next.id, `${next.title}${what ? ` (${what})` : ''}`),
      event: next.status !== old.status ? `backlog.${next.status}` : 'backlog.updated',
    };
  });
  return writtenResult(kb, 'backlog', r);
}

import { AxmeError } from '../../../model/errors.ts';
import { Memory, MemoryUpdate } from '../../../model/memory.ts';
import { assertNoSecrets } from '../../../model/secrets.ts';
import { parseInput } from '../../../model/validate.ts';
import { itemFile } from '../../core/item-file.ts';
import { assertVersion } from '../../core/item-version.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { findItem } from '../../core/lookup.ts';
import { mutate, subjectOf } from '../../core/mutate.ts';
import { type EditResult, type WriteOptions, writtenResult } from '../../core/results.ts';

/** The fields `memory update` may change; the slug (its file) never does. */
const EDITABLE = ['type', 'title', 'description', 'body', 'keywords', 'anchors'] as const;

/**
 * Edits an active memory in place, in one commit: the fields given replace the old ones, the slug
 * and the file stay, the previous version stays in history (`axme history <slug>`). A superseded
 * or archived memory is history and is not edited. Nothing to change returns `changed: false`.
 */
export async function updateMemory(kb: KnowledgeBase, input: MemoryUpdate, opts: WriteOptions = {}): Promise<EditResult<Memory>> {
  const data = parseInput(MemoryUpdate, input, 'memory update');
  if (EDITABLE.every((f) => data[f] === undefined))
    throw new AxmeError('INVALID_INPUT', 'say what to change: --title, --description, --body, --keywords, --anchor or --type');
  assertNoSecrets({ title: data.title, description: data.description, body: data.body, keywords: data.keywords, anchors: data.anchors }, !!opts.allowSecret);
  const r = await mutate(kb, (state) => {
    const old = findItem<Memory>(state, 'memory', data.slug);
    assertVersion(state, 'memory', old, opts.base);
    if (old.status !== 'active') {
      throw new AxmeError(
        'WRONG_STATE',
        `memory ${old.slug} is ${old.status}: only an active memory is edited${old.superseded_by ? `; edit its successor ${old.superseded_by}` : ''}`,
        { slug: old.slug, status: old.status },
      );
    }
    const next = Memory.parse({ ...old, ...Object.fromEntries(EDITABLE.filter((f) => data[f] !== undefined).map((f) => [f, data[f]])) });
    const changed = EDITABLE.filter((f) => JSON.stringify(next[f]) !== JSON.stringify(old[f]));
    if (!changed.length) return { result: { item: old, changed: false } };
    const item: Memory = { ...next, updated: kb.now().toISOString() };
    const [path, text] = itemFile('memory', item);
    return {
      result: { item, changed: true },
      files: new Map([[path, text]]),
      subject: subjectOf('memory', 'update', undefined, `${item.title} (${changed.join(', ')})`),
      event: 'memory.updated',
    };
  });
  return writtenResult(kb, 'memory', r);
}

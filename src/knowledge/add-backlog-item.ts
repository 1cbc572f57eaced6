import { BacklogInput, BacklogItem, backlogSpec } from '../model/backlog.ts';
import { assertNoSecrets } from '../model/secrets.ts';
import { assertNoReservedHeading, parseInput } from '../model/validate.ts';
import type { WriteOptions } from './add-decision.ts';
import type { KnowledgeBase } from './kb.ts';
import { findDuplicate, freeSlug, locationOf, nextDisplayId, type AddResult } from './items.ts';
import { itemFile, mutate, subjectOf } from './mutate.ts';

/** Adds a backlog item (B-NNN) in one commit; an unfinished item with the same normalized title
 * is returned instead (duplicate: true). */
export async function addBacklogItem(kb: KnowledgeBase, input: BacklogInput, opts: WriteOptions = {}): Promise<AddResult<BacklogItem>> {
  const data = parseInput(BacklogInput, input, 'backlog item');
  assertNoReservedHeading('description', data.description, backlogSpec.sections.map(([h]) => h));
  assertNoSecrets({ title: data.title, description: data.description, tags: data.tags }, !!opts.allowSecret);
  const r = await mutate(kb, (state) => {
    const dup = findDuplicate(kb, state.items.backlog, data.title, (b) => b.status !== 'done');
    if (dup) return { result: { item: dup, duplicate: true } };
    const id = nextDisplayId(state, 'backlog', 'B');
    const now = kb.now().toISOString();
    const item = BacklogItem.parse({ ...data, slug: freeSlug(state, 'backlog', data.title, id.toLowerCase()), id, status: 'open', source: kb.actor, session: kb.session, created: now, updated: now });
    const [path, text] = itemFile('backlog', item);
    return { result: { item, duplicate: false }, files: new Map([[path, text]]), subject: subjectOf('backlog', 'add', id, item.title), event: 'backlog.added' };
  });
  const path = `backlog/${r.result.item.slug}.md`;
  return { ...r.result, path, location: locationOf(kb, path), commit: r.commit };
}

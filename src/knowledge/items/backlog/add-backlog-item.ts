import type { z } from 'zod';
import { BacklogInput, BacklogItem } from '../../../model/backlog.ts';
import { isLive } from '../../../model/liveness.ts';
import { assertNoSecrets } from '../../../model/secrets.ts';
import { parseInput } from '../../../model/validate.ts';
import { autoAnchors } from '../../core/auto-anchors.ts';
import { findDuplicate, freeSlug, nextDisplayId } from '../../core/identity.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { savedNow } from '../../core/learned-at.ts';
import { mutate, subjectOf } from '../../core/mutate.ts';
import type { WriteOptions } from '../../core/results.ts';
import { type AddResult, writtenResult } from '../../core/results.ts';
import { putItem, single, stage } from '../../core/staging.ts';
import { routeByScope } from '../../workspace/route-scope.ts';

/** Adds a backlog item (B-NNN) in one commit; an unfinished item with the same normalized title
 * is returned instead (duplicate: true). In a workspace, `scope` routes the write (routeByScope). */
export async function addBacklogItem(kb: KnowledgeBase, input: BacklogInput, opts: WriteOptions = {}): Promise<AddResult<BacklogItem>> {
  const data = parseInput(BacklogInput, input, 'backlog item');
  assertNoSecrets({ title: data.title, description: data.description, tags: data.tags, anchors: data.anchors }, !!opts.allowSecret);
  return routeByScope(kb, data.scope, async (target) => addTo(target, data));
}

async function addTo(kb: KnowledgeBase, data: z.output<typeof BacklogInput>): Promise<AddResult<BacklogItem>> {
  const r = await mutate(kb, (state) => {
    const st = stage(state);
    const dup = findDuplicate<BacklogItem>(kb, st, 'backlog', data.title, (b) => isLive('backlog', b));
    if (dup) return { result: { item: dup, duplicate: true } };
    const id = nextDisplayId(kb, st, 'backlog');
    const now = kb.now().toISOString();
    const anchors = data.anchors ?? autoAnchors(kb, [data.title, data.description]);
    const item = BacklogItem.parse({
      ...data,
      anchors,
      slug: freeSlug(st, 'backlog', data.title, id.toLowerCase()),
      id,
      status: 'open',
      ...savedNow(kb, now),
    });
    putItem(st, 'backlog', item, 'backlog.added', subjectOf('backlog', 'add', id, item.title));
    return single(st, { item, duplicate: false });
  });
  return writtenResult(kb, 'backlog', r);
}

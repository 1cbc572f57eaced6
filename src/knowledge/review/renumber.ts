import type { ItemBase, KindSpec } from '../../model/kind.ts';
import { ID_KINDS } from '../../model/kinds.ts';
import { itemPath, SPECS } from '../../model/paths.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { mutate } from '../core/mutate.ts';
import { renumberCollisions } from '../core/renumber-ids.ts';

/**
 * Display IDs two proposals both used. Each proposal numbers its items from the knowledge it
 * started from, and the host merges them as files, so two merged proposals can each bring a
 * D-001. After adopting the reviewed branch, the later item takes the next free number and keeps
 * the old one as an alias, in one commit, as a sync merge does. Returns what was renumbered.
 */
export async function renumberAdopted(kb: KnowledgeBase): Promise<Array<{ path: string; from: string; to: string }>> {
  const r = await mutate({ ...kb, actor: 'sync' }, (state) => {
    const files = new Map<string, string>();
    const done: Array<{ path: string; from: string; to: string }> = [];
    for (const kind of ID_KINDS) {
      const spec = SPECS[kind] as unknown as KindSpec<ItemBase>;
      const items = (state.items[kind] as Array<ItemBase & { id: string; aliases?: string[] }>).map((item) => ({ path: itemPath(kind, item.slug), item }));
      for (const x of renumberCollisions(spec, items)) {
        files.set(x.path, x.text);
        done.push({ path: x.path, from: x.from, to: x.to });
      }
    }
    if (!done.length) return { result: done };
    return {
      result: done,
      files,
      subject: 'review: renumber display IDs two adopted proposals both used',
      event: 'review.renumbered',
      body: done.map((d) => `Renumbered ${d.from} -> ${d.to} (${d.path}): another adopted proposal used the ID.`).join('\n'),
    };
  });
  return r.result;
}

import type { ItemBase, KindSpec } from '../../model/kind.ts';
import { ID_KINDS } from '../../model/kinds.ts';
import { itemPath, SPECS } from '../../model/paths.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { mutate } from '../core/mutate.ts';
import { renumberCollisions } from '../core/renumber-ids.ts';
import { readState } from '../core/state.ts';

/**
 * Display IDs two proposals both used. Each proposal numbers its items from the knowledge it
 * started from, and the host merges them as files, so two merged proposals can each bring a
 * D-001. After adopting the reviewed branch, each item that held its ID before the adoption
 * (`before`: this clone's tip then) keeps it, and of the adopted newcomers the later takes the next
 * free number and keeps the old one as an alias, in one commit, as a sync merge does. Returns what
 * was renumbered.
 */
export async function renumberAdopted(kb: KnowledgeBase, before: string | null): Promise<Array<{ path: string; from: string; to: string }>> {
  // the items and IDs held before the adoption: read once, for every kind
  const was = before ? await readState(kb, before) : null;
  const held = new Set(
    ID_KINDS.flatMap((kind) => ((was?.items[kind] ?? []) as Array<ItemBase & { id: string }>).map((item) => `${itemPath(kind, item.slug)} ${item.id}`)),
  );
  const r = await mutate({ ...kb, actor: 'sync' }, (state) => {
    const files = new Map<string, string>();
    const done: Array<{ path: string; from: string; to: string }> = [];
    for (const kind of ID_KINDS) {
      const spec = SPECS[kind] as unknown as KindSpec<ItemBase>;
      const items = (state.items[kind] as Array<ItemBase & { id: string; aliases?: string[] }>).map((item) => ({ path: itemPath(kind, item.slug), item }));
      const ids = new Map(items.map((e) => [e.path, e.item.id]));
      for (const x of renumberCollisions(spec, items, (path) => (held.has(`${path} ${ids.get(path)}`) ? 0 : 1))) {
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

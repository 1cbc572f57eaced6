import { classifyPath } from '../../model/paths.ts';
import { recordRenumbered } from '../../session/renumbered.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { readState } from '../core/state.ts';

/**
 * Keeps, for the sessions open in this clone, the display IDs a merge of this clone's just
 * changed (session/renumbered.ts): each with its item's title at `commit`, the merge's. Their next
 * prompt is told the old ID now names another item. A failure is swallowed: the merge stands, and
 * the sync's own text says what was renumbered.
 */
export async function keepRenumbered(kb: KnowledgeBase, commit: string, renumbered: ReadonlyArray<{ path: string; from: string; to: string }>): Promise<void> {
  if (!renumbered.length) return;
  try {
    const state = await readState(kb, commit);
    const titles = new Map<string, string>();
    for (const r of renumbered) {
      const c = classifyPath(r.path);
      if (c.type !== 'item') continue;
      const item = (state.items[c.spec.kind] as ReadonlyArray<{ slug: string; title?: string }>).find((i) => i.slug === c.slug);
      if (item?.title) titles.set(r.path, item.title);
    }
    recordRenumbered(
      kb.repo.commonDir,
      renumbered.map((r) => ({ ...r, title: titles.get(r.path) ?? '' })),
      kb.now(),
    );
  } catch {
    // the record is a courtesy to open sessions; the merge and its text stand without it
  }
}

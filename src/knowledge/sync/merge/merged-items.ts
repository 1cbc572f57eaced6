import { decodeItem, type ItemBase, type KindSpec } from '../../../model/kind.ts';
import type { IdKind } from '../../../model/kinds.ts';
import { SPECS } from '../../../model/paths.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { parseSnapshot } from '../../core/state.ts';
import type { MergeInput, MergePlan } from './merge-plan.ts';

/** An item of an ID kind in the merged tree, at its path. */
export type MergedItem = { path: string; item: ItemBase & { id: string; aliases?: string[] } };

/** The merged tree's items of an ID kind: each from the plan's changes, else ours. */
export async function mergedItems(kb: KnowledgeBase, input: MergeInput, plan: MergePlan, kind: IdKind): Promise<MergedItem[]> {
  const spec = SPECS[kind] as unknown as KindSpec<ItemBase>;
  const out: MergedItem[] = [];
  // ours through the parse cache: a store of 10,000 items is not decoded again for every merge
  const state = await parseSnapshot(kb, input.ours);
  for (const item of state.items[kind] as Array<ItemBase & { id: string; aliases?: string[] }>) {
    const path = `${spec.dir}/${item.slug}.md`;
    if (!plan.changes.has(path)) out.push({ path, item });
  }
  for (const [path, buf] of plan.changes) {
    if (!buf || !path.startsWith(`${spec.dir}/`) || !path.endsWith('.md')) continue;
    const d = decodeItem(spec, path.slice(spec.dir.length + 1, -3), buf.toString('utf8'));
    if (d.ok) out.push({ path, item: d.item as ItemBase & { id: string } });
  }
  return out;
}

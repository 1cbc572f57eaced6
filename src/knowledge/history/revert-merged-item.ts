import { decodeItem, encodeItem, type ItemBase, type KindSpec } from '../../model/kind.ts';
import { classifyPath } from '../../model/paths.ts';
import { mergeValues } from '../sync/merge/values.ts';

export type MergedRevert = { ok: true; text: string } | { ok: false; fields: string[] };

/**
 * An item file a revert puts back although a merge after the reverted commit brought the other
 * side's change of it: a three-way merge of its fields with the reverted commit's version as the
 * base, the tip's as ours and the version before the commit as theirs — so the fields the commit
 * changed go back, and the fields only the other side changed keep its change. Text fields combine
 * by diff3, lists by their additions and removals; `updated` keeps the tip's. A field both the
 * commit and the other side changed cannot be undone this way (`fields` names it), nor a file that
 * is not an item or does not parse on one side.
 */
export function revertMergedItem(path: string, before: string | null, after: string | null, tip: string | null): MergedRevert {
  const c = classifyPath(path);
  if (c.type !== 'item' || before === null || after === null || tip === null) return { ok: false, fields: ['(the whole file)'] };
  const spec = c.spec as unknown as KindSpec<ItemBase>;
  const [b, a, t] = [before, after, tip].map((text) => decodeItem(spec, c.slug, text));
  if (!b!.ok || !a!.ok || !t!.ok) return { ok: false, fields: ['(the file does not parse)'] };
  const r = mergeValues(a!.item, t!.item, b!.item, {
    textFields: new Set([spec.lead, ...spec.sections.map(([, f]) => f), ...(spec.prose ?? [])]),
    appendFields: new Set(),
    winner: 'ours',
    special: (key, ours) => (key === 'updated' ? { value: ours, rule: 'later' } : null),
  });
  const clashed = r.clashes.filter((x) => x.field !== 'updated' && x.rule !== 'combined').map((x) => x.field);
  if (clashed.length || r.conflicts.length) return { ok: false, fields: [...new Set([...clashed, ...r.conflicts])] };
  const parsed = spec.schema.safeParse(r.value);
  if (!parsed.success) return { ok: false, fields: ['(the combined fields are not a valid item)'] };
  return { ok: true, text: encodeItem(spec, parsed.data) };
}

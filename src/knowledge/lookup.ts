import { AxmeError } from '../model/errors.ts';
import { parseId } from '../model/ids.ts';
import type { ItemBase, KindName } from '../model/kind.ts';
import { isSlug } from '../model/slug.ts';
import type { KnowledgeState } from './state.ts';

const LIST_COMMAND: Record<KindName, string> = {
  decision: 'axme decision list',
  memory: 'axme memory list',
  backlog: 'axme backlog list',
  question: 'axme question list --all',
  plan: 'axme log',
  handoff: 'axme log',
  session: 'axme log',
  oracle: 'axme log',
};

/**
 * The item a user reference names: a slug, a display ID (D-007, case-insensitive) or an alias.
 * Checked at the boundary: anything else (paths, `..`) is INVALID_INPUT, a miss is NOT_FOUND.
 */
export function findItem<T extends ItemBase>(state: KnowledgeState, kind: KindName, ref: string): T {
  const items = state.items[kind] as unknown as T[];
  const want = ref.trim();
  const id = parseId(want);
  if (id) {
    const norm = want.toUpperCase();
    const byId = items.find((i) => (i as { id?: string }).id === norm) ?? items.find((i) => ((i as { aliases?: string[] }).aliases ?? []).includes(norm));
    if (byId) return byId;
    // a memory titled "D-042" has the slug d-042
    const bySlug = items.find((i) => i.slug === want.toLowerCase());
    if (bySlug) return bySlug;
  } else if (!isSlug(want)) {
    throw new AxmeError('INVALID_INPUT', `${JSON.stringify(want.slice(0, 80))} is neither an ID (like D-001) nor a slug (lowercase letters, digits, dashes)`, { ref: want });
  } else {
    const bySlug = items.find((i) => i.slug === want);
    if (bySlug) return bySlug;
  }
  const near = closest(items as unknown as Array<ItemBase & { id?: string; title?: string; question?: string }>, want);
  const hint = near.length ? `; closest: ${near.map((i) => `${i.id ? `${i.id} ` : ''}${i.slug}`).join(', ')}` : '';
  throw new AxmeError('NOT_FOUND', `no ${kind} ${want}${state.commit ? '' : ' (the store is empty)'}${hint}. \`${LIST_COMMAND[kind]}\` shows what there is`, { kind, ref: want, closest: near.map((i) => i.slug) });
}

/** Up to three items whose slug, ID or title look most like `ref` (bigram overlap). */
function closest<T extends ItemBase & { id?: string; title?: string; question?: string }>(items: T[], ref: string): T[] {
  const want = bigrams(ref);
  if (want.size === 0) return [];
  const score = (s: string) => {
    const b = bigrams(s);
    let common = 0;
    for (const g of want) if (b.has(g)) common++;
    return (2 * common) / (want.size + b.size || 1);
  };
  return items
    .map((i) => ({ i, s: Math.max(score(i.slug), score(i.id ?? ''), score(i.title ?? i.question ?? '')) }))
    .filter((x) => x.s >= 0.4)
    .sort((a, b) => b.s - a.s)
    .slice(0, 3)
    .map((x) => x.i);
}

function bigrams(s: string): Set<string> {
  const t = s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
  const out = new Set<string>();
  for (let i = 0; i + 1 < t.length; i++) out.add(t.slice(i, i + 2));
  return out;
}

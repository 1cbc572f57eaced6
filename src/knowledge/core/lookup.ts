import { AxmeError } from '../../model/errors.ts';
import { normalId } from '../../model/ids.ts';
import type { ItemBase, KindName } from '../../model/kind.ts';
import { itemPath, SPECS } from '../../model/paths.ts';
import { isSlug } from '../../model/slug.ts';
import { type MergedState, storeOf } from './merged-state.ts';
import type { KnowledgeState } from './state.ts';

/**
 * The item a user reference names: a slug, a display ID (D-007, case-insensitive) or an alias.
 * Checked at the boundary: anything else (paths, `..`) is INVALID_INPUT. Never a silent pick or
 * a false "missing": an ID or alias that several files carry is AMBIGUOUS (naming them), a
 * reference to a file that does not parse is CORRUPT (with the parse error), a miss is NOT_FOUND.
 */
export function findItem<T extends ItemBase>(state: KnowledgeState, kind: KindName, ref: string): T {
  const items = state.items[kind] as unknown as T[];
  const want = ref.trim();
  // D-001 however its number is padded (D-1, d-0001)
  const norm = normalId(want);
  if (norm) {
    const byId = theOne(
      state,
      kind,
      norm,
      'display ID',
      items.filter((i) => (i as { id?: string }).id === norm),
    );
    if (byId) return byId;
    const byAlias = theOne(
      state,
      kind,
      norm,
      'alias',
      items.filter((i) => ((i as { aliases?: string[] }).aliases ?? []).includes(norm)),
    );
    if (byAlias) return byAlias;
    // a memory titled "D-042" has the slug d-042
    const bySlug = items.find((i) => i.slug === want.toLowerCase());
    if (bySlug) return bySlug;
  } else if (!isSlug(want)) {
    throw new AxmeError('INVALID_INPUT', `${JSON.stringify(want.slice(0, 80))} is neither an ID (like D-001) nor a slug (lowercase letters, digits, dashes)`, {
      ref: want,
    });
  } else {
    const bySlug = items.find((i) => i.slug === want);
    if (bySlug) return bySlug;
  }
  const broken = brokenFile(state, kind, want, norm);
  if (broken) {
    throw new AxmeError(
      'CORRUPT',
      `${kind} ${want} is ${broken.path}, which axme cannot read: ${broken.reason}. Fix the file by hand (docs/storage.md, "Editing the store by hand"; \`axme history ${broken.path}\` shows its earlier versions), then check with \`axme fsck\``,
      { kind, ref: want, path: broken.path, reason: broken.reason },
    );
  }
  const near = closest(items as unknown as Array<ItemBase & { id?: string; title?: string; question?: string }>, want);
  const hint = near.length ? `; closest: ${near.map((i) => `${i.id ? `${i.id} ` : ''}${i.slug}`).join(', ')}` : '';
  throw new AxmeError(
    'NOT_FOUND',
    `no ${kind} ${want}${state.commit ? '' : ' (the store is empty)'}${hint}. \`${SPECS[kind].listCommand}\` shows what there is`,
    { kind, ref: want, closest: near.map((i) => i.slug) },
  );
}

/**
 * The one item among `hits` (all carrying `label` as their display ID or alias), undefined when
 * none. Several: in a workspace view the repository's own item wins over the workspace store's
 * (each store numbers its own); several in one store is AMBIGUOUS, naming every file.
 */
function theOne<T extends ItemBase>(state: KnowledgeState, kind: KindName, label: string, what: string, hits: T[]): T | undefined {
  if (hits.length <= 1) return hits[0];
  const own = hits.filter((i) => !storeOf(state as MergedState, i));
  const same = own.length ? own : hits;
  if (same.length === 1) return same[0];
  const paths = same.map((i) => `${storeOf(state as MergedState, i) ? `${storeOf(state as MergedState, i)}: ` : ''}${itemPath(kind, i.slug, i.created)}`);
  const fix =
    what === 'display ID'
      ? `give the others new IDs: edit their \`id:\` to the next free number and keep ${label} in their \`aliases\` (docs/storage.md, "Editing the store by hand")`
      : `remove ${label} from the \`aliases\` of all but one`;
  throw new AxmeError(
    'AMBIGUOUS',
    `${label} is the ${what} of ${same.length} ${SPECS[kind].dir}: ${paths.join(', ')} (two files carry one ID, e.g. after a merge by hand). Name the one you mean by its slug (${same.map((i) => i.slug).join(' or ')}), and ${fix}; \`axme fsck\` lists every such problem`,
    { kind, ref: label, paths, slugs: same.map((i) => i.slug) },
  );
}

/** The broken file of a kind a reference seems to name (by the ID it holds, or by its slug), with its parse error. */
function brokenFile(state: KnowledgeState, kind: KindName, want: string, id: string | null): { path: string; reason: string } | null {
  const files = state.brokenFiles?.[kind] ?? [];
  const slug = want.toLowerCase();
  const hit = (id ? files.find((f) => f.id === id) : undefined) ?? files.find((f) => f.path.slice(f.path.lastIndexOf('/') + 1) === `${slug}.md`);
  if (!hit) return null;
  const reason = state.diagnostics.find((d) => d.path === hit.path && !d.store)?.reason ?? 'the file does not parse';
  return { path: hit.path, reason };
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
  const t = s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  const out = new Set<string>();
  for (let i = 0; i + 1 < t.length; i++) out.add(t.slice(i, i + 2));
  return out;
}

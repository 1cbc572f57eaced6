import { ANCHORED_KINDS } from '../../../model/anchor.ts';
import type { SearchKind } from '../../../model/kinds.ts';
import { isLive } from '../../../model/liveness.ts';
import { itemPath } from '../../../model/paths.ts';
import { type MergedState, storeOf } from '../../core/merged-state.ts';
import type { ItemsByKind } from '../../core/state.ts';
import type { Source } from './build-index.ts';
import { glossaryGroups } from './synonyms.ts';

/** The first line of `text`, at most `max` characters. */
const firstLine = (text: string, max = 120) => text.trim().split('\n')[0]!.slice(0, max);

/** An item's tags with its display ID (`D-002`: found by `axme search D-002`, whole and in any case), when it has one. */
const withId = (keys: readonly string[], id: string | undefined) => (id ? [...keys, id] : keys);

/** What search reads of one item: its title, text by field, whether it is current, its store and successor. */
type Described = Pick<Source, 'title' | 'parts' | 'current' | 'store' | 'supersededBy'>;

/**
 * How each searchable kind is read, in index order (a new searchable kind fails to compile until
 * it has its line). Handoffs and session summaries tell what happened, not what holds now: ranked
 * as items no longer current.
 */
const DESCRIBE = {
  decision: (d, state) => ({
    title: d.title,
    parts: { title: [d.title], keys: withId(d.tags, d.id), anchors: d.anchors, body: [d.decision, d.reasoning] },
    current: isLive('decision', d),
    store: storeOf(state, d),
    supersededBy: d.superseded_by,
  }),
  memory: (m, state) => ({
    title: m.title,
    parts: { title: [m.title], keys: m.keywords, anchors: m.anchors, body: [m.description, m.body] },
    current: isLive('memory', m),
    store: storeOf(state, m),
  }),
  backlog: (b) => ({
    title: b.title,
    parts: { title: [b.title], keys: withId(b.tags, b.id), anchors: b.anchors, body: [b.description, b.notes] },
    current: isLive('backlog', b),
  }),
  question: (q) => ({
    title: firstLine(q.question, 300),
    parts: { title: [q.question], keys: withId([], q.id), anchors: [], body: [q.context, q.answer] },
    current: isLive('question', q),
  }),
  handoff: (h) => ({
    title: firstLine(h.stopped_at || h.summary) || `Handoff of ${h.slug}`,
    parts: { title: [h.stopped_at], keys: [], anchors: h.dirty_branches, body: [h.summary, h.in_progress, h.next_steps, h.test_results, h.blockers] },
    current: false,
  }),
  session: (s) => ({
    title: firstLine(s.worklog) || `Session ${s.slug}`,
    parts: { title: [], keys: [], anchors: s.files_changed, body: [s.worklog] },
    current: false,
  }),
  oracle: (p, state) => ({
    title: p.title ?? p.slug,
    parts: { title: [p.title ?? p.slug], keys: [], anchors: p.anchors, body: [p.body] },
    current: true,
    store: storeOf(state, p),
  }),
} satisfies { [K in SearchKind]: (item: ItemsByKind[K][number], state: MergedState) => Described };

/** The searchable kinds in the order the index lays out their items (not model/search-kinds.ts SEARCH_KINDS, the order of the surfaces' lists: changing this one renumbers every index). */
export const INDEX_ORDER = Object.keys(DESCRIBE) as SearchKind[];

/** The items of a state search looks through (every searchable kind), in index order, as `Source`s (cheap: no tokenizing). */
export function sourcesOf(state: MergedState): Source[] {
  const out: Source[] = [];
  for (const kind of INDEX_ORDER) for (const item of state.items[kind]) out.push(sourceOf(state, kind, item));
  return out;
}

/** One item of `state` as search reads it. */
export function sourceOf(state: MergedState, kind: SearchKind, item: ItemsByKind[SearchKind][number]): Source {
  const describe = DESCRIBE[kind] as (item: ItemsByKind[SearchKind][number], state: MergedState) => Described;
  // the keys in the order a document's print has always read them
  const { title, ...rest } = describe(item, state);
  return { kind, item, title, path: itemPath(kind, item.slug, item.created), ...rest };
}

/** The item lists of `state` search reads, one a searchable kind in index order: the documents follow them, list after list. */
export const searchLists = (state: MergedState): ReadonlyArray<ReadonlyArray<ItemsByKind[SearchKind][number]>> => INDEX_ORDER.map((k) => state.items[k]);

/** The glossary oracle page's synonym groups (search treats its terms as one another's synonyms). */
export function glossaryOf(state: MergedState): string[][] {
  return state.items.oracle.filter((p) => p.slug === 'glossary').flatMap((p) => glossaryGroups(p.body));
}

/** True for an item (its source or document) of a kind `axme verify` compares, with anchors. */
export const isAnchored = (s: Pick<Source, 'kind' | 'parts'>): boolean => (ANCHORED_KINDS as readonly string[]).includes(s.kind) && s.parts.anchors.length > 0;

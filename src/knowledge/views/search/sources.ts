import { ANCHORED_KINDS } from '../../../model/anchor.ts';
import { isLive } from '../../../model/liveness.ts';
import { itemPath } from '../../../model/paths.ts';
import { type MergedState, storeOf } from '../../core/merged-state.ts';
import type { Source } from './build-index.ts';
import { glossaryGroups } from './synonyms.ts';

/** The first line of `text`, at most `max` characters. */
const firstLine = (text: string, max = 120) => text.trim().split('\n')[0]!.slice(0, max);

/**
 * The items of a state search looks through (every kind of SEARCH_KINDS), in index order, as
 * `Source`s: title, path, text by field, marks (cheap: no tokenizing). Handoffs and session
 * summaries tell what happened, not what holds now: ranked as items no longer current.
 */
export function sourcesOf(state: MergedState): Source[] {
  const { items } = state;
  const out: Source[] = [];
  const path = (kind: Source['kind'], item: Source['item']) => itemPath(kind, item.slug, item.created);
  for (const d of items.decision)
    out.push({
      kind: 'decision',
      item: d,
      title: d.title,
      path: path('decision', d),
      parts: { title: [d.title], keys: d.tags, anchors: d.anchors, body: [d.decision, d.reasoning] },
      current: isLive('decision', d),
      store: storeOf(state, d),
      supersededBy: d.superseded_by,
    });
  for (const m of items.memory)
    out.push({
      kind: 'memory',
      item: m,
      title: m.title,
      path: path('memory', m),
      parts: { title: [m.title], keys: m.keywords, anchors: m.anchors, body: [m.description, m.body] },
      current: isLive('memory', m),
      store: storeOf(state, m),
    });
  for (const b of items.backlog)
    out.push({
      kind: 'backlog',
      item: b,
      title: b.title,
      path: path('backlog', b),
      parts: { title: [b.title], keys: b.tags, anchors: b.anchors, body: [b.description, b.notes] },
      current: isLive('backlog', b),
    });
  for (const q of items.question)
    out.push({
      kind: 'question',
      item: q,
      title: firstLine(q.question, 300),
      path: path('question', q),
      parts: { title: [q.question], keys: [], anchors: [], body: [q.context, q.answer] },
      current: isLive('question', q),
    });
  for (const h of items.handoff)
    out.push({
      kind: 'handoff',
      item: h,
      title: firstLine(h.stopped_at || h.summary) || `Handoff of ${h.slug}`,
      path: path('handoff', h),
      parts: { title: [h.stopped_at], keys: [], anchors: h.dirty_branches, body: [h.summary, h.in_progress, h.next_steps, h.test_results, h.blockers] },
      current: false,
    });
  for (const s of items.session)
    out.push({
      kind: 'session',
      item: s,
      title: firstLine(s.worklog) || `Session ${s.slug}`,
      path: path('session', s),
      parts: { title: [], keys: [], anchors: s.files_changed, body: [s.worklog] },
      current: false,
    });
  for (const p of items.oracle)
    out.push({
      kind: 'oracle',
      item: p,
      title: p.title ?? p.slug,
      path: path('oracle', p),
      parts: { title: [p.title ?? p.slug], keys: [], anchors: p.anchors, body: [p.body] },
      current: true,
      store: storeOf(state, p),
    });
  return out;
}

/** The glossary oracle page's synonym groups (search treats its terms as one another's synonyms). */
export function glossaryOf(state: MergedState): string[][] {
  return state.items.oracle.filter((p) => p.slug === 'glossary').flatMap((p) => glossaryGroups(p.body));
}

/** True when some item of a kind `axme verify` compares has anchors: a search must then look its staleness up. */
export function hasAnchoredItems(sources: readonly Source[]): boolean {
  return sources.some((s) => (ANCHORED_KINDS as readonly string[]).includes(s.kind) && s.parts.anchors.length > 0);
}

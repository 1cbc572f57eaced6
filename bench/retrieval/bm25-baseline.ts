// The search of axme before issue 22 part 3, kept as the baseline of bench/retrieval.bench.ts:
// BM25 over one bag of words per item (titles and keywords counted twice), a hand-made plural
// trim, superseded decisions lifting their successor. A copy of src/knowledge/views/search.ts at
// b904a3c with its input parsing left out; do not improve it.

import type { KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { type MergedState, readMergedState, storeOf } from '../../src/knowledge/core/merged-state.ts';
import type { SearchHit as CurrentHit } from '../../src/knowledge/views/search.ts';
import type { KindName } from '../../src/model/kind.ts';
import { isLive } from '../../src/model/liveness.ts';
import { itemPath } from '../../src/model/paths.ts';

/** The hit of today's search, without the staleness the old one did not know. */
export type SearchHit = Omit<CurrentHit, 'stale' | 'stale_reason'>;

interface Doc {
  kind: KindName;
  id: string | null;
  slug: string;
  title: string;
  status: string;
  current: boolean;
  text: string;
  tf: Map<string, number>;
  len: number;
  supersededBy?: string | undefined;
  /** the workspace store the item comes from, when not this repository's */
  store?: string | undefined;
}

interface Index {
  docs: Doc[];
  /** term -> the documents that hold it (its document frequency is the list's length) */
  postings: Map<string, Doc[]>;
  avgLen: number;
}

const STOP = new Set('a an and are as at be by for from has have in is it its of on or that the this to was were will with use using'.split(' '));

/** Lowercase words, accents folded, stop words dropped, a plural `s` trimmed. */
export function tokenize(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      // a lone digit is kept: it tells svc-5 from svc-6
      .filter((w) => (w.length > 1 || (w >= '0' && w <= '9')) && !STOP.has(w))
      .map((w) => (w.length > 4 && w.endsWith('ies') ? `${w.slice(0, -3)}y` : w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w))
  );
}

function docOf(
  kind: KindName,
  fields: {
    id?: string | undefined;
    slug: string;
    title: string;
    status: string;
    current: boolean;
    weighted: string[];
    plain: string[];
    supersededBy?: string | undefined;
    store?: string | null;
  },
): Doc {
  // Titles and keywords count twice: they are what an item is about.
  const text = [...fields.weighted, ...fields.plain].join('\n');
  const tokens = [...fields.weighted.flatMap(tokenize), ...fields.weighted.flatMap(tokenize), ...fields.plain.flatMap(tokenize)];
  const tf = new Map<string, number>();
  for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
  const doc: Doc = {
    kind,
    id: fields.id ?? null,
    slug: fields.slug,
    title: fields.title,
    status: fields.status,
    current: fields.current,
    text,
    tf,
    len: tokens.length,
    supersededBy: fields.supersededBy,
  };
  if (fields.store) doc.store = fields.store;
  return doc;
}

/**
 * The search index of a state. Each item's document is kept by the item object (parsed items
 * are shared between states: after a write only the changed items are tokenized again), so a
 * new tip costs one pass over the documents, not a re-tokenization of the store.
 */
function buildIndex(kb: KnowledgeBase, state: MergedState, kinds: Set<KindName>): Index {
  const docs: Doc[] = [];
  const { items } = state;
  const docOfItem = kb.cache.perObject<Doc>('bm25-baseline-doc');
  const cached = <T extends object>(item: T, make: () => Doc): Doc => {
    let d = docOfItem.get(item);
    if (!d) docOfItem.set(item, (d = make()));
    return d;
  };
  if (kinds.has('decision'))
    for (const d of items.decision)
      docs.push(
        cached(d, () =>
          docOf('decision', {
            id: d.id,
            slug: d.slug,
            title: d.title,
            status: d.status,
            current: isLive('decision', d),
            weighted: [d.title, ...d.tags],
            plain: [d.decision, d.reasoning, ...d.anchors],
            supersededBy: d.superseded_by,
            store: storeOf(state, d),
          }),
        ),
      );
  if (kinds.has('memory'))
    for (const m of items.memory)
      docs.push(
        cached(m, () =>
          docOf('memory', {
            slug: m.slug,
            title: m.title,
            status: m.status,
            current: isLive('memory', m),
            weighted: [m.title, ...m.keywords],
            plain: [m.description, m.body],
            store: storeOf(state, m),
          }),
        ),
      );
  if (kinds.has('backlog'))
    for (const b of items.backlog)
      docs.push(
        cached(b, () =>
          docOf('backlog', {
            id: b.id,
            slug: b.slug,
            title: b.title,
            status: b.status,
            current: isLive('backlog', b),
            weighted: [b.title, ...b.tags],
            plain: [b.description, b.notes],
          }),
        ),
      );
  if (kinds.has('question'))
    for (const q of items.question)
      docs.push(
        cached(q, () =>
          docOf('question', {
            id: q.id,
            slug: q.slug,
            title: q.question.split('\n')[0]!,
            status: q.status,
            current: isLive('question', q),
            weighted: [q.question],
            plain: [q.context, q.answer],
          }),
        ),
      );
  const postings = new Map<string, Doc[]>();
  let total = 0;
  for (const d of docs) {
    total += d.len;
    for (const t of d.tf.keys()) {
      const list = postings.get(t);
      if (list) list.push(d);
      else postings.set(t, [d]);
    }
  }
  return { docs, postings, avgLen: docs.length ? total / docs.length : 1 };
}

/**
 * BM25 over titles, bodies and keywords. The index is derived from the tree and kept per tree
 * OID. Items that are no longer current rank lower, and a superseded decision never ranks above
 * the decision that replaced it (which is brought in when only the old one matched).
 */
export async function baselineSearch(
  kb: KnowledgeBase,
  input: { query: string; k: number; type?: 'all' | KindName; at?: string },
): Promise<{ hits: SearchHit[]; commit: string; total: number }> {
  const { query, k, type } = input;
  const state = await readMergedState(kb, input.at);
  const kinds = new Set<KindName>(type === 'all' ? ['decision', 'memory', 'backlog', 'question'] : type ? [type] : ['decision', 'memory']);
  const key = `bm25-baseline:${state.snapshot.tree}:${state.workspace?.commit ?? ''}:${[...kinds].sort().join(',')}`;
  let index = kb.cache.recall<Index>(key);
  if (!index) index = kb.cache.remember(key, buildIndex(kb, state, kinds));
  const terms = [...new Set(tokenize(query))];
  if (terms.length === 0) return { hits: [], commit: state.commit!, total: 0 };
  const N = index.docs.length;
  const k1 = 1.2;
  const b = 0.75;
  // BM25 summed term by term over each term's postings: only documents holding a term are touched
  const sums = new Map<Doc, number>();
  for (const t of terms) {
    const holders = index.postings.get(t) ?? [];
    const idf = Math.log(1 + (N - holders.length + 0.5) / (holders.length + 0.5));
    for (const d of holders) {
      const f = d.tf.get(t)!;
      sums.set(d, (sums.get(d) ?? 0) + (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.len) / index.avgLen)));
    }
  }
  const scored = new Map<Doc, number>();
  for (const [d, s] of sums) if (s > 0) scored.set(d, d.current ? s : s * 0.5);
  // A superseded decision never outranks its successor: lift (or bring in) the current one.
  const via = new Map<Doc, string>();
  const bySlug = new Map(index.docs.filter((d) => d.kind === 'decision').map((d) => [d.slug, d]));
  for (const [d, s] of [...scored]) {
    let succ = d.supersededBy ? bySlug.get(d.supersededBy) : undefined;
    for (let hops = 0; succ?.supersededBy && hops < 50; hops++) succ = bySlug.get(succ.supersededBy) ?? succ;
    if (succ && (scored.get(succ) ?? 0) <= s) {
      scored.set(succ, s * 1.0001 + 1e-9);
      if (!via.has(succ)) via.set(succ, d.slug);
    }
  }
  const ranked = [...scored].sort((x, y) => y[1] - x[1] || (x[0].slug < y[0].slug ? -1 : 1)).slice(0, k);
  const hits = ranked.map(([d, score]): SearchHit => {
    const path = itemPath(d.kind, d.slug);
    const citation = d.store ? `git:${state.workspace!.commit}:${path} (in ${d.store})` : `git:${state.commit}:${path}`;
    const hit: SearchHit = {
      kind: d.kind,
      id: d.id,
      slug: d.slug,
      title: d.title,
      status: d.status,
      score: Math.round(score * 1000) / 1000,
      snippet: snippet(d.text, terms),
      path,
      citation,
    };
    if (d.store) hit.store = d.store;
    const v = via.get(d);
    if (v) hit.via = v;
    return hit;
  });
  return { hits, commit: state.commit!, total: scored.size };
}

/** The line of `text` with the most query terms, trimmed to ~200 characters around the first one. */
function snippet(text: string, terms: string[]): string {
  let best = '';
  let bestScore = -1;
  for (const line of text.split('\n')) {
    const toks = new Set(tokenize(line));
    const s = terms.filter((t) => toks.has(t)).length;
    if (s > bestScore && line.trim()) [best, bestScore] = [line.trim(), s];
  }
  if (best.length <= 200) return best;
  const low = best.toLowerCase();
  const at = Math.max(0, Math.min(...terms.map((t) => low.indexOf(t)).filter((i) => i >= 0), best.length) - 60);
  return `${at > 0 ? '…' : ''}${best.slice(at, at + 200)}…`;
}

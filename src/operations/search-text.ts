import { refOf } from '../knowledge/views/recall-prompt.ts';
import { tokenize } from '../knowledge/views/search/analyze.ts';
import type { SearchHit } from '../knowledge/views/search/hits.ts';
import { KINDS } from '../model/kinds.ts';
import { SEARCH_LIMIT_FLAG, type SearchType } from '../model/search-kinds.ts';
import { textOf } from './lines.ts';

// No zod here: the CLI's query at the tip (cli/tip-search-main.ts) prints through these too.

/** What a search found, as its surfaces print it (`meaning`: with an embedder in force, whether its ranking was fused and why not). */
export type Found = {
  hits: SearchHit[];
  commit: string;
  total: number;
  query: string;
  type: SearchType;
  meaning?: { embedder: string; fused: boolean; lacking: number; partial?: string; reason?: string };
};

/**
 * What an empty result says: that the query holds no word search looks for, or that nothing matched where it looked; and
 * what to try next (`allKinds`: how this surface asks for every kind).
 */
export function noMatches(query: string, type: SearchType, allKinds: string): string {
  if (!tokenize(query).length)
    return `"${query}" has no word search looks for (stop words such as "the", punctuation, symbols and single letters are left out). Give a name, a file or a word from a title.`;
  const wider = type === 'all' ? '' : `, or every kind (${allKinds})`;
  return `No matches for "${query}" in ${type === 'all' ? 'any kind' : KINDS[type].plural}. Try fewer or other words (a name, a file, a word from a title)${wider}.`;
}

/** The status shown beside a hit: none when it is current or its kind has none. */
const statusOf = (h: SearchHit) => (h.status && h.status !== 'active' ? ` [${h.status}]` : '');

/** The marks after a hit's title: what it replaces, and a stale mark (never served silently as current). */
const marksOf = (h: SearchHit) => `${h.via ? ` (replaces ${h.via})` : ''}${h.stale ? ` (may be outdated${h.stale_reason ? `: ${h.stale_reason}` : ''})` : ''}`;

/** `axme search`'s text: one line per hit (score, kind, ID or slug, title, status when not current, marks, citation last). */
export function searchLines(r: Found): string {
  return textOf(
    r.hits.length
      ? r.hits.map((h) => `${h.score.toFixed(3)}  ${h.kind}  ${refOf(h)}  ${h.title}${statusOf(h)}${marksOf(h)}  ${h.citation}`)
      : [noMatches(r.query, r.type, '--type all')],
  );
}

/** What `axme search` says on stderr when it prints fewer hits than matched (its text has no total), or null. */
export function moreHitsNote(r: Pick<Found, 'hits' | 'total'>): string | null {
  return r.hits.length && r.hits.length < r.total
    ? `axme: ${r.hits.length} of ${r.total} matches shown; --${SEARCH_LIMIT_FLAG} ${r.total} shows them all`
    : null;
}

/** `axme search --json`: the hits, commit and total. */
export const searchJson = ({ query: _q, type: _t, ...r }: Found) => r;

/** The MCP tool's text: numbered hits with their snippet and citation. */
export function searchText(r: Found): string {
  const lines = r.hits.map(
    (h, i) => `${i + 1}. ${refOf(h)} ${h.title} [${h.kind}${statusOf(h) ? `, ${h.status}` : ''}]${marksOf(h)}\n   ${h.snippet}\n   ${h.citation}`,
  );
  const m = r.meaning;
  const note = !m
    ? ''
    : !m.fused
      ? `\n(ranked by words alone: ${m.reason})`
      : m.partial
        ? `\n(ranked by meaning over ${m.partial}, the others by their words: ${m.reason ?? 'they have no vector yet'})`
        : '';
  return (r.hits.length ? `# ${r.hits.length} of ${r.total} matches for "${r.query}"\n${lines.join('\n')}` : noMatches(r.query, r.type, 'type "all"')) + note;
}

import { SEARCH_TYPES } from '../../model/search.ts';
import { noMatches, search } from '../../operations/search.ts';
import type { View } from '../context.ts';
import { html } from '../html.ts';
import { badge, itemHref } from './common.ts';

type SearchType = (typeof SEARCH_TYPES)[number];
const isType = (t: string | null): t is SearchType => (SEARCH_TYPES as readonly (string | null)[]).includes(t);

/** Search through the operation `axme search` and `axme_search_kb` run (every kind, or `type=`); `fragment=1` answers the search-as-you-type script with the results alone. */
export const searchView: View = async (ctx, url) => {
  const q = (url.searchParams.get('q') ?? '').trim().slice(0, 500);
  const t = url.searchParams.get('type');
  const type: SearchType = isType(t) ? t : 'all';
  const r = q ? await search.run(ctx.kb, { query: q, k: 50, type, at: ctx.at }) : null;
  const results = !r
    ? html`<p class="empty">Type words to search the knowledge.</p>`
    : r.hits.length
      ? html`<p class="muted">${r.total} match${r.total === 1 ? '' : 'es'} for <strong>${q}</strong>${r.total > r.hits.length ? `, best ${r.hits.length} shown` : ''}</p><ol class="hits">${r.hits.map(
          (h) =>
            html`<li><span class="muted">${h.kind}</span> <a href="${itemHref(h.kind, h.slug)}">${h.id ?? ''} ${h.title}</a> ${badge(h.status)}${h.via ? html` <span class="muted">(via ${h.via})</span>` : ''}${h.stale ? html`<span class="stale">may be outdated${h.stale_reason ? `: ${h.stale_reason}` : ''}</span>` : ''}<div class="muted">${h.snippet}</div></li>`,
        )}</ol>`
      : html`<p class="empty">${noMatches(q, type, 'type=all')}</p>`;
  if (url.searchParams.get('fragment') === '1') return { fragment: html`<h1>Search</h1>${results}` };
  return { title: 'Search', active: '', body: results, commit: r?.commit };
};

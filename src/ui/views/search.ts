import { searchKnowledge } from '../../knowledge/views/search.ts';
import { html } from '../html.ts';
import type { View } from '../context.ts';
import { badge, itemHref } from './common.ts';

/** Search with the ranking of `axme search` (decisions, memories, backlog, questions); `fragment=1` answers the search-as-you-type script with the results alone. */
export const searchView: View = async (ctx, url) => {
  const q = (url.searchParams.get('q') ?? '').trim().slice(0, 500);
  const r = q ? await searchKnowledge(ctx.kb, { query: q, k: 50, type: 'all', at: ctx.at }) : null;
  const results = !r
    ? html`<p class="empty">Type words to search the knowledge.</p>`
    : r.hits.length
      ? html`<p class="muted">${r.total} match${r.total === 1 ? '' : 'es'} for <strong>${q}</strong>${r.total > r.hits.length ? `, best ${r.hits.length} shown` : ''}</p><ol class="hits">${r.hits.map(
          (h) => html`<li><span class="muted">${h.kind}</span> <a href="${itemHref(h.kind, h.slug)}">${h.id ?? ''} ${h.title}</a> ${badge(h.status)}${h.via ? html` <span class="muted">(via ${h.via})</span>` : ''}${h.stale ? html`<span class="stale">may be outdated${h.stale_reason ? `: ${h.stale_reason}` : ''}</span>` : ''}<div class="muted">${h.snippet}</div></li>`,
        )}</ol>`
      : html`<p class="empty">Nothing matches <strong>${q}</strong>.</p>`;
  if (url.searchParams.get('fragment') === '1') return { fragment: html`<h1>Search</h1>${results}` };
  return { title: 'Search', active: '', body: results, commit: r?.commit };
};

import { isAxmeError } from '../../model/errors.ts';
import { type SearchType, searchTypeOf } from '../../model/search.ts';
import { noMatches, search } from '../../operations/search.ts';
import type { View } from '../context.ts';
import { html } from '../html.ts';
import { badge, itemHref } from './common.ts';

/**
 * Search through the operation `axme search` and `axme_search_kb` run (every kind, or `type=`); `fragment=1` answers the
 * search-as-you-type script with the results alone. A query the search refuses (too long, an unknown `type=`) is answered
 * with its reason in place of the results, as the CLI and the tool refuse it: the page never searches other words than theirs.
 */
export const searchView: View = async (ctx, url) => {
  const q = (url.searchParams.get('q') ?? '').trim();
  const found = q ? await searchFor(ctx, q, url.searchParams.get('type') ?? 'all') : null;
  const results = !found
    ? html`<p class="empty">Type words to search the knowledge.</p>`
    : 'refused' in found
      ? html`<p class="error">${found.refused}</p>`
      : found.r.hits.length
        ? html`<p class="muted">${found.r.total} match${found.r.total === 1 ? '' : 'es'} for <strong>${q}</strong>${found.r.total > found.r.hits.length ? `, best ${found.r.hits.length} shown` : ''}</p><ol class="hits">${found.r.hits.map(
            (h) =>
              html`<li><span class="muted">${h.kind}</span> <a href="${itemHref(h.kind, h.slug)}">${h.id ?? ''} ${h.title}</a> ${badge(h.status)}${h.via ? html` <span class="muted">(via ${h.via})</span>` : ''}${h.stale ? html`<span class="stale">may be outdated${h.stale_reason ? `: ${h.stale_reason}` : ''}</span>` : ''}<div class="muted">${h.snippet}</div></li>`,
          )}</ol>`
        : html`<p class="empty">${noMatches(q, found.type, 'type=all')}</p>`;
  if (url.searchParams.get('fragment') === '1') return { fragment: html`<h1>Search</h1>${results}` };
  return { title: 'Search', active: '', body: results, commit: found && !('refused' in found) ? found.r.commit : undefined };
};

type Searched = Awaited<ReturnType<typeof search.run>>;

/** The search's answer to `q` in kind `type`, or why it refuses them (the message the CLI and the tool give). */
async function searchFor(ctx: Parameters<View>[0], q: string, type: string): Promise<{ r: Searched; type: SearchType } | { refused: string }> {
  try {
    const t = searchTypeOf(type);
    return { r: await search.run(ctx.kb, { query: q, k: 50, type: t, at: ctx.at }), type: t };
  } catch (err) {
    if (isAxmeError(err, 'INVALID_INPUT')) return { refused: err.message };
    throw err;
  }
}

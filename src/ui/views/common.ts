import type { StaleItem } from '../../knowledge/stale/types.ts';
import { AxmeError } from '../../model/errors.ts';
import { intParam, PAGE_SIZE } from '../context.ts';
import { type Html, href, html, raw } from '../html.ts';

/** A status (or change) as a coloured badge. */
export function badge(value: string | null | undefined, prefix = 's'): Html {
  if (!value) return html``;
  return html`<span class="badge ${prefix}-${value.replace(/[^a-z-]/g, '')}">${value}</span>`;
}

/** The link to an item's page. */
export function itemHref(kind: string, slug: string): string {
  return `/item/${encodeURIComponent(kind)}/${encodeURIComponent(slug)}`;
}

/** The "may be outdated" line an item carries when its anchors moved since it was learned. */
export function staleMark(s: StaleItem | undefined): Html {
  return s ? html`<span class="stale" title="axme verify">may be outdated: ${s.reason}</span>` : html``;
}

/** One page of a list, with the previous/next links (200 a page). */
export function paged<T>(items: T[], page: number, path: string, query: Record<string, string | undefined> = {}): { rows: T[]; pager: Html } {
  const pages = Math.max(1, Math.ceil(items.length / PAGE_SIZE));
  const p = Math.min(page, pages);
  const rows = items.slice((p - 1) * PAGE_SIZE, p * PAGE_SIZE);
  if (pages === 1) return { rows, pager: html`<p class="muted">${items.length} shown</p>` };
  const prev =
    p > 1 ? html`<a rel="prev" href="${href(path, { ...query, page: p - 1 })}">&larr; previous</a>` : html`<span class="muted">&larr; previous</span>`;
  const next = p < pages ? html`<a rel="next" href="${href(path, { ...query, page: p + 1 })}">next &rarr;</a>` : html`<span class="muted">next &rarr;</span>`;
  return {
    rows,
    pager: html`<div class="pager">${prev}<span>page ${p} of ${pages} (${(p - 1) * PAGE_SIZE + 1}&ndash;${(p - 1) * PAGE_SIZE + rows.length} of ${items.length})</span>${next}</div>`,
  };
}

/** Filter chips: one per value with its count, the chosen one highlighted. */
function chips(path: string, name: string, values: Array<[string, number]>, chosen: string): Html {
  return html`<div class="filters">${values.map(([v, n]) => html`<a href="${href(path, { [name]: v })}"${v === chosen ? raw(' class="on"') : ''}>${v} (${n})</a>`)}</div>`;
}

/**
 * A list filtered by `?status=` (`fallback` when absent; `all`: every status): the chips with each
 * status's count, the page asked for (`page`: as asked, before clamping), and what to say when the
 * filter leaves nothing (`empty`, of the items called `noun`). A status none can have is INVALID_INPUT (400).
 */
export function byStatus<T extends { status: string }>(
  items: T[],
  url: URL,
  path: string,
  statuses: readonly string[],
  fallback: string,
  noun: string,
): { status: string; page: number; chips: Html; rows: T[]; pager: Html; empty: string | null } {
  const status = url.searchParams.get('status') ?? fallback;
  if (status !== 'all' && !statuses.includes(status))
    throw new AxmeError('INVALID_INPUT', `unknown status ${JSON.stringify(status.slice(0, 40))}: use one of all, ${statuses.join(', ')}`);
  const counts: Array<[string, number]> = [['all', items.length], ...statuses.map((s): [string, number] => [s, items.filter((i) => i.status === s).length])];
  const shown = status === 'all' ? items : items.filter((i) => i.status === status);
  const page = intParam(url, 'page', 1);
  // filtered to nothing: said so, with how many there are (null: there are none at all, the view says why)
  const empty = items.length ? `No ${status === 'all' ? '' : `${status} `}${noun} (${items.length} in all).` : null;
  return {
    status,
    page,
    empty,
    chips: chips(path, 'status', counts, status),
    ...paged(shown, page, path, { status: status === fallback ? undefined : status }),
  };
}

/** A date-time shown short: 2026-11-01 10:00. */
export function when(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 16).replace('T', ' ') : '';
}

/** Text kept as written (Markdown shown as text, escaped), or a placeholder when empty. */
export function text(s: string | null | undefined, empty = ''): Html {
  return s && s.trim() ? html`<div class="text">${s}</div>` : empty ? html`<p class="empty">${empty}</p>` : html``;
}

/** A table with a header row; rows already rendered. */
export function table(head: string[], rows: Html[], empty: string): Html {
  if (!rows.length) return html`<p class="empty">${empty}</p>`;
  return html`<table><thead><tr>${head.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>${rows}</tbody></table>`;
}

import { listItems } from '../../knowledge/items/list-items.ts';
import { staleMarks } from '../../knowledge/views/stale-marks.ts';
import { BACKLOG_STATUSES, type BacklogItem } from '../../model/backlog.ts';
import { AxmeError } from '../../model/errors.ts';
import { intParam, type View } from '../context.ts';
import { href, html } from '../html.ts';
import { type AuthorOf, authorsAt, byline } from './authors.ts';
import { badge, itemHref, paged, staleMark, table, when } from './common.ts';

/** Cards per column on the board; the column's own list pages the rest. */
const CARDS = 100;
const PRIORITY = { high: 0, medium: 1, low: 2 } as const;

/** The backlog as a board: one column per status; `?status=` lists one column, paged. */
export const backlogView: View = async (ctx, url) => {
  const [{ items, commit }, marks] = await Promise.all([listItems(ctx.kb, { kind: 'backlog', at: ctx.at, all: true }), staleMarks(ctx.kb, ctx.at)]);
  const sorted = [...items].sort((a, b) => PRIORITY[a.priority] - PRIORITY[b.priority] || b.updated.localeCompare(a.updated));
  const only = url.searchParams.get('status');
  if (only && !(BACKLOG_STATUSES as readonly string[]).includes(only))
    throw new AxmeError('INVALID_INPUT', `unknown status ${JSON.stringify(only.slice(0, 40))}: use one of ${BACKLOG_STATUSES.join(', ')} (or none: the board)`);
  const by = await authorsAt(ctx, commit);
  if (only) {
    const { rows, pager } = paged(
      sorted.filter((b) => b.status === only),
      intParam(url, 'page', 1),
      '/backlog',
      { status: only },
    );
    const body = html`<p><a href="/backlog">&larr; the board</a></p>${table(
      ['ID', 'Title', 'Priority', 'By', 'Updated'],
      rows.map(
        (b) =>
          html`<tr><td><code>${b.id}</code></td><td><a href="${itemHref('backlog', b.slug)}">${b.title}</a>${staleMark(marks.of('backlog', b.slug))}</td><td>${badge(b.priority, 'p')}</td><td>${byline(by('backlog', b))}</td><td class="muted">${when(b.updated)}</td></tr>`,
      ),
      `No ${only} backlog items (${items.length} in all).`,
    )}${pager}`;
    return { title: `Backlog: ${only}`, active: '/backlog', body, commit };
  }
  const column = (status: string) => {
    const cards = sorted.filter((b) => b.status === status);
    return html`<section class="col" data-status="${status}"><h2>${status} (${cards.length})</h2>${cards.slice(0, CARDS).map((b) => card(b, marks.of('backlog', b.slug), by))}${cards.length > CARDS ? html`<a href="${href('/backlog', { status })}">all ${cards.length} &rarr;</a>` : cards.length ? '' : html`<p class="empty">none</p>`}</section>`;
  };
  return { title: 'Backlog', active: '/backlog', body: html`<div class="board">${BACKLOG_STATUSES.map(column)}</div>`, commit };
};

function card(b: BacklogItem, stale: Parameters<typeof staleMark>[0], by: AuthorOf) {
  return html`<div class="card"><code>${b.id}</code> ${badge(b.priority, 'p')}<div><a href="${itemHref('backlog', b.slug)}">${b.title}</a> ${byline(by('backlog', b))}</div>${b.tags.length ? html`<div class="muted">${b.tags.join(', ')}</div>` : ''}${staleMark(stale)}</div>`;
}

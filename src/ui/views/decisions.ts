import { listItems } from '../../knowledge/items/list-items.ts';
import { staleMarks } from '../../knowledge/views/stale-marks.ts';
import { DECISION_STATUSES, type Decision } from '../../model/decision.ts';
import type { View } from '../context.ts';
import { type Html, html } from '../html.ts';
import { type AuthorOf, authorsAt, byline } from './authors.ts';
import { renderChain, supersessionChains } from './chains.ts';
import { badge, byStatus, itemHref, staleMark, table, when } from './common.ts';

/** Decisions: status, enforce level, scope, staleness; the supersession chains above them. */
export const decisionsView: View = async (ctx, url) => {
  const [{ items, commit }, marks] = await Promise.all([listItems(ctx.kb, { kind: 'decision', at: ctx.at, all: true }), staleMarks(ctx.kb, ctx.at)]);
  const { page, chips, rows, pager, empty } = byStatus(items, url, '/decisions', DECISION_STATUSES, 'all', 'decisions');
  const chains = page === 1 ? supersessionChains(items) : [];
  const bySlug = new Map(items.map((d) => [d.slug, d]));
  const by = await authorsAt(ctx, commit);
  const body = html`${chips}
${chains.length ? html`<section class="chains"><h2>Supersession chains (${chains.length})</h2>${chains.slice(0, 50).map((c) => renderChain(c))}${chains.length > 50 ? html`<p class="muted">${chains.length - 50} more: open a decision to see its chain</p>` : ''}</section><h2>All decisions</h2>` : ''}
${table(
  ['ID', 'Decision', 'Status', 'Enforce', 'Scope', 'By', 'Updated'],
  rows.map((d) => row(d, bySlug, marks.of('decision', d.slug), by)),
  empty ?? 'No decisions yet: agents save them with axme_save_decision, people with axme decision add.',
)}
${pager}`;
  return { title: 'Decisions', active: '/decisions', body, commit };
};

function row(d: Decision, bySlug: Map<string, Decision>, stale: Parameters<typeof staleMark>[0], by: AuthorOf): Html {
  const next = d.superseded_by ? bySlug.get(d.superseded_by) : undefined;
  return html`<tr><td><code>${d.id}</code></td><td><a href="${itemHref('decision', d.slug)}">${d.title}</a>${next ? html` <span class="muted">&rarr; <a href="${itemHref('decision', next.slug)}">${next.id}</a></span>` : ''}${staleMark(stale)}</td><td>${badge(d.status)}</td><td>${badge(d.enforce, 'e')}</td><td>${(d.scope ?? []).join(', ')}</td><td>${byline(by('decision', d))}</td><td class="muted">${when(d.updated)}</td></tr>`;
}

import { readMergedState } from '../../knowledge/core/merged-state.ts';
import { listItems } from '../../knowledge/items/list-items.ts';
import { AxmeError } from '../../model/errors.ts';
import type { KindName } from '../../model/kind.ts';
import { KIND_TABLES } from '../../model/kinds.ts';
import { intParam, type View } from '../context.ts';
import { html } from '../html.ts';
import { authorsAt, byline } from './authors.ts';
import { badge, itemHref, paged, table, text, when } from './common.ts';

/** Sessions (their summaries: who, when, files, code commits) and the handoffs they left. */
export const sessionsView: View = async (ctx, url) => {
  const [{ items: sessions, commit }, { items: handoffs }] = await Promise.all([
    listItems(ctx.kb, { kind: 'session', at: ctx.at, all: true }),
    listItems(ctx.kb, { kind: 'handoff', at: ctx.at, all: true }),
  ]);
  const newest = [...sessions].sort((a, b) => (b.closed ?? b.created).localeCompare(a.closed ?? a.created));
  const { rows, pager } = paged(newest, intParam(url, 'page', 1), '/sessions');
  const byNewest = [...handoffs].sort((a, b) => b.created.localeCompare(a.created));
  const by = await authorsAt(ctx, commit);
  const body = html`<h2>Handoffs (${handoffs.length})</h2>
${table(
  ['Session', 'Stopped at', 'Next steps', 'By', 'Written'],
  byNewest
    .slice(0, 50)
    .map(
      (h) =>
        html`<tr><td><a href="${sessionHref(h.session ?? h.slug)}">${h.session ?? h.slug}</a> ${badge(h.source, 'src')}</td><td><a href="${itemHref('handoff', h.slug)}">${h.stopped_at || '(no summary)'}</a></td><td>${text(h.next_steps)}</td><td>${byline(by('handoff', h))}</td><td class="muted">${when(h.created)}</td></tr>`,
    ),
  'No handoffs yet: a session leaves one when it closes.',
)}
<h2>Sessions (${sessions.length})</h2>
${table(
  ['Session', 'Actor', 'By', 'Started', 'Closed', 'Files', 'Commits', 'Worklog'],
  rows.map(
    (s) =>
      html`<tr><td><a href="${sessionHref(s.session ?? s.slug)}">${s.session ?? s.slug}</a></td><td>${s.actor ?? ''}</td><td>${byline(by('session', s))}</td><td class="muted">${when(s.started)}</td><td class="muted">${when(s.closed)}</td><td>${s.files_changed.length}</td><td>${s.commits.length}</td><td>${s.worklog.split('\n')[0]}</td></tr>`,
  ),
  'No sessions closed yet.',
)}
${pager}`;
  return { title: 'Sessions and handoffs', active: '/sessions', body, commit };
};

/** The link to a session's page. */
export function sessionHref(id: string): string {
  return `/session/${encodeURIComponent(id)}`;
}

/** What a session page lists as saved: the kinds with live statuses (what an agent saves as it works). */
const SAVED_KINDS: readonly KindName[] = KIND_TABLES.liveKinds;

/** One session: its summary, its handoff, the code commits it made, and what it saved. */
export const sessionView: View = async (ctx, _url, [id]) => {
  const state = await readMergedState(ctx.kb, ctx.at);
  const mine = (i: { slug: string; session?: string | undefined }) => i.session === id || i.slug === id;
  const summary = state.items.session.find(mine);
  const handoff = state.items.handoff.find(mine);
  const saved = SAVED_KINDS.flatMap((kind) =>
    (state.items[kind] as Array<{ slug: string; session?: string; id?: string; title?: string; question?: string; status?: string }>)
      .filter((i) => i.session === id)
      .map((i) => ({ kind, i })),
  );
  if (!summary && !handoff && !saved.length) throw new AxmeError('NOT_FOUND', `no session ${id} in the store`);
  const body = html`${summary ? html`<dl class="fields"><dt>actor</dt><dd>${summary.actor ?? ''}</dd><dt>started</dt><dd>${when(summary.started)}</dd><dt>closed</dt><dd>${when(summary.closed)}</dd><dt>files</dt><dd>${summary.files_changed.join(', ')}</dd></dl>${text(summary.worklog)}` : ''}
<h2>Code commits</h2>${summary?.commits.length ? html`<ul>${summary.commits.map((c) => html`<li><a href="/code/${encodeURIComponent(c)}"><code>${c.slice(0, 12)}</code></a></li>`)}</ul>` : html`<p class="empty">none recorded</p>`}
<h2>Saved in this session</h2>${table(
    ['Kind', 'Item', 'Status'],
    saved.map(
      ({ kind, i }) =>
        html`<tr><td>${kind}</td><td><a href="${itemHref(kind, i.slug)}">${i.id ?? ''} ${i.title ?? i.question ?? i.slug}</a></td><td>${badge(i.status)}</td></tr>`,
    ),
    'nothing',
  )}
${handoff ? html`<h2>Handoff</h2><p><a href="${itemHref('handoff', handoff.slug)}">${handoff.stopped_at || 'the handoff'}</a></p>${text(handoff.summary)}${handoff.next_steps ? html`<h3>Next steps</h3>${text(handoff.next_steps)}` : ''}` : ''}`;
  return { title: `Session ${id}`, active: '/sessions', body, commit: state.commit };
};

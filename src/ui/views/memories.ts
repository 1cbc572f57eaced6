import { listItems } from '../../knowledge/items/list-items.ts';
import { staleMarks } from '../../knowledge/views/stale-marks.ts';
import { MEMORY_STATUSES } from '../../model/memory.ts';
import type { View } from '../context.ts';
import { html } from '../html.ts';
import { authorsAt, byline } from './authors.ts';
import { badge, byStatus, itemHref, staleMark, table, when } from './common.ts';

/** Memories: type, description, keywords, status, staleness. */
export const memoriesView: View = async (ctx, url) => {
  const [{ items, commit }, marks] = await Promise.all([listItems(ctx.kb, { kind: 'memory', at: ctx.at, all: true }), staleMarks(ctx.kb, ctx.at)]);
  const { chips, rows, pager, empty } = byStatus(items, url, '/memories', MEMORY_STATUSES, 'active', 'memories');
  const by = await authorsAt(ctx, commit);
  const body = html`${chips}
${table(
  ['Type', 'Memory', 'Keywords', 'Status', 'By', 'Updated'],
  rows.map(
    (m) =>
      html`<tr><td>${badge(m.type, 't')}</td><td><a href="${itemHref('memory', m.slug)}">${m.title}</a><div class="muted">${m.description}</div>${staleMark(marks.of('memory', m.slug))}</td><td>${m.keywords.join(', ')}</td><td>${badge(m.status)}</td><td>${byline(by('memory', m))}</td><td class="muted">${when(m.updated)}</td></tr>`,
  ),
  empty ?? 'No memories yet.',
)}
${pager}`;
  return { title: 'Memories', active: '/memories', body, commit };
};

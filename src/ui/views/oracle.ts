import { listItems } from '../../knowledge/items/list-items.ts';
import { staleMarks } from '../../knowledge/views/stale-marks.ts';
import type { View } from '../context.ts';
import { html } from '../html.ts';
import { itemHref, staleMark, when } from './common.ts';

/** The oracle pages (stack, structure, patterns, glossary), their Markdown shown as text. */
export const oracleView: View = async (ctx) => {
  const [{ items, commit }, marks] = await Promise.all([listItems(ctx.kb, { kind: 'oracle', at: ctx.at, all: true }), staleMarks(ctx.kb, ctx.at)]);
  const body = items.length
    ? html`<p class="muted">${items.map((p, i) => html`${i ? html` &middot; ` : ''}<a href="#${p.slug}">${p.title ?? p.slug}</a>`)}</p>${items.map((p) => html`<section id="${p.slug}"><h2><a href="${itemHref('oracle', p.slug)}">${p.title ?? p.slug}</a></h2>${staleMark(marks.of('oracle', p.slug))}<p class="muted">updated ${when(p.updated)}${p.anchors.length ? html` &middot; from ${p.anchors.join(', ')}` : ''}</p><pre>${p.body}</pre></section>`)}`
    : html`<p class="empty">No oracle pages yet: axme oracle scan writes them.</p>`;
  return { title: 'Oracle', active: '/oracle', body, commit };
};

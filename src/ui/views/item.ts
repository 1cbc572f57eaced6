import { readMergedState } from '../../knowledge/core/merged-state.ts';
import { withAuthor } from '../../knowledge/history/item-authors.ts';
import { itemHistory } from '../../knowledge/history/item-history.ts';
import { settledLine } from '../../knowledge/sync/settled-line.ts';
import { showWithStaleness } from '../../knowledge/views/stale-marks.ts';
import type { Decision } from '../../model/decision.ts';
import { AxmeError } from '../../model/errors.ts';
import type { ItemBase, KindName } from '../../model/kind.ts';
import { KIND_ORDER, KINDS } from '../../model/kinds.ts';
import { SPECS } from '../../model/paths.ts';
import type { View } from '../context.ts';
import { type Html, html } from '../html.ts';
import { byline } from './authors.ts';
import { chainOf, renderChain } from './chains.ts';
import { badge, itemHref, staleMark, text, when } from './common.ts';
import { itemActions } from './item-actions.ts';
import { sessionHref } from './sessions.ts';

/** A kind named in a URL, checked: an item page shows any kind, under the tab of the page that lists it. */
function kindOf(name: string | undefined): KindName {
  if (!name || !Object.hasOwn(KINDS, name))
    throw new AxmeError('NOT_FOUND', `no kind ${JSON.stringify(String(name).slice(0, 40))}: use one of ${KIND_ORDER.join(', ')}`);
  return name as KindName;
}

/** One item: its fields, its text (Lead and sections, as written), its staleness, its supersession chain. */
export const itemView: View = async (ctx, _url, [kindName, ref]) => {
  const kind = kindOf(kindName);
  const r = await withAuthor(ctx.kb, await showWithStaleness<ItemBase & Record<string, unknown>>(ctx.kb, { kind, ref: ref!, at: ctx.at }), ctx.at);
  const item = r.item;
  const spec = SPECS[kind];
  let chain: Html = html``;
  if (kind === 'decision') {
    const state = await readMergedState(ctx.kb, ctx.at);
    const c = chainOf(item as unknown as Decision, state.items.decision);
    if (c) chain = html`<h2>Supersession chain</h2>${renderChain(c, item.slug)}`;
  }
  const fields = spec.fields.filter((f) => item[f] !== undefined && item[f] !== '' && !(Array.isArray(item[f]) && (item[f] as unknown[]).length === 0));
  const title = String(item.title ?? item.question ?? item.stopped_at ?? item.slug);
  const sections = [[spec.lead, spec.lead] as const, ...spec.sections].filter(([, f]) => typeof item[f] === 'string' && (item[f] as string).trim());
  const body = html`${staleMark(r.stale)}
<p class="muted">${kind} &middot; <code>${r.path}</code>${r.author ? html` &middot; written by ${byline(r.author)} <span class="muted">&lt;${r.author.email}&gt;</span>` : ''}${r.store ? html` &middot; from the workspace store ${r.store}` : ''} &middot; <a href="/history/${encodeURIComponent(kind)}/${encodeURIComponent(item.slug)}">history</a></p>
${chain}
<dl class="fields">${fields.map((f) => html`<dt>${f}</dt><dd>${field(kind, f, item[f])}</dd>`)}</dl>
${sections.map(([heading, f]) => html`<h2>${heading === spec.lead ? capital(f) : heading}</h2>${text(item[f] as string)}`)}
<details><summary>The file as stored</summary><pre>${r.text}</pre></details>
${r.store ? '' : itemActions(ctx, kind, item, r.version)}`;
  return { title: `${item.id ? `${String(item.id)} ` : ''}${title}`, active: KINDS[kind].page, body, commit: r.commit };
};

function field(kind: KindName, name: string, value: unknown): Html {
  if (name === 'status') return badge(String(value));
  if (name === 'enforce') return badge(String(value), 'e');
  if (name === 'session') return html`<a href="${sessionHref(String(value))}">${String(value)}</a>`;
  if ((name === 'superseded_by' || name === 'supersedes') && value) {
    const slugs = Array.isArray(value) ? (value as string[]) : [String(value)];
    return html`${slugs.map((s, i) => html`${i ? ', ' : ''}<a href="${itemHref(kind, s)}">${s}</a>`)}`;
  }
  if (name === 'commits' && Array.isArray(value))
    return html`${(value as string[]).map((c, i) => html`${i ? ', ' : ''}<a href="/code/${encodeURIComponent(c)}"><code>${c.slice(0, 12)}</code></a>`)}`;
  if (name === 'created' || name === 'updated' || (name.endsWith('_at') && typeof value === 'string' && /^\d{4}-/.test(value)))
    return html`${when(String(value))}`;
  if (Array.isArray(value)) return html`${value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ')}`;
  return html`${typeof value === 'object' ? JSON.stringify(value) : String(value)}`;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, ' ');

/** An item's history: every version, newest first, who changed it and how (unified diff). */
export const historyView: View = async (ctx, _url, [kindName, ref]) => {
  const kind = kindOf(kindName);
  const h = await itemHistory(ctx.kb, { ref: ref!, kind, at: ctx.at, patch: true });
  const body = html`<p><a href="${itemHref(kind, ref!)}">&larr; the item</a> &middot; <code>${h.path}</code></p>
${h.versions.map((v) => html`<div class="change"><div>${badge(v.change)} <a href="/commit/${v.commit}"><code>${v.commit.slice(0, 12)}</code></a> ${v.subject} <span class="muted">&middot; ${when(v.date)} &middot; ${v.actor ?? v.author}${v.event ? ` (${v.event})` : ''}</span></div>${v.merge ? html`<ul class="settled">${v.merge.settled.map((f) => html`<li>${settledLine(f)}</li>`)}</ul>` : ''}${v.patch ? diffBlock(v.patch) : ''}</div>`)}`;
  return { title: `History of ${ref}`, active: KINDS[kind].page, body };
};

/** A unified diff, its lines coloured by what they do. */
export function diffBlock(patch: string): Html {
  const lines = patch.split('\n').filter((l) => !l.startsWith('===') && !l.startsWith('Index:'));
  return html`<pre class="diff">${lines.map((l) => {
    const cls = l.startsWith('@@') ? 'hunk' : l.startsWith('+') && !l.startsWith('+++') ? 'add' : l.startsWith('-') && !l.startsWith('---') ? 'del' : '';
    return cls ? html`<span class="${cls}">${l}</span>\n` : html`${l}\n`;
  })}</pre>`;
}

import { isChangedSince } from '../../knowledge/core/item-version.ts';
import { showItem } from '../../knowledge/items/show-item.ts';
import type { Decision } from '../../model/decision.ts';
import type { Memory } from '../../model/memory.ts';
import { actionPath } from '../actions.ts';
import type { UiContext } from '../context.ts';
import { type Html, html } from '../html.ts';
import { itemHref } from './common.ts';

/**
 * The forms a person uses on an item's page: edit a memory in place or archive it; amend a
 * decision's wording or revoke it. Shown for active memories and decisions on a writable page
 * (no --at, loopback); each carries the run's anti-forgery token and the item's `version` it was
 * rendered from (its base: the page refuses the change once the item has changed since, an edit,
 * an archive or a revoke alike).
 * The rules are the core's: the forms only collect the input.
 */
export function itemActions(ctx: UiContext, kind: string, item: Record<string, unknown>, version: string): Html {
  if (!ctx.actions || item.status !== 'active') return html``;
  const token = html`<input type="hidden" name="csrf" value="${ctx.actions.csrf}">`;
  const base = html`<input type="hidden" name="base" value="${version}">`;
  if (kind === 'memory') {
    const m = item as unknown as Memory;
    return html`<section class="actions"><h2>Change</h2>
<details><summary>Edit this memory</summary><form method="post" action="${actionPath('memory', m.slug, 'update')}" class="edit">${token}${base}
<label>Title <input name="title" value="${m.title}" required></label>
<label>Description <textarea name="description" rows="3" required>${m.description}</textarea></label>
<label>Details <textarea name="body" rows="5">${m.body}</textarea></label>
<label>Keywords (comma-separated) <input name="keywords" value="${m.keywords.join(', ')}"></label>
<button type="submit">Save the new version</button> <span class="muted">the previous version stays in its history</span></form></details>
<details><summary>Archive this memory</summary><form method="post" action="${actionPath('memory', m.slug, 'archive')}">${token}${base}
<p class="muted">Agents are no longer offered it; it stays in the store and in history.</p><button type="submit">Archive</button></form></details></section>`;
  }
  if (kind === 'decision') {
    const d = item as unknown as Decision;
    return html`<section class="actions"><h2>Change</h2>
<details><summary>Amend the wording</summary><form method="post" action="${actionPath('decision', d.id, 'amend')}" class="edit">${token}${base}
<p class="muted">For typos and clearer words: same ID, the previous version stays in history. To change what is decided, its enforcement, scope or anchors, supersede it (<code>axme decision supersede ${d.id}</code>).</p>
<label>Title <input name="title" value="${d.title}" required></label>
<label>Decision <textarea name="decision" rows="4" required>${d.decision}</textarea></label>
<label>Reasoning <textarea name="reasoning" rows="4">${d.reasoning}</textarea></label>
<button type="submit">Save the amendment</button></form></details>
<details><summary>Revoke this decision</summary><form method="post" action="${actionPath('decision', d.id, 'revoke')}" class="edit">${token}${base}
<label>Why it no longer holds <textarea name="reason" rows="2" required></textarea></label>
<button type="submit">Revoke</button></form></details></section>`;
  }
  return html``;
}

/**
 * The page a refused edit answers with (409) when the item changed since its form was opened:
 * what it says now, the edit as sent (not saved), and the way back to redo it on the current version.
 */
export async function changedSincePage(ctx: UiContext, err: unknown): Promise<Html | null> {
  if (!isChangedSince(err)) return null;
  const { kind, slug } = err.data;
  const now = await showItem(ctx.kb, { kind, ref: slug });
  const submitted = Object.entries((err.data as { submitted?: Record<string, string> }).submitted ?? {});
  const page = itemHref(kind, slug);
  return html`<p class="error">This ${kind} changed since you opened it: your change was not saved, so that you do not overwrite, archive or revoke what you have not seen.</p>
<p><a href="${page}">Open it again</a> and redo your change on what it says now.</p>
<h2>What it says now</h2><pre>${now.text}</pre>
${submitted.length ? html`<details open><summary>What you sent (not saved)</summary><dl class="fields">${submitted.map(([f, v]) => html`<dt>${f}</dt><dd><div class="text">${v}</div></dd>`)}</dl></details>` : ''}`;
}

import type { Decision } from '../../model/decision.ts';
import type { Memory } from '../../model/memory.ts';
import { actionPath } from '../actions.ts';
import type { UiContext } from '../context.ts';
import { type Html, html } from '../html.ts';

/**
 * The forms a person uses on an item's page: edit a memory in place or archive it; amend a
 * decision's wording or revoke it. Shown for active memories and decisions on a writable page
 * (no --at, loopback); each carries the run's anti-forgery token. The rules are the core's: the
 * forms only collect the input.
 */
export function itemActions(ctx: UiContext, kind: string, item: Record<string, unknown>): Html {
  if (!ctx.actions || item.status !== 'active') return html``;
  const token = html`<input type="hidden" name="csrf" value="${ctx.actions.csrf}">`;
  if (kind === 'memory') {
    const m = item as unknown as Memory;
    return html`<section class="actions"><h2>Change</h2>
<details><summary>Edit this memory</summary><form method="post" action="${actionPath('memory', m.slug, 'update')}" class="edit">${token}
<label>Title <input name="title" value="${m.title}" required></label>
<label>Description <textarea name="description" rows="3" required>${m.description}</textarea></label>
<label>Details <textarea name="body" rows="5">${m.body}</textarea></label>
<label>Keywords (comma-separated) <input name="keywords" value="${m.keywords.join(', ')}"></label>
<button type="submit">Save the new version</button> <span class="muted">the previous version stays in its history</span></form></details>
<details><summary>Archive this memory</summary><form method="post" action="${actionPath('memory', m.slug, 'archive')}">${token}
<p class="muted">Agents are no longer offered it; it stays in the store and in history.</p><button type="submit">Archive</button></form></details></section>`;
  }
  if (kind === 'decision') {
    const d = item as unknown as Decision;
    return html`<section class="actions"><h2>Change</h2>
<details><summary>Amend the wording</summary><form method="post" action="${actionPath('decision', d.id, 'amend')}" class="edit">${token}
<p class="muted">For typos and clearer words: same ID, the previous version stays in history. To change what is decided, its enforcement, scope or anchors, supersede it (<code>axme decision supersede ${d.id}</code>).</p>
<label>Title <input name="title" value="${d.title}" required></label>
<label>Decision <textarea name="decision" rows="4" required>${d.decision}</textarea></label>
<label>Reasoning <textarea name="reasoning" rows="4">${d.reasoning}</textarea></label>
<button type="submit">Save the amendment</button></form></details>
<details><summary>Revoke this decision</summary><form method="post" action="${actionPath('decision', d.id, 'revoke')}" class="edit">${token}
<label>Why it no longer holds <textarea name="reason" rows="2" required></textarea></label>
<button type="submit">Revoke</button></form></details></section>`;
  }
  return html``;
}

import { showSafety } from '../../knowledge/rules/show-safety.ts';
import type { View } from '../context.ts';
import { type Html, html } from '../html.ts';

/** The safety rules in force (defaults filled in; in a workspace, combined with the workspace's). */
export const safetyView: View = async (ctx) => {
  const r = await showSafety(ctx.kb, { at: ctx.at });
  const sections = Object.entries(r.rules as Record<string, unknown>).map(
    ([name, value]) => html`<section class="rules"><h2>${name}</h2>${render(value)}</section>`,
  );
  const problems = r.diagnostics.length ? html`<h2>Problems</h2><ul>${r.diagnostics.map((d) => html`<li>${d.path}: ${d.reason}</li>`)}</ul>` : '';
  const ws = r.workspace ? html`<p class="muted">Combined with the workspace store ${r.workspace.store}.</p>` : '';
  return { title: 'Safety rules', active: '/safety', body: html`${ws}${problems}${sections}`, commit: r.commit };
};

function render(value: unknown): Html {
  if (Array.isArray(value))
    return value.length
      ? html`<ul>${value.map((v) => html`<li><code>${typeof v === 'string' ? v : JSON.stringify(v)}</code></li>`)}</ul>`
      : html`<p class="empty">none</p>`;
  if (value && typeof value === 'object') {
    return html`<dl class="fields">${Object.entries(value as Record<string, unknown>).map(([k, v]) => html`<dt>${k}</dt><dd>${Array.isArray(v) || (v && typeof v === 'object') ? render(v) : html`<code>${String(v)}</code>`}</dd>`)}</dl>`;
  }
  return html`<code>${String(value)}</code>`;
}

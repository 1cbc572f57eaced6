import { summaryLine } from '../../knowledge/review/diff/render-diff.ts';
import type { ItemChange, SemanticDiff } from '../../knowledge/review/diff/semantic-diff.ts';
import { type Html, html } from '../html.ts';
import { badge, itemHref } from './common.ts';
import { diffBlock } from './item.ts';

/** The semantic diff as HTML: one box per item changed, rules and settings, broken files. */
export function renderDiff(d: SemanticDiff): Html {
  const rules = [
    ...d.rules.added.map((r) => html`<li>${badge('added')} ${r.type}: <code>${r.value}</code></li>`),
    ...d.rules.removed.map((r) => html`<li>${badge('removed')} ${r.type}: <code>${r.value}</code></li>`),
    ...[...d.rules.settings, ...d.config].map(
      (s) => html`<li>${s.setting}: <code>${JSON.stringify(s.before)}</code> &rarr; <code>${JSON.stringify(s.after)}</code></li>`,
    ),
  ];
  return html`<p class="summary">${summaryLine(d)}</p>
<div class="semantic-diff">${d.items.map(change)}</div>
${rules.length ? html`<h2>Safety rules and settings</h2><ul>${rules}</ul>` : ''}
${d.broken.length ? html`<h2>Files that do not parse</h2><ul>${d.broken.map((b) => html`<li><code>${b.path}</code>: ${b.reason}</li>`)}</ul>` : ''}
${d.other.length ? html`<p class="muted">Other files: ${d.other.join(', ')}</p>` : ''}`;
}

function change(c: ItemChange): Html {
  const link = c.change === 'removed' ? html`${c.id ?? ''} ${c.title}` : html`<a href="${itemHref(c.kind, c.slug)}">${c.id ?? ''} ${c.title}</a>`;
  return html`<div class="change" data-change="${c.change}">${badge(c.change)} <span class="muted">${c.kind}</span> ${link}${c.status && c.status.before !== c.status.after ? html` <span class="muted">${c.status.before ?? 'none'} &rarr; ${c.status.after ?? 'none'}</span>` : ''}${c.successor ? html` &rarr; <a href="${itemHref(c.successor.kind, c.successor.slug)}">${c.successor.id ?? ''} ${c.successor.title}</a>` : ''}
${c.detail ? html`<div class="text">${c.detail}</div>` : ''}
${c.fields.length ? html`<table><thead><tr><th>field</th><th>before</th><th>after</th></tr></thead><tbody>${c.fields.map((f) => html`<tr><td>${f.field}</td><td><code>${show(f.before)}</code></td><td><code>${show(f.after)}</code></td></tr>`)}</tbody></table>` : ''}
${c.body ? (c.change === 'added' ? html`<pre>${c.body}</pre>` : diffBlock(c.body)) : ''}</div>`;
}

const show = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

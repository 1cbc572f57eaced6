import { type CommitLinks, commitLinksPage, showCommit } from '../../knowledge/history/commit-links.ts';
import { intParam, type View } from '../context.ts';
import { type Html, href, html } from '../html.ts';
import { badge, itemHref, table, when } from './common.ts';
import { sessionHref } from './sessions.ts';

/** Code commits per page. */
const PER_PAGE = 20;

/** The code's recent commits (HEAD first) and what each is linked to through its trailers and refs/notes/axme: commit -> session -> decisions. */
export const codeView: View = async (ctx, url) => {
  const page = intParam(url, 'page', 1);
  const at = { cwd: ctx.cwd, env: ctx.env };
  // one more than a page: whether there is an older page
  const got = await commitLinksPage(ctx.kb, at, { skip: (page - 1) * PER_PAGE, count: PER_PAGE + 1 });
  const links = got.slice(0, PER_PAGE);
  const more = got.length > PER_PAGE;
  const body = html`<p class="muted">The code commits of the checkout <code>${ctx.cwd}</code>, newest first, and the knowledge each links to (its <code>#!axme</code> trailers and its note on <code>refs/notes/axme</code>).</p>
${table(['Commit', 'Session', 'Decisions', 'PR'], links.map(row), 'No code commits here (a bare repository, or none yet).')}
<div class="pager">${page > 1 ? html`<a rel="prev" href="${href('/code', { page: page - 1 })}">&larr; newer</a>` : ''}${more ? html`<a rel="next" href="${href('/code', { page: page + 1 })}">older &rarr;</a>` : ''}</div>`;
  return { title: 'Code commits', active: '/code', body };
};

function row(c: CommitLinks): Html {
  return html`<tr><td><a href="/code/${c.commit}"><code>${c.commit.slice(0, 12)}</code></a> ${c.subject}<div class="muted">${c.author}, ${when(c.date)}</div></td><td>${c.session ? html`<a href="${sessionHref(c.session)}">${c.session}</a>` : ''}</td><td>${decisions(c)}</td><td>${c.pr ? (c.prUrl ? html`<a href="${c.prUrl}" rel="noreferrer">#${c.pr}</a>` : c.pr) : ''}</td></tr>`;
}

function decisions(c: CommitLinks): Html {
  return html`${c.decisions.map((d) => html`<div>${d.title ? html`<a href="${itemHref('decision', d.id)}">${d.id} ${d.title}</a>` : html`${d.id} <span class="muted">(not in the store)</span>`} ${d.status && d.status !== 'active' ? badge(d.status) : ''}</div>`)}`;
}

/** One code commit and its links (`axme show-commit <sha>`). */
export const codeCommitView: View = async (ctx, _url, [rev]) => {
  const c = await showCommit(ctx.kb, { cwd: ctx.cwd, env: ctx.env }, rev!);
  const note = Object.entries(c.note);
  const body = html`<dl class="fields"><dt>subject</dt><dd>${c.subject}</dd><dt>author</dt><dd>${c.author}</dd><dt>date</dt><dd>${when(c.date)}</dd>
<dt>session</dt><dd>${c.session ? html`<a href="${sessionHref(c.session)}">${c.session}</a>` : html`<span class="muted">none</span>`}</dd>
<dt>decisions</dt><dd>${c.decisions.length ? decisions(c) : html`<span class="muted">none cited</span>`}</dd>
<dt>pull request</dt><dd>${c.pr ? (c.prUrl ? html`<a href="${c.prUrl}" rel="noreferrer">#${c.pr}</a>` : c.pr) : ''}</dd>
<dt>memory at</dt><dd>${c.memory ? html`<code>${c.memory.slice(0, 12)}</code>` : ''}</dd></dl>
${note.length ? html`<h2>Note on refs/notes/axme</h2><dl class="fields">${note.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>` : ''}`;
  return { title: `Code commit ${c.commit.slice(0, 12)}`, active: '/code', body };
};

import { worklog } from '../../knowledge/history/worklog.ts';
import { diffRevisions } from '../../knowledge/review/diff/diff-revisions.ts';
import { summaryLine } from '../../knowledge/review/diff/render-diff.ts';
import { type SemanticDiff, semanticDiff } from '../../knowledge/review/diff/semantic-diff.ts';
import { remoteProposals } from '../../knowledge/review/remote-proposals.ts';
import { AxmeError, isAxmeError } from '../../model/errors.ts';
import { intParam, type View } from '../context.ts';
import { type Html, href, html } from '../html.ts';
import { badge, itemHref, table, when } from './common.ts';
import { openProposals } from './proposals.ts';
import { renderDiff } from './semantic-diff.ts';
import { sessionHref } from './sessions.ts';

/** Commits per page of the timeline. */
const PER_PAGE = 100;

/** The timeline of refs/memory/main: who (Axme-Actor, Axme-Session), what (Axme-Event, Axme-Item), when; each commit opens its semantic diff. */
export const timelineView: View = async (ctx, url) => {
  const page = intParam(url, 'page', 1);
  const entries = await worklog(ctx.kb, { at: ctx.at, limit: page * PER_PAGE + 1 });
  const rows = entries.slice((page - 1) * PER_PAGE, page * PER_PAGE);
  const more = entries.length > page * PER_PAGE;
  const open = page === 1 && !ctx.at ? await remoteProposals(ctx.kb) : [];
  const body = html`${open.length ? openProposals(open) : ''}${table(
    ['When', 'Who', 'Event', 'Items', 'Commit'],
    rows.map(
      (e) =>
        html`<tr><td class="muted">${when(e.date)}</td><td>${e.actor ?? e.author}${e.session ? html`<div class="muted"><a href="${sessionHref(e.session)}">${e.session}</a></div>` : ''}</td><td>${e.event ? badge(e.event, 'ev') : ''}${e.merge ? badge('merge', 'ev') : ''}</td><td>${e.items.join(', ')}</td><td><a class="commit" href="/commit/${e.commit}"><code>${e.commit.slice(0, 12)}</code> ${e.subject}</a></td></tr>`,
    ),
    'No commits.',
  )}
<div class="pager">${page > 1 ? html`<a rel="prev" href="${href('/timeline', { page: page - 1 })}">&larr; newer</a>` : ''}${more ? html`<a rel="next" href="${href('/timeline', { page: page + 1 })}">older &rarr;</a>` : ''}</div>`;
  return { title: 'Timeline', active: '/timeline', body, commit: entries[0]?.commit ?? null };
};

/** One commit of the store: its trailers and its semantic diff against its first parent (`axme diff <sha>^ <sha>`). */
export const commitView: View = async (ctx, _url, [sha]) => {
  if (!/^[0-9a-f]{40}$/.test(sha ?? '')) throw new AxmeError('NOT_FOUND', 'a commit is named by its 40 hex digits here: open it from the timeline');
  const [entry] = await worklog(ctx.kb, { at: sha, limit: 1 });
  let d: SemanticDiff;
  try {
    d = await diffRevisions(ctx.kb, { from: `${sha}^`, to: sha });
  } catch (err) {
    if (!isAxmeError(err, 'BAD_REVISION')) throw err;
    d = await semanticDiff(ctx.kb, null, sha!); // the first commit: everything is added
  }
  const head = entry
    ? html`<dl class="fields"><dt>subject</dt><dd>${entry.subject}</dd><dt>when</dt><dd>${when(entry.date)}</dd><dt>actor</dt><dd>${entry.actor ?? ''} <span class="muted">(${entry.author})</span></dd>${entry.session ? html`<dt>session</dt><dd><a href="${sessionHref(entry.session)}">${entry.session}</a></dd>` : ''}${entry.event ? html`<dt>event</dt><dd>${entry.event}</dd>` : ''}${entry.items.length ? html`<dt>items</dt><dd>${entry.items.join(', ')}</dd>` : ''}</dl>${entry.body.trim() ? html`<pre>${entry.body}</pre>` : ''}`
    : html``;
  return { title: `Commit ${sha!.slice(0, 12)}`, active: '/timeline', body: html`${head}<h2>What changed</h2>${renderDiff(d)}` };
};

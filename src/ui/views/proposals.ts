import { diffRevisions } from '../../knowledge/review/diff/diff-revisions.ts';
import type { RemoteProposal } from '../../knowledge/review/remote-proposals.ts';
import type { View } from '../context.ts';
import { type Html, html } from '../html.ts';
import { table } from './common.ts';
import { renderDiff } from './semantic-diff.ts';

/** The link to a proposal's page. */
export const proposalHref = (p: { remote: string; name: string }) => `/proposal/${encodeURIComponent(p.remote)}/${encodeURIComponent(p.name)}`;

/** The proposals open on the remotes as last fetched, a teammate's too (above the timeline). */
export function openProposals(open: RemoteProposal[]): Html {
  return html`<section class="proposals"><h2>Open proposals (${open.length})</h2>${table(
    ['Proposal', 'Remote', 'Pull request', 'Opened'],
    open.map(
      (p) =>
        html`<tr><td><a href="${proposalHref(p)}">${p.branch}</a></td><td>${p.remote}</td><td>${p.pr ? (p.url ? html`<a href="${p.url}">#${p.pr}</a>` : `#${p.pr}`) : html`<span class="muted">not known here</span>`}</td><td>${p.mine ? 'here' : 'by a teammate'}</td></tr>`,
    ),
    '',
  )}</section>`;
}

/** One proposal open on a remote: its semantic diff since it left refs/memory/main (`axme diff --proposal <name>`). */
export const proposalView: View = async (ctx, _url, [remote, name]) => {
  const d = await diffRevisions(ctx.kb, { proposal: name!, remote: remote! });
  return {
    title: `Proposal ${name}`,
    active: '/timeline',
    body: html`<p class="muted"><code>${d.toName}</code>, compared with ${d.fromName}</p>${renderDiff(d)}`,
  };
};

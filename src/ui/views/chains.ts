import type { Decision } from '../../model/decision.ts';
import { type Html, html } from '../html.ts';
import { itemHref } from './common.ts';

/**
 * Supersession chains: each decision that replaced another, followed from the first decision
 * of its line to the one in force now (old -> new). A decision replacing several starts
 * several lines that meet; each line is drawn on its own.
 */
export function supersessionChains(decisions: Decision[]): Decision[][] {
  const bySlug = new Map(decisions.map((d) => [d.slug, d]));
  const replaced = new Set(decisions.filter((d) => d.superseded_by && bySlug.has(d.superseded_by)).map((d) => d.slug));
  // a decision some replaced decision points at is in the middle of a line, not its start
  const successors = new Set(decisions.filter((d) => replaced.has(d.slug)).map((d) => d.superseded_by!));
  const chains: Decision[][] = [];
  for (const d of decisions) {
    if (!replaced.has(d.slug) || successors.has(d.slug)) continue;
    chains.push(follow(d, bySlug));
  }
  return chains;
}

function follow(start: Decision, bySlug: Map<string, Decision>): Decision[] {
  const chain = [start];
  const seen = new Set([start.slug]);
  let cur = start;
  while (cur.superseded_by && bySlug.has(cur.superseded_by) && !seen.has(cur.superseded_by)) {
    cur = bySlug.get(cur.superseded_by)!;
    seen.add(cur.slug);
    chain.push(cur);
  }
  return chain;
}

/** The chain one decision is part of (from the first it replaced, through it, to the one in force), or null when it is alone. */
export function chainOf(d: Decision, decisions: Decision[]): Decision[] | null {
  const bySlug = new Map(decisions.map((x) => [x.slug, x]));
  let first = d;
  const seen = new Set([d.slug]);
  for (;;) {
    const prev = decisions.find((x) => x.superseded_by === first.slug && !seen.has(x.slug));
    if (!prev) break;
    seen.add(prev.slug);
    first = prev;
  }
  const chain = follow(first, bySlug);
  return chain.length > 1 ? chain : null;
}

/** A chain drawn as links: D-001 title -> D-004 title, the current one marked. */
export function renderChain(chain: Decision[], current?: string): Html {
  return html`<div class="chain">${chain.map(
    (d, i) =>
      html`${i ? html`<span class="arrow" aria-label="superseded by">&rarr;</span>` : ''}<a href="${itemHref('decision', d.slug)}"${d.slug === current ? html` class="current"` : ''} title="${d.status}">${d.id} ${d.title}</a>`,
  )}</div>`;
}

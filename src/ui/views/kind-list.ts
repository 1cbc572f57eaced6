import { listItems } from '../../knowledge/items/list-items.ts';
import type { KindName } from '../../model/kinds.ts';
import type { View } from '../context.ts';
import { html } from '../html.ts';
import { authorsAt, byline } from './authors.ts';
import { badge, itemHref, table, when } from './common.ts';

/**
 * The page of kinds that have no view of their own (a kind declared with a new `page`): a table of
 * each kind's items, every status, each linked to its item page.
 */
export function kindListView(page: string, label: string, kinds: ReadonlyArray<{ kind: KindName; heading: string }>): View {
  return async (ctx) => {
    const lists = await Promise.all(kinds.map((k) => listItems(ctx.kb, { kind: k.kind, at: ctx.at, all: true })));
    const by = await authorsAt(ctx, lists[0]?.commit);
    const body = html`${kinds.map(
      (k, i) =>
        html`${kinds.length > 1 ? html`<h2>${k.heading}</h2>` : ''}${table(
          ['Item', 'Status', 'By', 'Updated'],
          (lists[i]!.items as Array<{ slug: string; id?: string; title?: string; status?: string; updated?: string; created?: string }>).map(
            (item) =>
              html`<tr><td><a href="${itemHref(k.kind, item.slug)}">${item.id ? `${item.id} ` : ''}${item.title ?? item.slug}</a></td><td>${badge(item.status)}</td><td>${byline(by(k.kind, item))}</td><td class="muted">${when(item.updated)}</td></tr>`,
          ),
          `No ${k.heading.toLowerCase()} yet.`,
        )}`,
    )}`;
    return { title: label, active: page, body, commit: lists[0]?.commit ?? null };
  };
}

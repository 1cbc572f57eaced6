import { type ItemAuthor, itemAuthors } from '../../knowledge/history/item-authors.ts';
import type { KindName } from '../../model/kind.ts';
import { itemPath } from '../../model/paths.ts';
import type { UiContext } from '../context.ts';
import { type Html, html } from '../html.ts';

/** Who wrote a listed item, or undefined (an item of the workspace store, a history cut short). */
export type AuthorOf = (kind: KindName, item: { slug: string; created?: string; store?: string }) => ItemAuthor | undefined;

/**
 * Who wrote the items of the store at `commit`: one `git log` for every item of the page, remembered
 * per commit (itemAuthors), never one per item. Items of a workspace store are left without one.
 */
export async function authorsAt(ctx: UiContext, commit: string | null | undefined): Promise<AuthorOf> {
  if (!commit) return () => undefined;
  const authors = await itemAuthors(ctx.kb, { commit });
  return (kind, item) => (item.store ? undefined : authors.get(itemPath(kind, item.slug, item.created)));
}

/** A writer's name on the page (their email and the commit on hover), or nothing when unknown. */
export function byline(a: ItemAuthor | undefined): Html {
  return a ? html`<span class="by" title="${a.email} in ${a.commit.slice(0, 12)}">${a.name}</span>` : html``;
}

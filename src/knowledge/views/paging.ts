import { AxmeError } from '../../model/errors.ts';

/** Default size of one reply page, in characters. */
export const DEFAULT_PAGE_BUDGET = 25_000;

export interface Page {
  text: string;
  /** 1-based */
  page: number;
  pages: number;
  /** indexes (into the blocks given) of the blocks on this page */
  blocks: number[];
}

/**
 * Packs text blocks (one item each) into pages of at most `budget` characters, never splitting a
 * block: a block larger than the budget gets a page of its own. The footer names the next page.
 */
export function paginate(header: string, blocks: string[], budget: number, page = 1): Page {
  if (!Number.isInteger(page) || page < 1) throw new AxmeError('INVALID_INPUT', `page must be a whole number from 1 (got ${page})`);
  const pages: number[][] = [[]];
  let size = header.length;
  blocks.forEach((b, i) => {
    const cur = pages[pages.length - 1]!;
    if (cur.length > 0 && size + b.length + 2 > budget) {
      pages.push([i]);
      size = header.length + b.length;
    } else {
      cur.push(i);
      size += b.length + 2;
    }
  });
  if (page > pages.length)
    throw new AxmeError('INVALID_INPUT', `page ${page} does not exist: there ${pages.length === 1 ? 'is 1 page' : `are ${pages.length} pages`}`);
  const on = pages[page - 1]!;
  const footer =
    pages.length > 1
      ? page < pages.length
        ? `\n\n--- page ${page} of ${pages.length}: call again with page: ${page + 1} for more ---`
        : `\n\n--- page ${page} of ${pages.length} (last) ---`
      : '';
  const body = on.map((i) => blocks[i]).join('\n\n');
  return { text: `${header}${header && body ? '\n\n' : ''}${body}${footer}`, page, pages: pages.length, blocks: on };
}

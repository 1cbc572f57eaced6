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

/** The most a page's footer takes (`--- page N of M: call again with page: N+1 for more ---`, with its blank line). */
const FOOTER_ROOM = '\n\n--- page 9999 of 9999: call again with page: 10000 for more ---'.length;

/** Which blocks go on which page: in order, a block on the page it fits, a page never empty (a block over the budget stands alone). */
function layout(header: string, blocks: string[], budget: number): number[][] {
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
  return pages;
}

/**
 * Packs text blocks (one item each) into pages of at most `budget` characters, never splitting a
 * block: a block larger than the budget gets a page of its own. The footer names the next page,
 * and is counted in the budget.
 */
export function paginate(header: string, blocks: string[], budget: number, page = 1): Page {
  if (!Number.isInteger(page) || page < 1) throw new AxmeError('INVALID_INPUT', `page must be a whole number from 1 (got ${page})`);
  // paged, each page keeps room for its footer ("--- page 1 of 2: …"), which is part of the budget too
  const once = layout(header, blocks, budget);
  const pages = once.length > 1 ? layout(header, blocks, budget - FOOTER_ROOM) : once;
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

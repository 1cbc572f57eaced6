import type { Doc } from './build-index.ts';
import { GAP } from './item-document.ts';

/** What one term of the query is worth where it is found: its group (one word of the query) and its IDF times its alternative's weight. */
export interface TermValue {
  group: number;
  value: number;
}

/** A query's terms by the word of the query they stand for, as `bestPassage` reads them. */
export type QueryValues = ReadonlyMap<string, TermValue>;

/**
 * The worth of the best passage of `d`: the most, over runs of `width` consecutive words of one
 * text (the title, or one text of the body), of the query's words found there — each word
 * counted once, at its best alternative's value — when at least two are found together; 0
 * otherwise. Answers often sit in one paragraph of a long text: this favours the document where
 * the question's words meet over one where they are scattered. Reads the positions kept at
 * index time (`Doc.near`), never the text.
 */
export function bestPassage(d: Doc, values: QueryValues, width: number): number {
  // the document's slots that are terms of the query
  const { terms, near } = d;
  let slotValue: Map<number, TermValue> | undefined;
  for (let s = 0; s < terms.length; s++) {
    const v = values.get(terms[s]!);
    if (v) (slotValue ??= new Map()).set(s, v);
  }
  if (!slotValue || slotValue.size < 2) return 0;
  // the hits in reading order, a text's end pushing the next one `width` words away
  const at: number[] = [];
  const hit: TermValue[] = [];
  let offset = 0;
  for (let p = 0; p < near.length; p++) {
    const s = near[p]!;
    if (s === GAP) {
      offset += width;
      continue;
    }
    const v = slotValue.get(s);
    if (v) {
      at.push(p + offset);
      hit.push(v);
    }
  }
  let best = 0;
  const inWindow = new Map<number, number[]>();
  let from = 0;
  for (let to = 0; to < at.length; to++) {
    while (at[to]! - at[from]! >= width) {
      const list = inWindow.get(hit[from]!.group)!;
      list.splice(list.indexOf(hit[from]!.value), 1);
      if (!list.length) inWindow.delete(hit[from]!.group);
      from++;
    }
    const { group, value } = hit[to]!;
    const list = inWindow.get(group) ?? (inWindow.set(group, []), inWindow.get(group)!);
    list.push(value);
    if (inWindow.size < 2) continue;
    let sum = 0;
    for (const vs of inWindow.values()) sum += Math.max(...vs);
    if (sum > best) best = sum;
  }
  return best;
}

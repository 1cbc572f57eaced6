import { isWord } from './analyze.ts';
import type { TermIds } from './index-shape.ts';

/**
 * An index file's terms looked up without a Map (docs/search.md, "How the index is stored"): the
 * terms in id order and, from the file, their ids in the terms' sorted order, searched by
 * halving (also the terms of postings laid out flat after a write, which the file then writes:
 * live-index.ts `compactPostings`). Opening a file then builds nothing a term; a query looks up its few words, and the
 * terms a word starts are one range of the sorted order. Answers as a Map of the same terms would.
 */
export class FileVocabulary implements TermIds {
  readonly #terms: readonly string[];
  readonly #order: Int32Array;

  /** `order`: every id once, the ids sorted by their terms (`sortedOrder`). */
  constructor(terms: readonly string[], order: Int32Array) {
    if (order.length !== terms.length) throw new Error('index file: bad term order');
    this.#terms = terms;
    this.#order = order;
  }

  get size(): number {
    return this.#terms.length;
  }

  /** The ids in their terms' sorted order (`sortedOrder`): what an index file writes, not sorted again. */
  get order(): Int32Array {
    return this.#order;
  }

  /** The id of `term`, or undefined. */
  get(term: string): number | undefined {
    const at = this.#lowerBound(term);
    if (at === this.#order.length) return undefined;
    const id = this.#order[at]!;
    return this.#terms[id] === term ? id : undefined;
  }

  has(term: string): boolean {
    return this.get(term) !== undefined;
  }

  /** The terms in id order. */
  keys(): IterableIterator<string> {
    return this.#terms.values();
  }

  *[Symbol.iterator](): IterableIterator<[string, number]> {
    for (let id = 0; id < this.#terms.length; id++) yield [this.#terms[id]!, id];
  }

  /** Throws unless the order holds every id once, sorted by the terms: one pass, for a reader that reads the whole file anyway (a query at the tip checks each id it meets). */
  check(): void {
    const seen = new Uint8Array(this.#order.length);
    for (let at = 0; at < this.#order.length; at++) {
      const id = this.#order[at]!;
      if (seen[id] !== 0 || (at > 0 && !(this.#termAt(at - 1) < this.#termAt(at)))) throw new Error('index file: bad term order');
      seen[id] = 1;
    }
  }

  /** The terms without digits that start with `prefix`, in sorted order (`termsStartingWith`'s answer), from one range of the sorted order. */
  startingWith(prefix: string): string[] {
    const out: string[] = [];
    for (let at = this.#lowerBound(prefix); at < this.#order.length; at++) {
      const t = this.#termAt(at);
      if (!t.startsWith(prefix)) break;
      if (isWord(t)) out.push(t);
    }
    return out;
  }

  /** The first position of the sorted order whose term is not below `term`. */
  #lowerBound(term: string): number {
    let lo = 0;
    let hi = this.#order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#termAt(mid) < term) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #termAt(at: number): string {
    const t = this.#terms[this.#order[at]!];
    if (t === undefined) throw new Error('index file: bad term order');
    return t;
  }
}

/** The ids of `terms` (in id order) sorted by their terms, as `<` orders strings: what a `FileVocabulary` searches. */
export function sortedOrder(terms: readonly string[]): Int32Array {
  const order = new Int32Array(terms.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  return order.sort((a, b) => (terms[a]! < terms[b]! ? -1 : terms[a]! > terms[b]! ? 1 : 0));
}

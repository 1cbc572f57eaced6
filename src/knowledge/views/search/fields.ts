/**
 * The fields of a search document and their BM25F parameters: `weight` is how much one
 * occurrence counts next to one in the body, `b` how much a long field is discounted.
 */
export const FIELDS = ['title', 'keys', 'anchors', 'body'] as const;
export type Field = (typeof FIELDS)[number];

export const FIELD_PARAMS: Record<Field, { weight: number; b: number }> = {
  // what the item is called
  title: { weight: 4, b: 0.4 },
  // tags of a decision, keywords of a memory: words chosen to find it
  keys: { weight: 3, b: 0.3 },
  // paths, globs, dep:<name>
  anchors: { weight: 1.5, b: 0.5 },
  // decision and reasoning, description and body, ...
  body: { weight: 1, b: 0.75 },
};

/** BM25's saturation: how fast more occurrences stop adding to a term's score. */
export const K1 = 1.2;

/** Term frequencies of one term in the four fields, packed in one number (body up to 4095, the others up to 255). */
export function packTf(tf: Record<Field, number>): number {
  return packCounts(tf.title, tf.keys, tf.anchors, tf.body);
}

/** `packTf` of the four frequencies in FIELDS order. */
export function packCounts(title: number, keys: number, anchors: number, body: number): number {
  return Math.min(body, 4095) + 4096 * Math.min(anchors, 255) + 4096 * 256 * Math.min(keys, 255) + 4096 * 65536 * Math.min(title, 255);
}

/** The frequency of a term in one field, from `packTf`'s number. */
export function tfIn(packed: number, field: Field): number {
  switch (field) {
    case 'body':
      return packed % 4096;
    case 'anchors':
      return Math.floor(packed / 4096) % 256;
    case 'keys':
      return Math.floor(packed / (4096 * 256)) % 256;
    case 'title':
      return Math.floor(packed / (4096 * 65536));
  }
}

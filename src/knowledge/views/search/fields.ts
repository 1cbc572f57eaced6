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

/** A packed frequency below this is the body's alone (the other fields' counts are its higher digits). */
const BODY_ONLY = 4096;

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

/**
 * What a term adds to document `doc`'s score before its IDF (BM25F): its frequencies in the
 * fields (`packed`, `packTf`) weighted and length-normalized (`norms`, 4 a document, from
 * `fieldNorms`), then saturated. The one definition: a build and a patch (patch-postings.ts) both
 * work a posting's gain out here.
 */
export function gainOf(packed: number, norms: Float64Array, doc: number): number {
  const n = doc * 4;
  // in the body only (most postings): the same number the sum below gives, its other terms being 0
  if (packed < BODY_ONLY) {
    const body = packed * norms[n + 3]!;
    return (body * (K1 + 1)) / (body + K1);
  }
  const tf =
    tfIn(packed, 'title') * norms[n]! + tfIn(packed, 'keys') * norms[n + 1]! + tfIn(packed, 'anchors') * norms[n + 2]! + tfIn(packed, 'body') * norms[n + 3]!;
  return (tf * (K1 + 1)) / (tf + K1);
}

/** The fields' BM25 parameters in FIELDS order. */
const PARAMS = FIELDS.map((f) => FIELD_PARAMS[f]);

/**
 * The four fields' mean lengths in words (FIELDS order) over the documents whose lengths `len`
 * holds (4 a document), 1 for a field no document has words in: what a field's length is
 * normalized by (`fieldNorm`), the one part of a gain that depends on every document.
 */
function fieldMeans(len: Float64Array): Float64Array {
  return meansOf(fieldTotals(len), len.length / 4);
}

/** The four fields' total lengths in words (FIELDS order) over the documents whose lengths `len` holds (4 a document). */
export function fieldTotals(len: Float64Array): Float64Array {
  const total = new Float64Array(4);
  for (let i = 0; i < len.length; i++) total[i & 3]! += len[i]!;
  return total;
}

/** `fieldMeans` from the fields' totals (`fieldTotals`: sums of whole numbers, the same in any order) over `docs` documents. */
export function meansOf(totals: Float64Array, docs: number): Float64Array {
  const n = docs || 1;
  return Float64Array.from(totals, (t) => t / n || 1);
}

/** Field `f`'s (FIELDS order) weight over its BM25 length normalization, for a field of `length` words where the mean is `mean` (`fieldMeans`). */
export function fieldNorm(f: number, length: number, mean: number): number {
  const { weight, b } = PARAMS[f]!;
  return weight / (1 - b + (b * length) / mean);
}

/**
 * Per document and field (4 a document, FIELDS order), `fieldNorm` of the fields' lengths in
 * words (`len`, the same layout): what `gainOf` reads.
 */
export function fieldNorms(len: Float64Array): Float64Array {
  const means = fieldMeans(len);
  const norms = new Float64Array(len.length);
  for (let i = 0; i < len.length; i++) norms[i] = fieldNorm(i & 3, len[i]!, means[i & 3]!);
  return norms;
}

/**
 * `gainOf` of `count` postings (frequencies `tf`, documents `docs`), each document's norms worked
 * out from its lengths (`len`, 4 a document) and the fields' means (`fieldMeans`) as it is read,
 * rather than every document's beforehand: after a write only the means change, and a query reads
 * few postings. One loop and no call for a posting in the body alone (most of them: a common
 * word's thousands are read by the first query after a write, before V8 has compiled this code,
 * where a call a posting costs more than the arithmetic): `fieldNorm`'s and `gainOf`'s
 * arithmetic in their order, so the same numbers.
 */
export function gainsFromLengths(tf: Float64Array, docs: Int32Array, count: number, len: Float64Array, means: Float64Array): Float64Array {
  const gain = new Float64Array(count);
  const { weight, b } = PARAMS[3]!;
  const mean = means[3]!;
  for (let p = 0; p < count; p++) {
    const packed = tf[p]!;
    const n = docs[p]! * 4;
    const t =
      packed < BODY_ONLY
        ? packed * (weight / (1 - b + (b * len[n + 3]!) / mean))
        : tfIn(packed, 'title') * fieldNorm(0, len[n]!, means[0]!) +
          tfIn(packed, 'keys') * fieldNorm(1, len[n + 1]!, means[1]!) +
          tfIn(packed, 'anchors') * fieldNorm(2, len[n + 2]!, means[2]!) +
          tfIn(packed, 'body') * fieldNorm(3, len[n + 3]!, mean);
    gain[p] = (t * (K1 + 1)) / (t + K1);
  }
  return gain;
}

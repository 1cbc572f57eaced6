import { bestFirst } from './best-first.ts';
import { simdMemory } from './simd-kernels.ts';

/**
 * Vectors laid out for the ranking by meaning: `count` vectors of `dims` float32, each padded
 * with zeros to `stride` (a multiple of 32), in one buffer, and the same vectors in int8.
 *
 * `nearest(query)` gives the positions of the vectors whose cosine with the query is positive,
 * highest first, with that cosine — exactly the order and the numbers of a full pass in float64
 * (`cosines`, what the ranking always computed), for a fraction of the work: a first pass over
 * the int8 vectors (a quarter of the bytes, 16 multiply-adds an instruction) gives each vector's
 * cosine to within a bound of its own (what its rounding to int8 and the query's to int16 can
 * change); the vectors are then taken by that upper bound, and a vector's exact cosine worked out
 * only when it can still be among the next: once the best exact cosine found is above every other
 * vector's bound, it is the next. At 10,000 × 256 a query works out the exact cosine of about a
 * hundred vectors (docs/benchmarks.md). The passes run in WebAssembly SIMD (simd-kernels.ts);
 * where WebAssembly is not there (`node --jitless`) or its memory cannot be had, `nearest` is the
 * full pass in JavaScript.
 */
export interface VectorTable {
  count: number;
  dims: number;
  stride: number;
  /** every vector, padded to `stride`, in order (the table's own buffer) */
  rows: Float32Array;
  /** vector `i`'s `dims` floats (a view of the table) */
  row(i: number): Float32Array;
  /** sets vector `i` to the first `dims` floats of `v` */
  set(i: number, v: Float32Array): void;
  /** copies `n` vectors of `from` (a table of the same `dims`), from its position `at`, to position `to` */
  copy(from: VectorTable, at: number, to: number, n: number): void;
  /** the positions whose cosine with `query` is positive, highest first (the lower position first on a tie), each with its cosine as `cosines` gives it; `first`: about how many the reader takes */
  nearest(query: Float32Array, first: number): Generator<[position: number, cosine: number]>;
  /** the vectors in int8, which `nearest` passes over first in WebAssembly: a SIMD table's, none for the JavaScript pass */
  int8?: Int8Rows;
}

/**
 * Vector `i` is its int8 row times its scale, `stats[3i]`, to within `stats[3i + 1]` (the length
 * of the difference); `stats[3i + 2]` is the length of that approximation.
 */
export interface Int8Rows {
  rows: Int8Array;
  stats: Float32Array;
}

/** A bound's margin for the rounding of float32 numbers (the cosine, the scales): far above it, far below any gap the ranking sees. */
const SLACK = 1e-6;

/** A table of `count` vectors of `dims` floats (all zeros until `set`); `simd: false` for the JavaScript pass. */
export function vectorTable(count: number, dims: number, opts: { simd?: boolean } = {}): VectorTable {
  const stride = Math.ceil(dims / 32) * 32 || 32;
  // the memory's layout: the query in int16; the int8 pass's results; each row's scale, error and length; the int8 rows; the float32 rows
  const query16At = 0;
  const dotsAt = query16At + stride * 2;
  const statsAt = dotsAt + Math.ceil(count / 4) * 16;
  const rows8At = statsAt + Math.ceil((count * 3) / 4) * 16;
  const rowsAt = rows8At + Math.ceil((count * stride) / 16) * 16;
  const memory = opts.simd === false ? null : simdMemory(rowsAt + count * stride * 4);
  const buffer = memory?.buffer ?? new ArrayBuffer(count * stride * 4);
  const rows = new Float32Array(buffer, memory ? rowsAt : 0, count * stride);
  const row = (i: number) => rows.subarray(i * stride, i * stride + dims);
  const exact = (i: number, query: Float32Array, m: number) => exactCosine(rows, i * stride, query, m);
  if (!memory) {
    const table: VectorTable = {
      count,
      dims,
      stride,
      rows,
      row,
      set: (i, v) => row(i).set(v.subarray(0, dims)),
      copy: (from, at, to, n) => rows.set(from.rows.subarray(at * stride, (at + n) * stride), to * stride),
      *nearest(query, first) {
        const cos = cosines(table, query);
        for (const i of bestFirst(cos, first)) yield [i, cos[i]!];
      },
    };
    return table;
  }
  const query16 = new Int16Array(buffer, query16At, stride);
  const dotsOut = new Int32Array(buffer, dotsAt, count);
  const int8: Int8Rows = { rows: new Int8Array(buffer, rows8At, count * stride), stats: new Float32Array(buffer, statsAt, count * 3) };
  const set = (i: number, v: Float32Array) => {
    rows.set(v.subarray(0, dims), i * stride);
    memory.quantize(rowsAt + i * stride * 4, rows8At + i * stride, 1, stride, statsAt + i * 12);
  };
  return {
    count,
    dims,
    stride,
    rows,
    row,
    int8,
    set,
    copy(from, at, to, n) {
      rows.set(from.rows.subarray(at * stride, (at + n) * stride), to * stride);
      if (!from.int8) {
        for (let k = 0; k < n; k++) set(to + k, from.row(at + k));
        return;
      }
      int8.rows.set(from.int8.rows.subarray(at * stride, (at + n) * stride), to * stride);
      int8.stats.set(from.int8.stats.subarray(3 * at, 3 * (at + n)), 3 * to);
    },
    *nearest(query, first) {
      const m = Math.min(dims, query.length);
      let max = 0;
      let norm = 0;
      for (let j = 0; j < m; j++) {
        max = Math.max(max, Math.abs(query[j]!));
        norm += query[j]! ** 2;
      }
      if (max === 0) return; // every cosine is 0
      // the query in int16 (its scale `s`), to within `qError`; its largest number such that a row's
      // sum of int8 × int16 products stays inside an int32 whatever the dimensions (an endpoint's 3,072)
      const s = max / Math.min(32767, Math.floor(0x7fffffff / (127 * stride)));
      let qError = 0;
      query16.fill(0);
      for (let j = 0; j < m; j++) {
        const q = Math.round(query[j]! / s);
        query16[j] = q;
        qError += (query[j]! - q * s) ** 2;
      }
      qError = Math.sqrt(qError);
      norm = Math.sqrt(norm);
      memory.dots8(query16At, rows8At, count, stride, dotsAt);
      // each vector's cosine is at most its int8 estimate plus what the two roundings can change:
      // |v·q − v'·q'| ≤ |v − v'|·|q| + |v'|·|q − q'|
      const bound = new Float32Array(count);
      const { stats } = int8;
      for (let i = 0, k = 0; i < count; i++, k += 3) bound[i] = dotsOut[i]! * stats[k]! * s + stats[k + 1]! * norm + stats[k + 2]! * qError + SLACK;
      // the exact cosines worked out so far and not yet given, ascending (the next to give is last)
      const ready: Array<[number, number]> = [];
      const before = (x: [number, number], y: [number, number]) => x[1] < y[1] || (x[1] === y[1] && x[0] > y[0]);
      for (const i of bestFirst(bound, first)) {
        while (ready.length && ready[ready.length - 1]![1] > bound[i]!) yield ready.pop()!;
        const c = exact(i, query, m);
        if (!(c > 0)) continue;
        const entry: [number, number] = [i, c];
        let at = ready.length;
        while (at > 0 && before(entry, ready[at - 1]!)) at--;
        ready.splice(at, 0, entry);
      }
      while (ready.length) yield ready.pop()!;
    },
  };
}

/** One vector's cosine with `query`: its `m` floats from `at` in `rows`, one float64 sum rounded to float32. */
function exactCosine(rows: Float32Array, at: number, query: Float32Array, m: number): number {
  let c = 0;
  for (let j = 0; j < m; j++) c += rows[at + j]! * query[j]!;
  return Math.fround(c);
}

/**
 * The dot product of `query` (its first `dims` floats; zeros past its end) with every vector of
 * `table`, in order: float64 sums rounded to float32, in JavaScript. The full pass: the JavaScript
 * table's `nearest`, and what a SIMD table's `nearest` gives the order and the numbers of.
 */
export function cosines(table: VectorTable, query: Float32Array): Float32Array {
  const out = new Float32Array(table.count);
  const m = Math.min(table.dims, query.length);
  for (let i = 0; i < table.count; i++) out[i] = exactCosine(table.rows, i * table.stride, query, m);
  return out;
}

/**
 * The table of the vectors of `keys`, in their order (`vectorOf` gives a key's vector, `dims`
 * floats or more). A key `previous` (the table of its keys) holds has its row copied, in blocks
 * where the keys run in the same order — after a write, the whole table but the items it added or
 * changed, in a few block copies, whatever was removed —, and the others are taken from `vectorOf`.
 */
export function layOutVectors(
  keys: readonly string[],
  vectorOf: (key: string) => Float32Array,
  dims: number,
  previous?: { keys: readonly string[]; table: VectorTable },
): VectorTable {
  const table = vectorTable(keys.length, dims);
  const old = previous && previous.table.dims === dims && previous.table.stride === table.stride ? previous : undefined;
  // where each key's row was (two items of the same text have the same vector: any of their rows)
  const was = new Map<string, number>();
  if (old) for (let j = old.keys.length - 1; j >= 0; j--) was.set(old.keys[j]!, j);
  for (let i = 0; i < keys.length; ) {
    const j = was.get(keys[i]!);
    if (old && j !== undefined) {
      // the rows that follow it in both, copied in one block
      let run = 1;
      while (i + run < keys.length && j + run < old.keys.length && old.keys[j + run] === keys[i + run]) run++;
      table.copy(old.table, j, i, run);
      i += run;
    } else {
      table.set(i, vectorOf(keys[i]!));
      i++;
    }
  }
  return table;
}

/**
 * Vectors laid out for the ranking by meaning's one pass: `count` vectors of `dims` float32, each
 * padded with zeros to `stride` (a multiple of 8), in one buffer. `cosines(query)` is the dot
 * product of the query with every vector (their cosine: both are unit length), each product and
 * sum in float64 and the result rounded to float32 — what a plain JavaScript loop gives, so the
 * ranking does not depend on which of the two ran. It runs in a WebAssembly function using 128-bit
 * SIMD (two float64 lanes): about 6× the JavaScript loop at 10,000 × 256 (docs/benchmarks.md).
 * Where WebAssembly is not there (`node --jitless`) or its memory cannot be had, the same pass in
 * JavaScript.
 */
export interface VectorTable {
  count: number;
  dims: number;
  stride: number;
  /** every vector, padded to `stride`, in order (the table's own buffer) */
  rows: Float32Array;
  /** vector `i`'s `dims` floats, to be filled in once (a view of the table) */
  row(i: number): Float32Array;
  /** the dot product of `query` (its first `dims` floats; zeros past its end) with every vector, in order */
  cosines(query: Float32Array): Float32Array;
  /** true when `cosines` runs in WebAssembly */
  simd: boolean;
}

/** A table of `count` vectors of `dims` floats (all zeros until `row(i).set(...)`); `simd: false` for the JavaScript pass. */
export function vectorTable(count: number, dims: number, opts: { simd?: boolean } = {}): VectorTable {
  const stride = Math.ceil(dims / 8) * 8;
  const wasm = opts.simd === false ? null : simdTable(count, stride);
  const rows = wasm?.rows ?? new Float32Array(count * stride);
  const row = (i: number) => rows.subarray(i * stride, i * stride + dims);
  if (wasm)
    return {
      count,
      dims,
      stride,
      rows,
      row,
      simd: true,
      cosines: (query) => {
        wasm.query.fill(0);
        for (let j = 0, m = Math.min(dims, query.length); j < m; j++) wasm.query[j] = query[j]!;
        wasm.run();
        return wasm.out.slice();
      },
    };
  return {
    count,
    dims,
    stride,
    rows,
    row,
    simd: false,
    cosines: (query) => {
      const out = new Float32Array(count);
      const m = Math.min(dims, query.length);
      for (let i = 0, o = 0; i < count; i++, o += stride) {
        let c = 0;
        for (let j = 0; j < m; j++) c += rows[o + j]! * query[j]!;
        out[i] = c;
      }
      return out;
    },
  };
}

/** What of WebAssembly's JavaScript API the table uses (the project's TypeScript libraries do not declare it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (size: { initial: number }) => { buffer: ArrayBuffer };
}
type Cosines = (query: number, rows: number, count: number, stride: number, out: number) => void;

/** WebAssembly's API, or undefined where the runtime has none (`node --jitless`). */
const wasmApi = () => (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

/**
 * The table of the vectors of `keys`, in their order (`vectorOf` gives a key's vector, `dims`
 * floats or more). The rows of `previous` (the table of `previousKeys`) are copied where the keys
 * run in the same order — after a write, the whole table but the items it added, changed or
 * removed, in a few block copies — and the others taken from `vectorOf`.
 */
export function layOutVectors(
  keys: readonly string[],
  vectorOf: (key: string) => Float32Array,
  dims: number,
  previous?: { keys: readonly string[]; table: VectorTable },
): VectorTable {
  const table = vectorTable(keys.length, dims);
  const old = previous && previous.table.dims === dims && previous.table.stride === table.stride ? previous : undefined;
  const { stride } = table;
  for (let i = 0, j = 0; i < keys.length; ) {
    // an item removed or changed since the previous table: its old row is passed over
    if (old && j + 1 < old.keys.length && old.keys[j] !== keys[i] && old.keys[j + 1] === keys[i]) j++;
    if (old && j < old.keys.length && old.keys[j] === keys[i]) {
      let run = 1;
      while (i + run < keys.length && j + run < old.keys.length && old.keys[j + run] === keys[i + run]) run++;
      table.rows.set(old.table.rows.subarray(j * stride, (j + run) * stride), i * stride);
      i += run;
      j += run;
    } else {
      table.row(i).set(vectorOf(keys[i]!).subarray(0, dims));
      i++;
    }
  }
  return table;
}

/**
 * The table in a WebAssembly memory of its own: the query as float64 (`stride` of them), the
 * results (`count` float32), then the rows. Null when WebAssembly, its SIMD or the memory is not
 * to be had.
 */
function simdTable(count: number, stride: number): { query: Float64Array; out: Float32Array; rows: Float32Array; run: () => void } | null {
  const module = cosinesModule();
  if (!module) return null;
  const queryAt = 0;
  const outAt = stride * 8;
  const rowsAt = outAt + Math.ceil((count * 4) / 16) * 16;
  const bytes = rowsAt + count * stride * 4;
  const wasm = wasmApi()!;
  let memory: { buffer: ArrayBuffer };
  let cosines: Cosines;
  try {
    memory = new wasm.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) });
    cosines = new wasm.Instance(module, { axme: { memory } }).exports.cosines as Cosines;
  } catch {
    return null; // no address space for one more memory: the JavaScript pass
  }
  const { buffer } = memory;
  return {
    query: new Float64Array(buffer, queryAt, stride),
    out: new Float32Array(buffer, outAt, count),
    rows: new Float32Array(buffer, rowsAt, count * stride),
    run: () => cosines(queryAt, rowsAt, count, stride, outAt),
  };
}

let compiled: object | null | undefined;

/** The compiled cosine pass (compiled once: a module is immutable), or null when this runtime cannot run it. */
function cosinesModule(): object | null {
  if (compiled === undefined) {
    const wasm = wasmApi();
    try {
      compiled = wasm ? new wasm.Module(cosinesWasm()) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

// The WebAssembly binary format's few words this module needs (https://webassembly.github.io/spec/core/binary/).
const uleb = (n: number): number[] => {
  const out: number[] = [];
  do {
    const b = n & 0x7f;
    n >>>= 7;
    out.push(n ? b | 0x80 : b);
  } while (n);
  return out;
};
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];
const vector = (items: number[][]) => [...uleb(items.length), ...items.flat()];
const name = (s: string) => [...uleb(s.length), ...Buffer.from(s, 'utf8')];
const I32 = 0x7f;
const V128 = 0x7b;
const get = (local: number) => [0x20, local];
const set = (local: number) => [0x21, local];
const tee = (local: number) => [0x22, local];
const i32 = (n: number) => [0x41, n]; // i32.const: only 0..63 here (one byte of signed LEB128)
const simd = (op: number, ...imm: number[]) => [0xfd, ...uleb(op), ...imm];
const [I32_ADD, I32_MUL, I32_SHL, I32_GE_U, I32_LT_U] = [0x6a, 0x6c, 0x74, 0x4f, 0x49];
const [BLOCK, LOOP, BR, BR_IF, END, EMPTY] = [0x02, 0x03, 0x0c, 0x0d, 0x0b, 0x40];
const [F64_ADD, F32_DEMOTE_F64, F32_STORE] = [0xa0, 0xb6, 0x38];
const V128_LOAD = (offset: number) => simd(0x00, 3, ...uleb(offset));
const V128_LOAD64_ZERO = (offset: number) => simd(0x5d, 3, ...uleb(offset));
const V128_ZERO = simd(0x0c, ...new Array<number>(16).fill(0));
const F64X2_PROMOTE_LOW_F32X4 = simd(0x5f);
const [F64X2_ADD, F64X2_MUL] = [simd(0xf0), simd(0xf2)];
const F64X2_EXTRACT_LANE = (lane: number) => simd(0x21, lane);

/**
 * The module, as its text format would write it:
 *
 *   (func (export "cosines") (param $query $rows $count $stride $out i32)
 *     (local $i $j $bytes i32) (local $a $b v128)
 *     $bytes = $stride * 4
 *     for $i in 0 .. $count:
 *       $a = $b = 0
 *       for $j in 0 .. $bytes by 32 (8 floats):            ;; 4 steps of 2 floats, into $a and $b in turn
 *         $a += f64x2(promote(load64 $rows+$j+0))  * load($query + 2·$j + 0)
 *         $b += f64x2(promote(load64 $rows+$j+8))  * load($query + 2·$j + 16)
 *         $a += f64x2(promote(load64 $rows+$j+16)) * load($query + 2·$j + 32)
 *         $b += f64x2(promote(load64 $rows+$j+24)) * load($query + 2·$j + 48)
 *       $a += $b
 *       f32 store $out + 4·$i = demote($a[0] + $a[1])
 *       $rows += $bytes
 *
 * The memory is imported (`axme.memory`): each table has its own.
 */
function cosinesWasm(): Uint8Array {
  const [query, rows, count, stride, out, i, j, bytes, a, b] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  const step = (acc: number, offset: number) => [
    ...get(acc),
    ...get(rows),
    ...get(j),
    I32_ADD,
    ...V128_LOAD64_ZERO(offset),
    ...F64X2_PROMOTE_LOW_F32X4,
    ...get(query),
    ...get(j),
    ...i32(1),
    I32_SHL,
    I32_ADD,
    ...V128_LOAD(offset * 2),
    ...F64X2_MUL,
    ...F64X2_ADD,
    ...set(acc),
  ];
  const code = [
    ...[...get(stride), ...i32(4), I32_MUL, ...set(bytes)],
    ...[BLOCK, EMPTY, LOOP, EMPTY],
    ...[...get(i), ...get(count), I32_GE_U, BR_IF, 1],
    ...[...V128_ZERO, ...set(a), ...V128_ZERO, ...set(b), ...i32(0), ...set(j)],
    ...[LOOP, EMPTY, ...step(a, 0), ...step(b, 8), ...step(a, 16), ...step(b, 24)],
    ...[...get(j), ...i32(32), I32_ADD, ...tee(j), ...get(bytes), I32_LT_U, BR_IF, 0, END],
    ...[...get(out), ...get(i), ...i32(4), I32_MUL, I32_ADD],
    ...[...get(a), ...get(b), ...F64X2_ADD, ...tee(a), ...F64X2_EXTRACT_LANE(0), ...get(a), ...F64X2_EXTRACT_LANE(1), F64_ADD, F32_DEMOTE_F64],
    ...[F32_STORE, 2, 0],
    ...[...get(rows), ...get(bytes), I32_ADD, ...set(rows)],
    ...[...get(i), ...i32(1), I32_ADD, ...set(i), BR, 0, END, END],
    END,
  ];
  const body = [
    ...vector([
      [3, I32],
      [2, V128],
    ]),
    ...code,
  ];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector([[0x60, ...vector([[I32], [I32], [I32], [I32], [I32]]), 0]])), // type: (i32 × 5) -> ()
    ...section(2, vector([[...name('axme'), ...name('memory'), 0x02, 0x00, 0x01]])), // import: a memory of at least one page
    ...section(3, vector([[0]])), // one function, of type 0
    ...section(7, vector([[...name('cosines'), 0x00, 0]])), // export it
    ...section(10, vector([[...uleb(body.length), ...body]])), // its code
  ]);
}

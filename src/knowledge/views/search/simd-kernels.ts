// The WebAssembly functions behind the vector table's passes (vector-table.ts), assembled here
// from their instructions: no build step, no binary file. Each table has a memory of its own; the
// module is compiled once a process.

/** What of WebAssembly's JavaScript API the table uses (the project's TypeScript libraries do not declare it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (size: { initial: number }) => { buffer: ArrayBuffer };
}

/** WebAssembly's API, or undefined where the runtime has none (`node --jitless`). */
const wasmApi = () => (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

/** A pass over `count` rows of `stride` numbers at byte offset `rows`, with the query at `query`, one result a row written at `out`. */
type Pass = (query: number, rows: number, count: number, stride: number, out: number) => void;

/** A WebAssembly memory of its own and the two passes over it. */
export interface SimdMemory {
  buffer: ArrayBuffer;
  /** int8 rows · an int16 query: each row's exact integer dot product, stored as int32 */
  dots8: Pass;
  /**
   * float32 rows (at `query`) to int8 rows (at `rows`): each row's scale (its largest magnitude /
   * 127), the length of its rounding error and of its int8 row times the scale, stored as three
   * float32 a row at `out`
   */
  quantize: Pass;
}

/** A memory of at least `bytes` with the passes over it, or null when WebAssembly, its SIMD or the memory is not to be had. */
export function simdMemory(bytes: number): SimdMemory | null {
  const module = passesModule();
  if (!module) return null;
  const wasm = wasmApi()!;
  try {
    const memory = new wasm.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) });
    const { exports } = new wasm.Instance(module, { axme: { memory } });
    return { buffer: memory.buffer, dots8: exports.dots8 as Pass, quantize: exports.quantize as Pass };
  } catch {
    return null; // no address space for one more memory: the JavaScript pass
  }
}

let compiled: object | null | undefined;

/** The compiled module (compiled once: a module is immutable), or null when this runtime cannot run it. */
function passesModule(): object | null {
  if (compiled === undefined) {
    const wasm = wasmApi();
    try {
      compiled = wasm ? new wasm.Module(passesWasm()) : null;
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
/** i32.const `n` (n ≥ 0): signed LEB128, so 64 and above take a second byte */
const i32 = (n: number): number[] => {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>>= 7;
    if (n === 0 && !(b & 0x40)) return [0x41, ...out, b];
    out.push(b | 0x80);
  }
};
const simd = (op: number, ...imm: number[]) => [0xfd, ...uleb(op), ...imm];
const [I32_ADD, I32_MUL, I32_SHL, I32_GE_U, I32_LT_U, I32_STORE] = [0x6a, 0x6c, 0x74, 0x4f, 0x49, 0x36];
const [BLOCK, LOOP, BR, BR_IF, END, EMPTY] = [0x02, 0x03, 0x0c, 0x0d, 0x0b, 0x40];
const F32_STORE = 0x38;
const V128_LOAD = (offset: number) => simd(0x00, 3, ...uleb(offset));
const V128_ZERO = simd(0x0c, ...new Array<number>(16).fill(0));
const [I16X8_EXTEND_LOW_I8X16_S, I16X8_EXTEND_HIGH_I8X16_S] = [simd(0x87), simd(0x88)];
const [I32X4_ADD, I32X4_DOT_I16X8_S] = [simd(0xae), simd(0xba)];
const I32X4_EXTRACT_LANE = (lane: number) => simd(0x1b, lane);
const F32 = 0x7d;
const I32_SHR_U = 0x76;
const [F32_GT, F32_SQRT, F32_ADD, F32_DIV, F32_MAX, SELECT] = [0x5e, 0x91, 0x92, 0x95, 0x97, 0x1b];
const f32 = (x: number) => [0x43, ...new Uint8Array(Float32Array.of(x).buffer)];
const V128_STORE = (offset: number) => simd(0x0b, 4, ...uleb(offset));
const [F32X4_SPLAT, F32X4_EXTRACT_LANE] = [simd(0x13), (lane: number) => simd(0x1f, lane)];
const [F32X4_NEAREST, F32X4_ABS, F32X4_ADD, F32X4_SUB, F32X4_MUL, F32X4_MAX] = [simd(0x6a), simd(0xe0), simd(0xe4), simd(0xe5), simd(0xe6), simd(0xe9)];
const [I32X4_TRUNC_SAT_F32X4_S, F32X4_CONVERT_I32X4_S] = [simd(0xf8), simd(0xfa)];
const [I8X16_NARROW_I16X8_S, I16X8_NARROW_I32X4_S] = [simd(0x65), simd(0x85)];

/**
 * The int8 pass, as the text format would write it:
 *
 *   (func (export "dots8") (param $query $rows $count $stride $out i32)
 *     (local $i $j $unused i32) (local $a $b v128)
 *     for $i in 0 .. $count:
 *       $a = $b = 0
 *       for $j in 0 .. $stride by 32 (32 int8 of the row; the query's int16 at 2·$j):
 *         $a += i32x4.dot(extend_low(load $rows+$j),     load($query + 2·$j))
 *         $b += i32x4.dot(extend_high(load $rows+$j),    load($query + 2·$j + 16))
 *         $a += i32x4.dot(extend_low(load $rows+$j+16),  load($query + 2·$j + 32))
 *         $b += i32x4.dot(extend_high(load $rows+$j+16), load($query + 2·$j + 48))
 *       $a += $b
 *       i32 store $out + 4·$i = $a[0] + $a[1] + $a[2] + $a[3]
 *       $rows += $stride
 *
 * Exact: a row's sum is at most stride × 127 × the query's largest number, which the caller
 * (vector-table.ts `nearest`) keeps under 2³¹ (32,767 up to 516 dimensions, less above).
 */
function dots8Code(): number[] {
  const [query, rows, count, stride, out, i, j, , a, b] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  const step = (acc: number, offset: number, high: boolean) => [
    ...get(acc),
    ...get(rows),
    ...get(j),
    I32_ADD,
    ...V128_LOAD(offset),
    ...(high ? I16X8_EXTEND_HIGH_I8X16_S : I16X8_EXTEND_LOW_I8X16_S),
    ...get(query),
    ...get(j),
    ...i32(1),
    I32_SHL,
    I32_ADD,
    ...V128_LOAD(2 * offset + (high ? 16 : 0)),
    ...I32X4_DOT_I16X8_S,
    ...I32X4_ADD,
    ...set(acc),
  ];
  const code = [
    ...[BLOCK, EMPTY, LOOP, EMPTY],
    ...[...get(i), ...get(count), I32_GE_U, BR_IF, 1],
    ...[...V128_ZERO, ...set(a), ...V128_ZERO, ...set(b), ...i32(0), ...set(j)],
    ...[LOOP, EMPTY, ...step(a, 0, false), ...step(b, 0, true), ...step(a, 16, false), ...step(b, 16, true)],
    ...[...get(j), ...i32(32), I32_ADD, ...tee(j), ...get(stride), I32_LT_U, BR_IF, 0, END],
    ...[...get(out), ...get(i), ...i32(4), I32_MUL, I32_ADD],
    ...[...get(a), ...get(b), ...I32X4_ADD, ...tee(a), ...I32X4_EXTRACT_LANE(0)],
    ...[...get(a), ...I32X4_EXTRACT_LANE(1), I32_ADD, ...get(a), ...I32X4_EXTRACT_LANE(2), I32_ADD, ...get(a), ...I32X4_EXTRACT_LANE(3), I32_ADD],
    ...[I32_STORE, 2, 0],
    ...[...get(rows), ...get(stride), I32_ADD, ...set(rows)],
    ...[...get(i), ...i32(1), I32_ADD, ...set(i), BR, 0, END, END],
    END,
  ];
  return [
    ...vector([
      [3, I32],
      [2, V128],
    ]),
    ...code,
  ];
}

/**
 * The int8 rounding, as the text format would write it (`$from` float32 rows, `$to` int8 rows):
 *
 *   (func (export "quantize") (param $from $to $count $stride $out i32)
 *     (local $i $j $bytes i32) (local $s $inverse f32) (local $acc $len $sv $iv $x $b $q0 $q1 $q2 $q3 v128)
 *     $bytes = $stride * 4
 *     for $i in 0 .. $count:
 *       $acc = max over the row of |x| (4 lanes);  $s = the largest lane
 *       $inverse = $s > 0 ? 127 / $s : 0;  $s = $s / 127
 *       $acc = $len = 0
 *       for $j in 0 .. $bytes by 64 (16 floats, as 4 × 4):
 *         $qk = trunc_sat(nearest(x · $inverse));  $b = float($qk) · $s
 *         $acc += (x − $b)²;  $len += $b²
 *         v128 store $to + $j/4 = narrow8(narrow16($q0, $q1), narrow16($q2, $q3))
 *       f32 store $out + 12·$i = $s, sqrt(sum of $acc), sqrt(sum of $len)
 *       $from += $bytes;  $to += $stride
 */
function quantizeCode(): number[] {
  const [from, to, count, stride, out, i, j, bytes, s, inverse, acc, len, sv, iv, x, b, q0] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
  const q = (k: number) => q0 + k;
  const sumLanes = (v: number) => [
    ...get(v),
    ...F32X4_EXTRACT_LANE(0),
    ...get(v),
    ...F32X4_EXTRACT_LANE(1),
    F32_ADD,
    ...get(v),
    ...F32X4_EXTRACT_LANE(2),
    F32_ADD,
    ...get(v),
    ...F32X4_EXTRACT_LANE(3),
    F32_ADD,
  ];
  const round = (k: number) => [
    ...[...get(from), ...get(j), I32_ADD, ...V128_LOAD(16 * k), ...set(x)],
    ...[...get(x), ...get(iv), ...F32X4_MUL, ...F32X4_NEAREST, ...I32X4_TRUNC_SAT_F32X4_S, ...tee(q(k))],
    ...[...F32X4_CONVERT_I32X4_S, ...get(sv), ...F32X4_MUL, ...set(b)],
    ...[...get(x), ...get(b), ...F32X4_SUB, ...set(x)],
    ...[...get(acc), ...get(x), ...get(x), ...F32X4_MUL, ...F32X4_ADD, ...set(acc)],
    ...[...get(len), ...get(b), ...get(b), ...F32X4_MUL, ...F32X4_ADD, ...set(len)],
  ];
  const code = [
    ...[...get(stride), ...i32(4), I32_MUL, ...set(bytes)],
    ...[BLOCK, EMPTY, LOOP, EMPTY],
    ...[...get(i), ...get(count), I32_GE_U, BR_IF, 1],
    // the largest magnitude
    ...[...V128_ZERO, ...set(acc), ...i32(0), ...set(j)],
    ...[LOOP, EMPTY, ...get(acc), ...get(from), ...get(j), I32_ADD, ...V128_LOAD(0), ...F32X4_ABS, ...F32X4_MAX, ...set(acc)],
    ...[...get(j), ...i32(16), I32_ADD, ...tee(j), ...get(bytes), I32_LT_U, BR_IF, 0, END],
    ...[...get(acc), ...F32X4_EXTRACT_LANE(0), ...get(acc), ...F32X4_EXTRACT_LANE(1), F32_MAX],
    ...[...get(acc), ...F32X4_EXTRACT_LANE(2), ...get(acc), ...F32X4_EXTRACT_LANE(3), F32_MAX, F32_MAX, ...set(s)],
    ...[...f32(127), ...get(s), F32_DIV, ...f32(0), ...get(s), ...f32(0), F32_GT, SELECT, ...set(inverse)],
    ...[...get(s), ...f32(127), F32_DIV, ...set(s)],
    ...[...get(s), ...F32X4_SPLAT, ...set(sv), ...get(inverse), ...F32X4_SPLAT, ...set(iv)],
    ...[...V128_ZERO, ...set(acc), ...V128_ZERO, ...set(len), ...i32(0), ...set(j)],
    // the rows in int8, 16 at a time
    ...[LOOP, EMPTY, ...round(0), ...round(1), ...round(2), ...round(3)],
    ...[...get(to), ...get(j), ...i32(2), I32_SHR_U, I32_ADD],
    ...[...get(q(0)), ...get(q(1)), ...I16X8_NARROW_I32X4_S, ...get(q(2)), ...get(q(3)), ...I16X8_NARROW_I32X4_S, ...I8X16_NARROW_I16X8_S],
    ...V128_STORE(0),
    ...[...get(j), ...i32(64), I32_ADD, ...tee(j), ...get(bytes), I32_LT_U, BR_IF, 0, END],
    // scale, error, length
    ...[...get(out), ...get(i), ...i32(12), I32_MUL, I32_ADD, ...tee(j), ...get(s), F32_STORE, 2, 0],
    ...[...get(j), ...sumLanes(acc), F32_SQRT, F32_STORE, 2, 4],
    ...[...get(j), ...sumLanes(len), F32_SQRT, F32_STORE, 2, 8],
    ...[...get(from), ...get(bytes), I32_ADD, ...set(from), ...get(to), ...get(stride), I32_ADD, ...set(to)],
    ...[...get(i), ...i32(1), I32_ADD, ...set(i), BR, 0, END, END],
    END,
  ];
  return [
    ...vector([
      [3, I32],
      [2, F32],
      [10, V128],
    ]),
    ...code,
  ];
}

/** The module: the two passes, over a memory it imports (`axme.memory`: each table has its own). */
function passesWasm(): Uint8Array {
  const bodies = [dots8Code(), quantizeCode()];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector([[0x60, ...vector([[I32], [I32], [I32], [I32], [I32]]), 0]])), // type: (i32 × 5) -> ()
    ...section(2, vector([[...name('axme'), ...name('memory'), 0x02, 0x00, 0x01]])), // import: a memory of at least one page
    ...section(3, vector([[0], [0]])), // two functions, of type 0
    ...section(
      7,
      vector([
        [...name('dots8'), 0x00, 0],
        [...name('quantize'), 0x00, 1],
      ]),
    ), // export them
    ...section(10, vector(bodies.map((body) => [...uleb(body.length), ...body]))), // their code
  ]);
}

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { cosines, layOutVectors, vectorTable } from '../../src/knowledge/views/search/vector-table.ts';
import { TS_NODE_ARGS } from '../helpers.ts';

/** `count` unit vectors of `dims` floats from a fixed generator (the same ones every run). */
function unitVectors(count: number, dims: number, seed: number): Float32Array[] {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5;
  return Array.from({ length: count }, () => {
    const v = Float32Array.from({ length: dims }, next);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

/** The cosines as the ranking by meaning always worked them out: one float64 sum a vector, rounded to float32. */
const sequential = (vectors: Float32Array[], query: Float32Array) =>
  Float32Array.from(vectors, (v) => {
    let c = 0;
    for (let j = 0; j < Math.min(v.length, query.length); j++) c += v[j]! * query[j]!;
    return c;
  });

const tableOf = (vectors: Float32Array[], dims: number, simd: boolean) => {
  const t = vectorTable(vectors.length, dims, { simd });
  vectors.forEach((v, i) => void t.set(i, v));
  return t;
};

describe('the vector table: every cosine of a query in one pass', () => {
  test('the full pass gives the cosines of the plain float64 loop; a SIMD table keeps each vector in int8 with its scale, the length of its rounding error and of the rounded vector', () => {
    for (const [count, dims] of [
      [2000, 256],
      [300, 6],
      [257, 13],
      [1, 8],
      [0, 256],
    ] as const) {
      const vectors = unitVectors(count, dims, count + dims);
      const queries = unitVectors(5, dims, 7);
      const simd = tableOf(vectors, dims, true);
      const plain = tableOf(vectors, dims, false);
      assert.ok(simd.int8, 'this runtime has WebAssembly SIMD: the table uses it');
      assert.equal(plain.int8, undefined);
      assert.equal(simd.stride % 32, 0);
      for (const q of queries) {
        const want = sequential(vectors, q);
        assert.deepEqual(cosines(simd, q), want, `${count} × ${dims}`);
        assert.deepEqual(cosines(plain, q), want, `${count} × ${dims}, JavaScript`);
      }
      // the int8 rows, worked out again here: the largest magnitude to ±127, the others rounded to nearest
      const { rows, stats } = simd.int8!;
      vectors.forEach((v, i) => {
        const scale = Math.fround(Math.max(...v.map(Math.abs)) / 127);
        assert.equal(stats[3 * i], scale, `row ${i}'s scale`);
        let error = 0;
        let length = 0;
        for (let j = 0; j < dims; j++) {
          const q = rows[i * simd.stride + j]!;
          assert.ok(Math.abs(v[j]! / scale - q) <= 0.5 + 1e-4, `row ${i}, dimension ${j}: ${v[j]! / scale} rounded to ${q}`);
          error += (v[j]! - q * scale) ** 2;
          length += (q * scale) ** 2;
        }
        assert.ok(Math.abs(stats[3 * i + 1]! - Math.sqrt(error)) < 1e-6, `row ${i}'s error`);
        assert.ok(Math.abs(stats[3 * i + 2]! - Math.sqrt(length)) < 1e-5, `row ${i}'s length`);
        for (let j = dims; j < simd.stride; j++) assert.equal(rows[i * simd.stride + j], 0, 'the padding stays 0');
      });
    }
  });

  test('nearest: the positive cosines best first, the order and the numbers of the full float64 pass, on vectors close together and far apart, with ties', () => {
    /** What the ranking read before: every positive cosine of the full pass, highest first, the lower position first on a tie. */
    const full = (table: ReturnType<typeof tableOf>, q: Float32Array) => {
      const cos = cosines(table, q);
      return [...cos.keys()]
        .filter((i) => cos[i]! > 0)
        .sort((a, b) => cos[b]! - cos[a]! || a - b)
        .map((i) => [i, cos[i]!]);
    };
    // near one another as a store's items are (a shared part and a little of their own), and duplicates: ties
    const spread = unitVectors(3000, 64, 21);
    const base = unitVectors(1, 64, 22)[0]!;
    const close = spread.map((v, i) => {
      const w = base.map((x, j) => x + 0.15 * v[j]!);
      const norm = Math.hypot(...w);
      return i % 7 === 0 ? spread[0]!.slice() : w.map((x) => x / norm);
    });
    for (const [label, vectors, dims] of [
      ['spread', spread, 64],
      ['close, with duplicates', close, 64],
      ['model-sized', unitVectors(2000, 256, 23), 256],
      ['tiny', unitVectors(40, 6, 24), 6],
    ] as const) {
      const table = tableOf(vectors as Float32Array[], dims, true);
      assert.ok(table.int8, 'a SIMD table keeps the int8 rows');
      for (const q of [...unitVectors(6, dims, 25), vectors[0]!, vectors[7]!]) {
        const want = full(table, q);
        assert.deepEqual([...table.nearest(q, 100)], want, label);
        // a reader that stops early gets the same first ones
        const taken: Array<[number, number]> = [];
        for (const x of table.nearest(q, 10)) if (taken.push(x) >= 12) break;
        assert.deepEqual(taken, want.slice(0, 12), `${label}, the first 12`);
      }
      assert.deepEqual([...table.nearest(new Float32Array(dims), 10)], [], 'a zero query: no positive cosine');
    }
  });

  test("nearest on an endpoint's wide vectors (768 to 3,072 dimensions) of equal-sized numbers: no int32 sum of the int8 pass overflows", () => {
    for (const dims of [768, 1024, 3072]) {
      // ±1/√d in every dimension (a sign vector's shape): each row's int8 numbers and the query's are all at their largest
      let s = dims;
      const sign = () => ((s = (s * 1103515245 + 12345) >>> 0) & 0x10000 ? 1 : -1) / Math.sqrt(dims);
      const vectors = Array.from({ length: 40 }, () => Float32Array.from({ length: dims }, sign));
      const table = tableOf(vectors, dims, true);
      const q = vectors[17]!;
      const got = [...table.nearest(q, 10)];
      assert.equal(got[0]?.[0], 17, `${dims} dimensions: the query's own vector first`);
      const cos = cosines(table, q);
      const want = [...cos.keys()].filter((i) => cos[i]! > 0).sort((a, b) => cos[b]! - cos[a]! || a - b);
      assert.deepEqual(
        got.map(([i]) => i),
        want,
        `${dims} dimensions`,
      );
    }
  });

  test('a query shorter than the vectors counts as zeros past its end; a longer one is read up to the table’s dimensions', () => {
    const vectors = unitVectors(50, 12, 3);
    const table = tableOf(vectors, 12, true);
    const [q] = unitVectors(1, 16, 9);
    assert.deepEqual(cosines(table, q!.subarray(0, 5)), sequential(vectors, q!.subarray(0, 5)));
    assert.deepEqual(cosines(table, q!), sequential(vectors, q!.subarray(0, 12)));
    // two tables do not share their memory: filling one leaves the other's cosines as they were
    const other = tableOf(unitVectors(50, 12, 4), 12, true);
    assert.notDeepEqual(cosines(other, q!), cosines(table, q!));
    assert.deepEqual(cosines(table, q!), sequential(vectors, q!.subarray(0, 12)));
  });

  test('without WebAssembly (node --jitless) the table is the JavaScript pass, with the same cosines and order', () => {
    const script = [
      "import { cosines, vectorTable } from './src/knowledge/views/search/vector-table.ts';",
      'const t = vectorTable(3, 4);',
      't.set(0, Float32Array.of(1, 0, 0, 0)); t.set(1, Float32Array.of(0, 1, 0, 0)); t.set(2, Float32Array.of(0.6, 0.8, 0, 0));',
      'const q = Float32Array.of(0.6, 0.8, 0, 0);',
      'console.log(JSON.stringify({ simd: !!t.int8, cos: [...cosines(t, q)], nearest: [...t.nearest(q, 2)] }));',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--jitless', ...TS_NODE_ARGS, '--input-type=module', '-e', script], {
      cwd: `${import.meta.dirname}/../..`,
      encoding: 'utf8',
    });
    const { simd, cos, nearest } = JSON.parse(out) as { simd: boolean; cos: number[]; nearest: number[][] };
    assert.equal(simd, false);
    const want = [...Float32Array.of(0.6, 0.8, 0.6 * 0.6 + 0.8 * 0.8)];
    assert.deepEqual(cos, want);
    assert.deepEqual(nearest, [
      [2, want[2]],
      [1, want[1]],
      [0, want[0]],
    ]);
  });

  test('a table laid out after a write copies the previous rows it holds, in runs where the keys run in the same order, and asks only for the others', () => {
    const dims = 20;
    const all = unitVectors(12, dims, 5);
    const vectorOf = (key: string) => all[Number(key)]!;
    const before = ['0', '1', '2', '3', '4', '5', '6', '7'];
    const first = layOutVectors(before, vectorOf, dims);
    const cases: Array<{ keys: string[]; asked: string[] }> = [
      { keys: ['0', '1', '2', '3', '9', '4', '5', '6', '7'], asked: ['9'] }, // one added in the middle
      { keys: ['0', '1', '2', '10', '4', '5', '6', '7'], asked: ['10'] }, // one changed
      { keys: ['0', '1', '2', '4', '5', '6', '7'], asked: [] }, // one removed
      { keys: ['0', '1', '2', '3', '4', '5', '6', '7', '11'], asked: ['11'] }, // one added at the end
      { keys: ['0', '1', '4', '5', '6', '7'], asked: [] }, // two removed in a row
      { keys: ['0', '1', '9', '4', '5', '6', '7'], asked: ['9'] }, // two removed, one added in their place
      { keys: ['7', '6', '5', '4', '3', '2', '1', '0'], asked: [] }, // reversed: every row found where it was
    ];
    for (const { keys, asked } of cases) {
      const seen: string[] = [];
      const table = layOutVectors(keys, (k) => (seen.push(k), vectorOf(k)), dims, { keys: before, table: first });
      assert.deepEqual(seen, asked, keys.join(' '));
      assert.deepEqual(table.rows, layOutVectors(keys, vectorOf, dims).rows, keys.join(' '));
      keys.forEach((k, i) => assert.deepEqual(table.row(i), vectorOf(k)));
      // the int8 rows copied with them: the nearest are those of a table laid out afresh
      const q = all[3]!;
      assert.deepEqual([...table.nearest(q, 5)], [...layOutVectors(keys, vectorOf, dims).nearest(q, 5)]);
    }
    // a previous table of other dimensions is not read
    const seen: string[] = [];
    layOutVectors(before, (k) => (seen.push(k), vectorOf(k)), dims, { keys: before, table: layOutVectors(before, (k) => vectorOf(k).subarray(0, 8), 8) });
    assert.equal(seen.length, before.length);
  });
});

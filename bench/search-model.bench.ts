// What a local search model costs, side by side with words only, in one run: loading the model,
// embedding a query, embedding a whole store the first time, a warm query, the first query after
// a write. The warm query with a model is measured with both cosine passes in the same process, in
// turn: the JavaScript loop over every vector (the code before) and the int8 pass then exact
// cosines (vector-table.ts `nearest`), with how many of the queries' hits the two give alike; and
// the laying out of the vectors after a write, afresh and from the previous table. Wall and CPU time. The model is potion-base-8M's size and layout (29,528 tokens × 256 float32, a WordPiece
// tokenizer.json) with synthetic weights: this machine cannot download the real one, and the cost
// does not depend on the values. Table on stdout, JSON in bench/results/search-model-<date>.json.
//
//   node --import tsx bench/search-model.bench.ts [--size 10000] [--reps 20] [--out DIR]
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeKnowledgeBase, type KnowledgeBase, openKnowledgeBase } from '../src/knowledge/core/kb.ts';
import { addDecision } from '../src/knowledge/items/decision/add-decision.ts';
import { loadStaticModel } from '../src/knowledge/models/static-model.ts';
import { layOutVectors, vectorTable } from '../src/knowledge/views/search/vector-table.ts';
import { loadSearchIndex, searchStore } from '../src/knowledge/views/search.ts';
import { machine } from './harness.ts';
import { argOf, benchEnv, fmt, type Stats, seededRepo, stats } from './lib.ts';

const argv = process.argv.slice(2);
const SIZE = Number(argOf(argv, 'size', '10000'));
const REPS = Number(argOf(argv, 'reps', '20'));
const out = argOf(argv, 'out', join(import.meta.dirname, 'results'));
if (!Number.isInteger(SIZE) || SIZE < 1 || !Number.isInteger(REPS) || REPS < 1) {
  process.stderr.write(
    'search-model.bench: --size and --reps take a whole number\nusage: node --import tsx bench/search-model.bench.ts [--size N] [--reps N] [--out DIR]\n',
  );
  process.exit(2);
}
const log = (t: string) => process.stderr.write(`search-model.bench: ${t}\n`);
const ROWS = 29_528;
const DIMS = 256;
const QUERIES = ['component 42 approach', 'how do we seed the benchmark', 'decision about component 7', 'measured approach'];
/** The queries whose hits the two cosine passes are compared on: the four above and 96 more of the seed's words and numbers. */
const ALIKE = [...QUERIES, ...Array.from({ length: 96 }, (_, i) => (i % 2 ? `approach ${i * 37} measured` : `which approach does component ${i} use`))];

/** A model folder of potion-base-8M's size: the seed's words, numbers and filler tokens; weights from a fixed generator. */
function syntheticModel(cache: string): void {
  const words = ['seeded', 'decision', 'about', 'component', 'uses', 'approach', 'measured', 'in', 'the', 'benchmark', 'seed', 'how', 'do', 'we', '.'];
  const vocab = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', ...words];
  for (let i = 0; vocab.length < ROWS / 2; i++) vocab.push(String(i));
  for (let i = 0; vocab.length < ROWS; i++) vocab.push(`##t${i}`);
  let s = 42;
  const table = new Float32Array(ROWS * DIMS).map(() => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5);
  const tokenizer = {
    added_tokens: vocab.slice(0, 5).map((content, id) => ({ id, content, special: true })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
    },
  };
  const data = Buffer.from(table.buffer);
  const header = Buffer.from(JSON.stringify({ embeddings: { dtype: 'F32', shape: [ROWS, DIMS], data_offsets: [0, data.length] } }));
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(header.length));
  const files: Record<string, Buffer> = { 'tokenizer.json': Buffer.from(JSON.stringify(tokenizer)), 'model.safetensors': Buffer.concat([len, header, data]) };
  const dir = join(cache, 'axme', 'models', 'potion-sized');
  mkdirSync(dir, { recursive: true });
  for (const [n, b] of Object.entries(files)) writeFileSync(join(dir, n), b);
  const manifest = {
    name: 'potion-sized',
    format: 'model2vec',
    source: 'bench/potion-sized',
    revision: 'r1',
    files: Object.entries(files).map(([name, b]) => ({ name, size: b.length, sha256: createHash('sha256').update(b).digest('hex') })),
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
}

async function time<T>(f: () => Promise<T> | T): Promise<number> {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
}

/** Wall and CPU milliseconds of each call, pushed to `into`. */
async function timed<T>(into: Samples, f: () => Promise<T> | T): Promise<void> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await f();
  into.wall.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  into.cpu.push((c.user + c.system) / 1000);
}
interface Samples {
  wall: number[];
  cpu: number[];
}
const samples = (): Samples => ({ wall: [], cpu: [] });

interface Row {
  measure: string;
  words: Stats | null;
  /** with the model, as the code runs now */
  model: Stats;
  /** with the model, the code before (the JavaScript loop over every vector), or the layout afresh */
  before?: Stats;
  /** CPU ms of the same calls, where measured */
  cpu?: { words?: Stats; model: Stats; before?: Stats };
}

async function main(): Promise<void> {
  const started = Date.now();
  const cache = mkdtempSync(join(tmpdir(), 'axme-bench-models-'));
  log(`a model of ${ROWS} × ${DIMS} float32 and a store of ${SIZE} decisions`);
  syntheticModel(cache);
  const repo = seededRepo(SIZE);
  const open = (model: string) => openKnowledgeBase({ cwd: repo, env: benchEnv({ XDG_CACHE_HOME: cache, AXME_SEARCH_MODEL: model }), backend: 'cli' });
  const rows: Row[] = [];
  try {
    const dir = join(cache, 'axme', 'models', 'potion-sized');
    const load: number[] = [];
    const firstQuery: number[] = [];
    const nextQuery: number[] = [];
    for (let r = 0; r < REPS; r++) {
      let m!: ReturnType<typeof loadStaticModel>;
      load.push(await time(() => (m = loadStaticModel(dir))));
      firstQuery.push(await time(() => m.embed([QUERIES[r % QUERIES.length]!])));
      nextQuery.push(await time(() => m.embed([QUERIES[(r + 1) % QUERIES.length]!])));
    }
    rows.push({ measure: 'load the model (tokenizer.json, table header)', words: null, model: stats(load) });
    rows.push({ measure: 'embed a query, rows read from the file', words: null, model: stats(firstQuery) });
    rows.push({ measure: 'embed a query, rows in memory', words: null, model: stats(nextQuery) });

    // the first query of each: words builds the index; the model also embeds every item
    let kb: KnowledgeBase = await open('off');
    const wordsFirst = await time(() => searchStore(kb, QUERIES[0]!));
    await closeKnowledgeBase(kb);
    kb = await open('potion-sized');
    const modelFirst = await time(() => searchStore(kb, QUERIES[0]!));
    await closeKnowledgeBase(kb);
    rows.push({ measure: `first query ever (index${' '}built; the model embeds ${SIZE} items)`, words: stats([wordsFirst]), model: stats([modelFirst]) });

    // a new process: the index and the vectors from disk
    const cold = { words: samples(), model: samples() };
    for (let r = 0; r < Math.min(REPS, 5); r++) {
      for (const side of ['words', 'model'] as const) {
        kb = await open(side === 'words' ? 'off' : 'potion-sized');
        await timed(cold[side], () => searchStore(kb, QUERIES[r % QUERIES.length]!));
        await closeKnowledgeBase(kb);
      }
    }
    rows.push({
      measure: 'first query of a process (index and vectors on disk)',
      words: stats(cold.words.wall),
      model: stats(cold.model.wall),
      cpu: { words: stats(cold.words.cpu), model: stats(cold.model.cpu) },
    });

    // warm: words only; then the model, the two cosine passes in turn on the same index
    const warmWords = samples();
    kb = await open('off');
    for (const q of QUERIES) await searchStore(kb, q);
    for (let r = 0; r < REPS; r++) for (const q of QUERIES) await timed(warmWords, () => searchStore(kb, q));
    const after = { words: samples(), model: samples() };
    for (let r = 0; r < Math.min(REPS, 5); r++) {
      await addDecision(kb, { title: `Written during the words run ${r}`, decision: `Component ${r} uses a new approach.` });
      await timed(after.words, () => searchStore(kb, QUERIES[r % QUERIES.length]!));
    }
    await closeKnowledgeBase(kb);
    kb = await open('potion-sized');
    for (const q of QUERIES) await searchStore(kb, q);
    const { index } = await loadSearchIndex(kb);
    const simd = index.dense!.vectors;
    const plain = vectorTable(simd.count, simd.dims, { simd: false });
    plain.rows.set(simd.rows);
    const passes = { simd, plain };
    const warm = { simd: samples(), plain: samples() };
    let alike = 0;
    for (const q of ALIKE) {
      const hits = {} as Record<keyof typeof passes, string>;
      for (const pass of ['simd', 'plain'] as const) {
        index.dense!.vectors = passes[pass];
        hits[pass] = JSON.stringify((await searchStore(kb, q)).hits.map((h) => [h.slug, h.score]));
      }
      if (hits.simd === hits.plain) alike++;
    }
    for (let r = 0; r < REPS; r++)
      for (const pass of r % 2 ? (['plain', 'simd'] as const) : (['simd', 'plain'] as const)) {
        index.dense!.vectors = passes[pass];
        for (const q of QUERIES) await timed(warm[pass], () => searchStore(kb, q));
      }
    index.dense!.vectors = simd;
    log(`the two passes' hits alike on ${alike} of ${ALIKE.length} queries`);
    // the vectors laid out after a write that added one item in the middle: afresh, every row from
    // the vectors by hash, and from the previous table
    const keys = Array.from({ length: simd.count }, (_, i) => createHash('sha256').update(String(i)).digest('hex').slice(0, 32));
    const byKey = new Map(keys.map((k, i) => [k, simd.row(i)]));
    const added = createHash('sha256').update('added').digest('hex').slice(0, 32);
    byKey.set(added, simd.row(0));
    const next = [...keys.slice(0, keys.length >> 1), added, ...keys.slice(keys.length >> 1)];
    const layout = { before: samples(), now: samples() };
    for (let r = 0; r < REPS; r++) {
      await timed(layout.before, () => layOutVectors(next, (k) => byKey.get(k)!, simd.dims));
      await timed(layout.now, () => layOutVectors(next, (k) => byKey.get(k)!, simd.dims, { keys, table: simd }));
    }
    for (let r = 0; r < Math.min(REPS, 5); r++) {
      await addDecision(kb, { title: `Written during the model run ${r}`, decision: `Component ${r} uses a new approach.` });
      await timed(after.model, () => searchStore(kb, QUERIES[r % QUERIES.length]!));
    }
    await closeKnowledgeBase(kb);
    rows.push({
      measure: 'warm query',
      words: stats(warmWords.wall),
      model: stats(warm.simd.wall),
      before: stats(warm.plain.wall),
      cpu: { words: stats(warmWords.cpu), model: stats(warm.simd.cpu), before: stats(warm.plain.cpu) },
    });
    rows.push({
      measure: 'first query after a write (one item new)',
      words: stats(after.words.wall),
      model: stats(after.model.wall),
      cpu: { words: stats(after.words.cpu), model: stats(after.model.cpu) },
    });
    rows.push({
      measure: `lay out the vectors after a write (${SIZE} + 1)`,
      words: null,
      model: stats(layout.now.wall),
      before: stats(layout.before.wall),
      cpu: { model: stats(layout.now.cpu), before: stats(layout.before.cpu) },
    });
    rows.push({ measure: `queries whose hits the two passes give alike (of ${ALIKE.length})`, words: null, model: stats([alike]) });
  } finally {
    rmSync(cache, { recursive: true, force: true });
    rmSync(repo, { recursive: true, force: true });
  }
  const cell = (s: Stats | null | undefined, cpu?: Stats) =>
    s ? `${fmt(s.median)} (${fmt(s.p10)}–${fmt(s.p90)})${cpu ? `, CPU ${fmt(cpu.median)}` : ''}` : '—';
  console.log(
    `| ${SIZE} decisions, ms median (p10–p90) | words only | words + model, before (JavaScript pass) | words + model |\n| --- | ---: | ---: | ---: |`,
  );
  for (const r of rows) console.log(`| ${r.measure} | ${cell(r.words, r.cpu?.words)} | ${cell(r.before, r.cpu?.before)} | ${cell(r.model, r.cpu?.model)} |`);
  mkdirSync(out, { recursive: true });
  const file = join(out, `search-model-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), machine: machine(), size: SIZE, reps: REPS, seconds: Math.round((Date.now() - started) / 1000), rows }, null, 2)}\n`,
  );
  log(`results: ${file}`);
}

await main();

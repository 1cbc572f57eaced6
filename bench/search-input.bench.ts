// Search on awkward input (issue 33): what a query nobody here wrote costs next to a plain one, at
// --size seeded decisions, in one process (as the MCP server and the page ask: warm, the index in
// memory) and through the query at the tip (what `axme search` runs: the index file). Each round
// asks every query once, in turn, so that the machine's noise hits all alike; wall and CPU (user +
// system) medians. Markdown table on stdout, progress on stderr.
//
//   node --import tsx bench/search-input.bench.ts [--size 10000] [--reps 15]
import { closeKnowledgeBase, openKnowledgeBase } from '../src/knowledge/core/kb.ts';
import { locateRepo } from '../src/knowledge/core/location.ts';
import { searchAtTip } from '../src/knowledge/views/search/tip-search.ts';
import { searchKnowledge } from '../src/knowledge/views/search.ts';
import { wholeArg } from './args.ts';
import { machine } from './harness.ts';
import { benchEnv, fmt, seededRepo, stats, timeCall } from './lib.ts';

const argv = process.argv.slice(2);
const size = wholeArg('search-input.bench', argv, 'size', 10_000);
const reps = wholeArg('search-input.bench', argv, 'reps', 15);
const log = (s: string) => process.stderr.write(`${s}\n`);
const env = benchEnv({ AXME_SEARCH_MODEL: 'off' });

const WORDS = ['component', 'approach', 'seeded', 'decision', 'measured', 'benchmark', 'uses', 'about'];
const upTo1000 = (word: (i: number) => string) => {
  let q = '';
  for (let i = 0; `${q} ${word(i)}`.length <= 1000; i++) q = `${q} ${word(i)}`.trim();
  return q;
};
const QUERIES: Array<[label: string, query: string]> = [
  ['plain: "component 42"', 'component 42'],
  ['stop words only: "the of and"', 'the of and'],
  ['punctuation only: "???"', '???'],
  ['an identifier: "--no-verify"', '--no-verify'],
  ['accents, decomposed: "cafe\\u0301 re\\u0301sume\\u0301"', 'café résumé'.normalize('NFD')],
  ['CJK and RTL: "東京 עברית"', '東京 עברית'],
  ["1000 characters of the store's words", upTo1000((i) => WORDS[i % WORDS.length]!)],
  ['1000 characters of misspellings', upTo1000((i) => `${WORDS[i % WORDS.length]!.slice(1)}x`)],
  ['1000 characters of numbers', upTo1000((i) => String(i))],
  ['1000 characters of unknown words', upTo1000((i) => `zq${i.toString(36)}word`)],
];

log(`seeding ${size} decisions…`);
const dir = seededRepo(size);
const kb = await openKnowledgeBase({ cwd: dir, env });
// the index built once and its file written (the query at the tip reads it)
await searchKnowledge(kb, { query: 'component', k: 10 });
await closeKnowledgeBase(kb);
const warm = await openKnowledgeBase({ cwd: dir, env });
await searchKnowledge(warm, { query: 'component', k: 10 });
const loc = locateRepo(dir, env)!;

const sides = ['in process (warm)', 'at the tip (index file)'] as const;
const wall = QUERIES.map(() => sides.map(() => [] as number[]));
const cpu = QUERIES.map(() => sides.map(() => [] as number[]));
for (let round = 0; round <= reps; round++) {
  for (const [q, [, query]] of QUERIES.entries()) {
    const w = round === 0 ? [[], []] : wall[q]!;
    const c = round === 0 ? [[], []] : cpu[q]!;
    await timeCall(() => searchKnowledge(warm, { query, k: 10 }), w[0]!, c[0]!);
    await timeCall(
      async () => {
        if (!searchAtTip({ loc, cwd: dir, env, query, k: 10, type: 'all' })) throw new Error(`the tip did not answer "${query.slice(0, 40)}"`);
      },
      w[1]!,
      c[1]!,
    );
  }
  if (round) log(`round ${round}/${reps}`);
}
await closeKnowledgeBase(warm);

const m = machine();
console.log(`search on awkward input, ${size} decisions, ${reps} rounds (${m.cpu}, ${m.cores} cores, node ${m.node})\n`);
console.log(`| query | ${sides.map((s) => `${s}: wall / CPU ms`).join(' | ')} |`);
console.log(`| --- | ${sides.map(() => '---:').join(' | ')} |`);
for (const [q, [label]] of QUERIES.entries())
  console.log(`| ${label} | ${sides.map((_, s) => `${fmt(stats(wall[q]![s]!).median)} / ${fmt(stats(cpu[q]![s]!).median)}`).join(' | ')} |`);

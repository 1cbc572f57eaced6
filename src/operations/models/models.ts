import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { ModelsStatus } from '../../knowledge/models/models-status.ts';
import type { PullResult } from '../../knowledge/models/pull-model.ts';
import { AxmeError } from '../../model/errors.ts';
import { defineOperation, PUBLISH, READ } from '../operation.ts';

const MB = 1024 * 1024;
const mb = (n: number) => (n < MB ? `${Math.ceil(n / 1024)} KB` : `${(n / MB).toFixed(n < 10 * MB ? 1 : 0)} MB`);

/** models.pull: `axme models pull [name] [--manifest <file>]`: a local model for search by meaning, into the user's cache. */
export const modelsPull = defineOperation({
  id: 'models.pull',
  summary: 'Download a search model',
  description:
    "Download a local embedding model into the user's cache ($XDG_CACHE_HOME/axme/models, default ~/.cache/axme/models), from AXME_MODELS_URL or Hugging Face at a pinned revision, each file's size and SHA-256 checked; the model then ranks search results by meaning, fused with the word ranking (docs/search.md). Once per machine; search works without it.",
  input: {
    name: z.string().max(100).optional().describe('a model of the catalog (axme models list); default potion-base-8M'),
    manifest: z
      .string()
      .max(4096)
      .optional()
      .describe('a JSON file describing another Model2Vec model: name, source (owner/name), revision, files with sha256 and size'),
  },
  output: z.looseObject({
    model: z.string().describe('the model installed'),
    dir: z.string().describe('its folder'),
    from: z.string().describe('the base its files were downloaded from'),
    files: z
      .array(z.looseObject({ name: z.string(), size: z.number(), downloaded: z.boolean().describe('false: it was there already, with the right bytes') }))
      .describe('its files'),
  }),
  annotations: PUBLISH,
  write: false,
  folder: true,
  mcp: null,
  async run(at, input): Promise<PullResult> {
    const { pullModel } = await import('../../knowledge/models/pull-model.ts');
    const { checkManifest } = await import('../../knowledge/models/catalog.ts');
    let manifest;
    if (input.manifest !== undefined && input.name !== undefined)
      throw new AxmeError(
        'INVALID_INPUT',
        `give a model's name or --manifest <file>, not both: the manifest names its model (drop ${JSON.stringify(input.name)})`,
      );
    if (input.manifest === '') throw new AxmeError('INVALID_INPUT', '--manifest takes a file: give the path of a JSON manifest, or leave --manifest out');
    if (input.manifest) {
      const path = resolve(at.cwd, input.manifest);
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch {
        throw new AxmeError('INVALID_INPUT', `cannot read the manifest ${path}: give the path of a JSON file`);
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new AxmeError('INVALID_INPUT', `${path} is not JSON`);
      }
      manifest = checkManifest(json, path);
    }
    return pullModel({
      env: at.env,
      name: input.name,
      manifest,
      onProgress: at.progress
        ? (p) => at.progress!(`${p.model}: ${p.file} ${mb(p.received)} of ${mb(p.total)} (${Math.floor((100 * p.received) / Math.max(1, p.total))}%)`)
        : undefined,
    });
  },
  cli: { command: ['models', 'pull'], positional: ['name'] },
  json: (r) => ({ ...r }),
  text: (r) => {
    const got = r.files.filter((f) => f.downloaded);
    const size = got.reduce((s, f) => s + f.size, 0);
    return `${r.model} installed in ${r.dir} (${got.length ? `${got.length} file${got.length === 1 ? '' : 's'}, ${mb(size)} downloaded from ${r.from}` : 'already there, every file verified'}); search now ranks by meaning too`;
  },
});

/** models.list: `axme models list` (and `axme models status`): the models, the one search uses, whether it loads. */
export const modelsList = defineOperation({
  id: 'models.list',
  summary: 'Search models',
  description:
    "The local embedding models: axme's catalog and those installed in the user's cache, which one search uses (AXME_SEARCH_MODEL, else the last pulled) and whether it loads; without one, search ranks by words only.",
  input: {},
  output: z.looseObject({
    dir: z.string().nullable().describe('the models folder'),
    current: z.string().nullable().describe('the model search uses; null: words only'),
    loaded: z.looseObject({}).nullable().describe('dims and vocabulary of the model in use, or error: why it does not load'),
    search: z.string().describe('one line: semantic or lexical, and what to run'),
    models: z
      .array(
        z.looseObject({ name: z.string(), about: z.string().nullable(), installed: z.boolean(), catalog: z.boolean(), size: z.number(), current: z.boolean() }),
      )
      .describe('every model known here'),
  }),
  annotations: READ,
  write: false,
  folder: true,
  mcp: null,
  async run(at): Promise<ModelsStatus & { search: string }> {
    const { modelsStatus, searchModeLine } = await import('../../knowledge/models/models-status.ts');
    const s = modelsStatus({ env: at.env });
    return { ...s, search: searchModeLine(s).line };
  },
  cli: { command: ['models', 'list'], aliases: ['status'] },
  json: (r) => ({ ...r }),
  text: (r) =>
    [
      ...r.models.map((m) =>
        `${m.current ? '*' : ' '} ${m.name.padEnd(20)} ${(m.installed ? 'installed' : 'not installed').padEnd(13)} ${mb(m.size).padStart(7)}  ${m.about ?? ''}`.trimEnd(),
      ),
      r.search,
    ].join('\n'),
});

/** models.eval: `axme models eval <file>`: how well search answers your own questions, by words and with the model, side by side. */
export const modelsEval = defineOperation({
  id: 'models.eval',
  summary: 'Measure search on your questions',
  description:
    'Ask this store the questions of a file (one {"query", "expected": [IDs or slugs]} a line, or a JSON array of them: the file axme search --eval reads) through the one search path, by words only and, with a model or endpoint in force, by words fused with meaning: R@1, R@5, MRR and nDCG@10 of each, and the questions each misses (docs/search.md).',
  input: { file: z.string().max(4096).describe('the file of questions and the items that answer them') },
  output: z.looseObject({
    queries: z.number().describe('how many questions'),
    rows: z
      .array(z.looseObject({ ranking: z.string(), r1: z.number(), r5: z.number(), mrr: z.number(), ndcg10: z.number(), missed: z.array(z.string()) }))
      .describe('words only, then words + meaning when a model is in force'),
  }),
  annotations: READ,
  write: false,
  mcp: null,
  async run(kb, input, opts) {
    const { compareRankings, readEvalFile } = await import('../../knowledge/views/search/evaluate.ts');
    return compareRankings(kb, readEvalFile(resolve(opts?.cwd ?? '.', input.file), input.file));
  },
  cli: { command: ['models', 'eval'], positional: ['file'] },
  json: (r) => ({ ...r }),
  text: (r) => {
    const f = (x: number) => x.toFixed(3);
    const lines = [`${r.queries} questions`, `${'ranking'.padEnd(40)}  R@1    R@5    MRR    nDCG@10`];
    for (const row of r.rows) lines.push(`${row.ranking.padEnd(40)}  ${f(row.r1)}  ${f(row.r5)}  ${f(row.mrr)}  ${f(row.ndcg10)}`);
    if (r.rows.length === 1) lines.push('words only: no model in force (axme models pull adds one; then run this again to compare)');
    for (const row of r.rows)
      if (row.missed.length) lines.push(`missed by ${row.ranking} (no answer in the top 10): ${row.missed.map((q) => JSON.stringify(q)).join(', ')}`);
    return lines.join('\n');
  },
});

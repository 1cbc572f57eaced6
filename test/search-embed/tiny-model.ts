import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny static embedding model in the Model2Vec layout, built by the tests: a WordPiece
 * `tokenizer.json` and a `model.safetensors` table, six dimensions, each a topic (logs, storage,
 * sign-in, money, queues) plus one for every other word, so that words of one topic are close in
 * meaning without sharing a letter. The same files a real model has: the real loading code reads them.
 */
export const TOPICS: Record<string, string[]> = {
  logs: ['log', 'logs', 'logging', 'telemetry', 'observability', 'trace', 'tracing', 'audit'],
  storage: ['postgres', 'database', 'db', 'sql', 'persistence', 'storage'],
  signin: ['login', 'oauth', 'password', 'credentials', 'sign', 'session', 'sessions'],
  money: ['invoice', 'invoices', 'billing', 'payment', 'money', 'stripe'],
  queues: ['queue', 'kafka', 'jobs', 'background', 'async'],
};
const OTHER = [
  'add',
  'request',
  'requests',
  'use',
  'the',
  'for',
  'we',
  'with',
  'every',
  'its',
  'id',
  'in',
  'data',
  'store',
  'of',
  'a',
  'to',
  'how',
  'do',
  'where',
  'are',
  'kept',
  'is',
  'and',
  'go',
  'through',
  'cafe',
  'run',
  '##ging',
  '##s',
  '.',
  ',',
  '-',
  '!',
];
const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];

export const DIMS = 6;

/** The model's files by name, and its vocabulary. */
export function tinyModelFiles(): { files: Record<string, Buffer>; vocab: string[] } {
  const vocab = [...SPECIAL, ...Object.values(TOPICS).flat(), ...OTHER];
  const table = new Float32Array(vocab.length * DIMS);
  const topics = Object.values(TOPICS);
  vocab.forEach((token, i) => {
    const t = topics.findIndex((words) => words.includes(token));
    const row = table.subarray(i * DIMS, (i + 1) * DIMS);
    if (SPECIAL.includes(token))
      row[DIMS - 1] = 5; // never read: special tokens are left out
    else if (t >= 0) {
      row[t] = 1;
      row[DIMS - 1] = 0.05 * ((i % 3) + 1); // a little of its own, so two words of a topic are not identical
    } else row[DIMS - 1] = 0.15;
  });
  const tokenizer = {
    version: '1.0',
    added_tokens: SPECIAL.map((content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
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
  const header = Buffer.from(
    JSON.stringify({ __metadata__: { format: 'pt' }, embeddings: { dtype: 'F32', shape: [vocab.length, DIMS], data_offsets: [0, data.length] } }),
  );
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(header.length));
  return {
    vocab,
    files: {
      'config.json': Buffer.from(JSON.stringify({ model_type: 'model2vec', hidden_dim: DIMS, normalize: true })),
      'tokenizer.json': Buffer.from(JSON.stringify(tokenizer)),
      'model.safetensors': Buffer.concat([len, header, data]),
    },
  };
}

/** A manifest of `files` as `axme models pull --manifest` takes it. */
export function manifestOf(name: string, files: Record<string, Buffer>, source = 'test-owner/tiny-model', revision = 'r1') {
  return {
    name,
    format: 'model2vec',
    source,
    revision,
    about: 'a test model',
    files: Object.entries(files).map(([file, bytes]) => ({ name: file, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length })),
  };
}

/**
 * A stand-in for the model host on 127.0.0.1, serving `files` at `/<source>/resolve/<revision>/<name>`
 * as Hugging Face does; records the paths asked for.
 */
export async function modelServer(routes: Record<string, Buffer>): Promise<{ url: string; asked: string[]; close: () => Promise<void> }> {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(req.url ?? '');
    const body = routes[req.url ?? ''];
    if (!body) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, asked, close: () => new Promise((r) => server.close(() => r())) };
}

/** The routes serving `files` for a source and revision. */
export const routesFor = (files: Record<string, Buffer>, source = 'test-owner/tiny-model', revision = 'r1') =>
  Object.fromEntries(Object.entries(files).map(([name, bytes]) => [`/${source}/resolve/${revision}/${name}`, bytes]));

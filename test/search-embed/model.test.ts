import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { catalogModel, checkManifest, DEFAULT_MODEL } from '../../src/knowledge/models/catalog.ts';
import { currentModelName, installedModelDir, modelsDir } from '../../src/knowledge/models/model-paths.ts';
import { modelsStatus, searchModeLine } from '../../src/knowledge/models/models-status.ts';
import { type PullProgress, pullModel } from '../../src/knowledge/models/pull-model.ts';
import { loadStaticModel } from '../../src/knowledge/models/static-model.ts';
import { wordPieceFrom } from '../../src/knowledge/models/wordpiece.ts';
import { rejectsWith } from '../core.ts';
import { DIMS, manifestOf, modelServer, routesFor, tinyModelFiles } from './tiny-model.ts';

const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const temps: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'axme-models-'));
  temps.push(d);
  return d;
};
after(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('the WordPiece tokenizer read from tokenizer.json', () => {
  const { files, vocab } = tinyModelFiles();
  const wp = wordPieceFrom(JSON.parse(files['tokenizer.json']!.toString()));
  const tokens = (text: string) => wp.encode(text).map((id) => vocab[id]);

  test('lower-cases, strips accents, splits punctuation off, and leaves unknown words and special tokens out', () => {
    assert.deepEqual(tokens('Add TELEMETRY, for the Café!'), ['add', 'telemetry', ',', 'for', 'the', 'cafe', '!']);
    assert.deepEqual(tokens('xyzzy [CLS] plugh'), [], 'unknown words go whole, special tokens are not embedded');
  });

  test('splits a word it lacks into the longest pieces it has, or drops it whole', () => {
    // "logging" is in the vocabulary; "jobsging" is not, but "jobs" + "##ging" are
    assert.deepEqual(tokens('logging jobsging'), ['logging', 'jobs', '##ging']);
    assert.deepEqual(tokens('jobsx'), [], 'a piece missing: the whole word is unknown');
    assert.deepEqual(tokens('log-in'), ['log', '-', 'in']);
  });

  test('refuses a tokenizer it cannot read, saying which', () => {
    assert.throws(() => wordPieceFrom({ model: { type: 'BPE', vocab: {} } }), /a BPE tokenizer; axme reads WordPiece/);
    assert.throws(() => wordPieceFrom({ model: { type: 'WordPiece' } }), /no model\.vocab/);
  });
});

/** Writes the tiny model's files and its manifest into a folder, as a finished pull leaves them. */
function installTiny(dir: string, name = 'tiny'): string {
  const { files } = tinyModelFiles();
  const at = join(dir, name);
  mkdirSync(at, { recursive: true });
  for (const [f, bytes] of Object.entries(files)) writeFileSync(join(at, f), bytes);
  writeFileSync(join(at, 'manifest.json'), JSON.stringify(manifestOf(name, files)));
  return at;
}

describe('loadStaticModel: a Model2Vec folder', () => {
  test('a text is the mean of its tokens: words of one topic are close without sharing a letter', () => {
    const m = loadStaticModel(installTiny(tempDir()));
    assert.equal(m.dims, DIMS);
    const [telemetry, logging, postgres, empty] = m.embed(['telemetry', 'Add request logging', 'Use Postgres for persistence', 'xyzzy']);
    assert.ok(Math.abs(cos(telemetry!, telemetry!) - 1) < 1e-5, 'unit length');
    assert.ok(cos(telemetry!, logging!) > 0.8, `telemetry ~ logging: ${cos(telemetry!, logging!)}`);
    assert.ok(cos(telemetry!, postgres!) < 0.3, `telemetry !~ postgres: ${cos(telemetry!, postgres!)}`);
    assert.deepEqual([...empty!], new Array(DIMS).fill(0), 'no known token: a zero vector');
  });

  test('a table that is not a 2-D F32 safetensors tensor is refused, naming the file', () => {
    const at = installTiny(tempDir());
    writeFileSync(join(at, 'model.safetensors'), Buffer.from('not a safetensors file at all'));
    assert.throws(() => loadStaticModel(at), /model\.safetensors: not a safetensors file/);
    const { files } = tinyModelFiles();
    const bytes = Buffer.from(files['model.safetensors']!);
    const text = bytes.toString('latin1').replace('"F32"', '"F16"');
    writeFileSync(join(at, 'model.safetensors'), Buffer.from(text, 'latin1'));
    assert.throws(() => loadStaticModel(at), /is F16; axme reads F32/);
  });
});

describe('pullModel: download, check, install', () => {
  const { files } = tinyModelFiles();
  const manifest = checkManifest(manifestOf('tiny', files), 'test');

  test('fetches each file from the base URL with progress, checks its SHA-256, installs it and makes it the model in use', async () => {
    const server = await modelServer(routesFor(files));
    const env = { XDG_CACHE_HOME: tempDir(), AXME_MODELS_URL: `${server.url}/` };
    try {
      assert.equal(currentModelName(env), null);
      assert.equal(searchModeLine(modelsStatus({ env })).line.startsWith('lexical only: run axme models pull'), true);
      const progress: PullProgress[] = [];
      const r = await pullModel({ env, manifest, onProgress: (p) => progress.push(p) });
      assert.equal(r.dir, join(modelsDir(env)!, 'tiny'));
      assert.deepEqual(
        r.files.map((f) => [f.name, f.downloaded]),
        [
          ['config.json', true],
          ['tokenizer.json', true],
          ['model.safetensors', true],
        ],
      );
      assert.deepEqual(
        server.asked,
        Object.keys(files).map((f) => `/test-owner/tiny-model/resolve/r1/${f}`),
      );
      for (const [f, bytes] of Object.entries(files)) {
        assert.deepEqual(readFileSync(join(r.dir, f)), bytes);
        assert.ok(
          progress.some((p) => p.file === f && p.received === bytes.length && p.total === bytes.length),
          `progress of ${f} to its end`,
        );
      }
      assert.equal(currentModelName(env), 'tiny');
      assert.equal(installedModelDir(env, 'tiny'), r.dir);
      const status = modelsStatus({ env });
      assert.deepEqual(status.loaded, { dims: DIMS, vocabulary: tinyModelFiles().vocab.length });
      assert.match(searchModeLine(status).line, /^semantic search: model tiny loaded \(6 dimensions/);
      // again: every file is there with its bytes, nothing is downloaded
      const again = await pullModel({ env, manifest });
      assert.deepEqual(
        again.files.map((f) => f.downloaded),
        [false, false, false],
      );
      assert.equal(server.asked.length, 3);
      // AXME_SEARCH_MODEL=off: none in use
      assert.equal(currentModelName({ ...env, AXME_SEARCH_MODEL: 'off' }), null);
    } finally {
      await server.close();
    }
  });

  test('a file whose bytes differ from the manifest is refused: nothing of it is kept and the model is not installed', async () => {
    const tampered = { ...files, 'model.safetensors': Buffer.concat([files['model.safetensors']!.subarray(0, -4), Buffer.from([1, 2, 3, 4])]) };
    const server = await modelServer(routesFor(tampered));
    const env = { XDG_CACHE_HOME: tempDir(), AXME_MODELS_URL: server.url };
    try {
      const err = await rejectsWith(pullModel({ env, manifest }), 'CORRUPT');
      assert.match(err.message, /model\.safetensors from .* is not the pinned file \(sha256 [0-9a-f]{64}/);
      const dir = join(modelsDir(env)!, 'tiny');
      assert.equal(existsSync(join(dir, 'model.safetensors')), false);
      assert.equal(existsSync(join(dir, 'manifest.json')), false);
      assert.equal(installedModelDir(env, 'tiny'), null);
      assert.equal(currentModelName(env), null);
    } finally {
      await server.close();
    }
  });

  test('the catalog model is checked against its pinned hashes: other bytes at its address are refused', async () => {
    const potion = catalogModel(DEFAULT_MODEL)!;
    // the stand-in serves the tiny files where potion-base-8M's are: same names, other bytes
    const server = await modelServer(routesFor(files, potion.source, potion.revision));
    const env = { XDG_CACHE_HOME: tempDir(), AXME_MODELS_URL: server.url };
    try {
      const err = await rejectsWith(pullModel({ env }), 'CORRUPT');
      assert.match(
        err.message,
        /^config\.json from .*\/minishlab\/potion-base-8M\/resolve\/bf8b056651a2c21b8d2565580b8569da283cab23\/config\.json is not the pinned file/,
      );
      assert.equal(installedModelDir(env, DEFAULT_MODEL), null);
    } finally {
      await server.close();
    }
  });

  test('a server without the file, or none at all, is DOWNLOAD_FAILED; a name outside the catalog is INVALID_INPUT (a usage error)', async () => {
    const server = await modelServer({});
    try {
      const err = await rejectsWith(pullModel({ env: { XDG_CACHE_HOME: tempDir(), AXME_MODELS_URL: server.url }, manifest }), 'DOWNLOAD_FAILED');
      assert.match(err.message, /answered 404; check AXME_MODELS_URL/);
    } finally {
      await server.close();
    }
    await rejectsWith(pullModel({ env: { XDG_CACHE_HOME: tempDir(), AXME_MODELS_URL: server.url }, manifest }), 'DOWNLOAD_FAILED');
    const nf = await rejectsWith(pullModel({ env: { XDG_CACHE_HOME: tempDir() }, name: 'no-such-model' }), 'INVALID_INPUT');
    assert.match(nf.message, /--manifest <file>/);
  });

  test('a manifest is checked before anything is fetched: names that could leave the folder, bad hashes, missing files', () => {
    const good = manifestOf('tiny', files);
    assert.throws(() => checkManifest({ ...good, name: '../escape' }, 'm.json'), /m\.json: "name" must be letters/);
    assert.throws(
      () => checkManifest({ ...good, files: [{ name: '../../x', sha256: 'a'.repeat(64), size: 1 }] }, 'm.json'),
      /files\[0\]\.name must be a plain file name/,
    );
    assert.throws(() => checkManifest({ ...good, files: good.files.map((f) => ({ ...f, sha256: 'abc' })) }, 'm.json'), /sha256 must be 64/);
    assert.throws(() => checkManifest({ ...good, files: good.files.filter((f) => f.name !== 'tokenizer.json') }, 'm.json'), /must include tokenizer\.json/);
    assert.throws(() => checkManifest({ ...good, format: 'onnx' }, 'm.json'), /"format" must be "model2vec"/);
  });
});

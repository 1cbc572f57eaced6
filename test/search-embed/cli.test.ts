import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { backlogAdd } from '../../src/operations/backlog/writes.ts';
import { decisionAdd } from '../../src/operations/decision/add.ts';
import { axmeInOk } from '../cli-in-process.ts';
import { initCore } from '../core.ts';
import { axme, axmeOk, tempRepo } from '../helpers.ts';
import { cliText } from '../store-fixture.ts';
import { manifestOf, modelServer, routesFor, tinyModelFiles } from './tiny-model.ts';

/**
 * The CLI end to end: `axme models pull|list|status`, `axme doctor`'s search line, `axme search` by
 * meaning. Through the built binary (dist/axme.cjs) for what the process shows: a pull's progress
 * and exit codes, doctor loading the model, search by meaning in its own process; the listings
 * and the words-only searches run in-process by the CLI's entry (axmeIn).
 */
describe('axme models and search by meaning, through the CLI', () => {
  let repo: { dir: string; cleanup: () => void };
  let cache: string;
  let server: Awaited<ReturnType<typeof modelServer>>;
  const { files } = tinyModelFiles();
  // this machine's cache and download base; '' lets the model pulled be the one in use (cleanEnv says off)
  const env = () => ({ XDG_CACHE_HOME: cache, AXME_MODELS_URL: server.url, AXME_SEARCH_MODEL: '' });
  before(async () => {
    repo = tempRepo({ commit: true });
    cache = mkdtempSync(join(tmpdir(), 'axme-cache-'));
    server = await modelServer(routesFor(files));
    await initCore(repo.dir, { claude: true, scan: 'if-new' }, { env: env() });
    await cliText(repo.dir, backlogAdd, { title: 'Add request logging' }, { env: env() });
    await cliText(repo.dir, decisionAdd, { title: 'Use Postgres for persistence', decision: 'Data is kept in Postgres.' }, { env: env() });
  });
  after(async () => {
    await server.close();
    repo.cleanup();
    rmSync(cache, { recursive: true, force: true });
  });

  test('no model: doctor says lexical only and what to run; search finds only words', async () => {
    const doctor = await axme(repo.dir, ['doctor', '--json'], { env: env() });
    const search = JSON.parse(doctor.stdout).checks.find((c: { name: string }) => c.name === 'search');
    assert.equal(search.status, 'ok');
    assert.match(search.detail, /^lexical only: run axme models pull/);
    const r = await axmeInOk(repo.dir, ['search', 'telemetry', '--json'], { env: env() });
    assert.deepEqual(r.hits, []);
    const list = await axmeInOk(repo.dir, ['models', 'list', '--json'], { env: env() });
    assert.equal(list.current, null);
    assert.deepEqual(
      list.models.map((m: { name: string; installed: boolean }) => [m.name, m.installed]),
      [['potion-base-8M', false]],
    );
  });

  test('a manifest that is not one is a usage error (exit 2); a file with other bytes fails (exit 1) and installs nothing', async () => {
    const bad = join(cache, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...manifestOf('tiny', files), name: '../x' }));
    const usage = await axme(repo.dir, ['models', 'pull', '--manifest', bad], { env: env() });
    assert.equal(usage.code, 2, usage.stderr);
    assert.match(usage.stderr, /"name" must be letters/);
    const wrong = join(cache, 'wrong.json');
    const m = manifestOf('tiny', files);
    m.files[1]!.sha256 = 'f'.repeat(64);
    writeFileSync(wrong, JSON.stringify(m));
    const corrupt = await axme(repo.dir, ['models', 'pull', '--manifest', wrong], { env: env() });
    assert.equal(corrupt.code, 1, corrupt.stderr);
    assert.match(corrupt.stderr, /tokenizer\.json from .* is not the pinned file/);
    assert.equal((await axmeInOk(repo.dir, ['models', 'status', '--json'], { env: env() })).current, null);
  });

  test('models pull: progress on stderr, the answer on stdout; then search ranks by meaning and doctor says the model is loaded', async () => {
    const manifest = join(cache, 'tiny.json');
    writeFileSync(manifest, JSON.stringify(manifestOf('tiny', files)));
    const pull = await axme(repo.dir, ['models', 'pull', '--manifest', manifest], { env: env() });
    assert.equal(pull.code, 0, pull.stderr);
    assert.match(pull.stderr, /tiny: model\.safetensors .* \(100%\)/);
    // config.json came whole in the failed pull above: kept, not fetched again
    assert.match(
      pull.stdout,
      /^tiny installed in .*tiny \(2 files, \d+ KB downloaded from http:\/\/127\.0\.0\.1:\d+\/test-owner\/tiny-model\/resolve\/r1\); search now ranks by meaning too\n$/,
    );
    const status = await axmeInOk(repo.dir, ['models', 'status', '--json'], { env: env() });
    assert.equal(status.current, 'tiny');
    assert.deepEqual(status.loaded, { dims: 6, vocabulary: tinyModelFiles().vocab.length });
    const doctor = await axme(repo.dir, ['doctor', '--json'], { env: env() });
    assert.match(JSON.parse(doctor.stdout).checks.find((c: { name: string }) => c.name === 'search').detail, /^semantic search: model tiny loaded/);
    const r = await axmeOk(repo.dir, ['search', 'telemetry', '--json'], { env: env() });
    assert.equal(r.hits[0]?.slug, 'add-request-logging');
    // AXME_SEARCH_MODEL=off: words only again, the same as before the pull
    assert.deepEqual((await axmeInOk(repo.dir, ['search', 'telemetry', '--json'], { env: { ...env(), AXME_SEARCH_MODEL: 'off' } })).hits, []);
  });
});

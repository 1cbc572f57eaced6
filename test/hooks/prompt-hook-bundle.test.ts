import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CLI, cleanEnv, runProcess } from '../helpers.ts';
import { DB_TITLE, type RecallWorld, recallWorld } from './recall-world.ts';

/**
 * The prompt hook's own bundle (dist/prompt-hook.cjs, issue 32): the launcher answers `axme hook
 * user-prompt-submit` with it alone — not the hooks' bundle, not the tip's query beside it — and
 * it answers what the full CLI answers. Which bundles a run compiled is read from the code caches
 * it leaves (one folder a bundle: cli-loader.ts); what it costs is measured in
 * bench/search-cold.bench.ts, never here.
 */

const DIST = join(CLI, '..');

describe('the prompt hook runs from its own bundle', () => {
  let world: RecallWorld;
  let cache: string;
  before(async () => {
    world = await recallWorld([
      ['Render dates in UTC on the billing page', 'Invoices show dates in UTC with the zone named.'],
      ['Logs are structured JSON', 'Use the pino logger; no console.log in services.'],
      ['Images are served from the CDN', 'Upload to the bucket; the CDN serves them.'],
    ]);
    cache = mkdtempSync(join(tmpdir(), 'axme-cache-'));
  });
  after(() => {
    world.cleanup();
    rmSync(cache, { recursive: true, force: true });
  });

  /** `axme hook user-prompt-submit` through `entry` (the launcher, or dist/cli.js: the full CLI), a fresh session each. */
  let sessions = 0;
  const prompt = async (entry: string, text: string, env: NodeJS.ProcessEnv = {}) => {
    const input = JSON.stringify({ session_id: `bundle-${sessions++}`, cwd: world.dir, hook_event_name: 'UserPromptSubmit', prompt: text });
    const r = await runProcess(process.execPath, [entry, 'hook', 'user-prompt-submit'], { cwd: world.dir, env: cleanEnv({ ...world.env, ...env }), input });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const builds = (folder: string) => readdirSync(folder).sort();
  const ABOUT = 'The postgres connection pool leaks clients under load, can you fix the pooling?';

  test('a prompt compiles the prompt bundle only, and answers as the full CLI does', async () => {
    const folder = join(cache, 'only');
    const fast = await prompt(CLI, ABOUT, { AXME_COMPILE_CACHE: folder });
    assert.equal(fast.code, 0, fast.stderr);
    assert.match(fast.stdout, new RegExp(`decision ${world.dbId} ${DB_TITLE}`));
    const [only, ...more] = builds(folder);
    assert.ok(only?.startsWith('prompt-') && more.length === 0, `one bundle compiled, the prompt hook's: ${builds(folder).join(', ')}`);
    assert.match(readdirSync(join(folder, only!)).join(','), /-prompt\.bin$/);
    // the full CLI (no launcher: the hooks through yargs, recall through the store) answers the same
    const full = await prompt(join(DIST, 'cli.js'), ABOUT, { AXME_COMPILE_CACHE: 'off' });
    assert.equal(full.code, 0, full.stderr);
    assert.equal(fast.stdout, full.stdout);
    // from its cache: the same answer, the same one bundle, the cache taken as it is (V8 refuses a
    // cache made under other flags: the launcher turns TurboFan off before compiling, every time)
    const cacheFile = join(folder, only!, readdirSync(join(folder, only!))[0]!);
    const bytes = readFileSync(cacheFile);
    const cached = await prompt(CLI, ABOUT, { AXME_COMPILE_CACHE: folder });
    assert.equal(cached.stdout, fast.stdout);
    assert.deepEqual(builds(folder), [only]);
    assert.deepEqual(readFileSync(cacheFile), bytes, 'used, not written again');
    // a prompt about nothing in the store: nothing injected, by both
    const none = await prompt(CLI, 'Please write a haiku about autumn leaves falling in the garden.', { AXME_COMPILE_CACHE: folder });
    const noneFull = await prompt(join(DIST, 'cli.js'), 'Please write a haiku about autumn leaves falling in the garden.', { AXME_COMPILE_CACHE: 'off' });
    assert.equal(none.code, 0, none.stderr);
    assert.equal(none.stdout, noneFull.stdout);
    assert.doesNotMatch(none.stdout, /additionalContext/);
  });

  test('with no index for the tip, the store answers the same (and leaves the index for the next prompt)', async () => {
    const index = join(world.dir, '.git', 'axme', 'search');
    const folder = join(cache, 'store');
    const before = await prompt(CLI, ABOUT, { AXME_COMPILE_CACHE: folder });
    assert.match(before.stdout, new RegExp(`decision ${world.dbId} ${DB_TITLE}`), 'the prompt recalls the decision');
    rmSync(index, { recursive: true, force: true });
    const r = await prompt(CLI, ABOUT, { AXME_COMPILE_CACHE: folder });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, before.stdout);
    assert.ok(existsSync(join(index, 'last')), 'the store path wrote the index');
    const after = await prompt(CLI, ABOUT, { AXME_COMPILE_CACHE: folder });
    assert.equal(after.stdout, before.stdout);
  });

  test('a payload that is not JSON: exit 0, nothing injected, the reason on stderr', async () => {
    const r = await runProcess(process.execPath, [CLI, 'hook', 'user-prompt-submit'], { cwd: world.dir, env: cleanEnv(world.env), input: 'not json' });
    assert.equal(r.status, 0);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /axme hook user-prompt-submit: .*not JSON/);
  });

  test('without its bundle (a broken install), the hooks’ bundle answers the prompt the same', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'axme-dist-'));
    try {
      cpSync(DIST, copy, { recursive: true });
      rmSync(join(copy, 'prompt-hook.cjs'));
      const folder = join(cache, 'fallback');
      const r = await prompt(join(copy, 'axme.cjs'), ABOUT, { AXME_COMPILE_CACHE: folder });
      assert.equal(r.code, 0, r.stderr);
      const full = await prompt(join(DIST, 'cli.js'), ABOUT, { AXME_COMPILE_CACHE: 'off' });
      assert.equal(r.stdout, full.stdout);
      assert.match(r.stdout, new RegExp(world.dbId));
      assert.ok(
        builds(folder).some((b) => b.startsWith('hook-')),
        builds(folder).join(', '),
      );
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  test("a bundle's cache prunes its own older builds only: another bundle's two builds stay", async () => {
    const folder = join(cache, 'prune');
    for (const [i, old] of ['cli-0000000000000001', 'cli-0000000000000002', 'prompt-0000000000000001', 'prompt-0000000000000002'].entries()) {
      mkdirSync(join(folder, old), { recursive: true, mode: 0o700 });
      writeFileSync(join(folder, old, 'v0-x-0-_.bin'), 'old', { mode: 0o600 });
      utimesSync(join(folder, old), new Date(2020, 0, 1 + i), new Date(2020, 0, 1 + i));
    }
    const r = await prompt(CLI, ABOUT, { AXME_COMPILE_CACHE: folder });
    assert.equal(r.code, 0, r.stderr);
    const left = builds(folder);
    assert.ok(left.includes('cli-0000000000000001') && left.includes('cli-0000000000000002'), `the CLI's builds are not the prompt hook's to prune: ${left}`);
    const prompts = left.filter((b) => b.startsWith('prompt-'));
    assert.equal(prompts.length, 2, `this build's and the newest other: ${prompts}`);
    assert.ok(prompts.includes('prompt-0000000000000002'), prompts.join(', '));
  });
});

// The tip's search index made in the background (src/knowledge/views/search/index-worker.ts): a
// large store whose tip has no index file (a fresh clone, a pull) would make the first prompts
// build it inside their recall's deadline, and a prompt hook cut short writes none. The session
// start starts a detached `axme search` that writes it; the prompts then read it at the tip.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { seededRepo } from '../../bench/lib.ts';
import { aheadLockPath, BACKGROUND_INDEX_ITEMS, startIndexAfterWrite, startIndexWorker } from '../../src/knowledge/views/search/index-worker.ts';
import { withCore } from '../core.ts';
import { axme, CLI, cleanEnv } from '../helpers.ts';
import { useStore } from '../store-fixture.ts';
import { indexWritten, tipIndexMissingAt as missing, tipFile } from './index-written.ts';

describe('the index made in the background', () => {
  const store = useStore();

  test('a tip with no index file is missing one only from the size the prompts cannot build it within their deadline', async () => {
    await store.addDecision({ title: 'Use Postgres for the ledger', decision: 'The ledger lives in Postgres.' });
    assert.equal(await missing(store.dir, 1), true, 'no search has run: the tip has no index file');
    assert.equal(await missing(store.dir), false, `a store under ${BACKGROUND_INDEX_ITEMS} items is left to the prompts`);
  });

  test('a tip whose index file another version of axme wrote (a format this one ignores) is missing one', async () => {
    const { folder, key } = await tipFile(store.dir);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `${key}.idx`), 'axme-search-index of another version: not this format');
    try {
      assert.equal(await missing(store.dir, 1), true);
    } finally {
      rmSync(join(folder, `${key}.idx`), { force: true });
    }
  });

  test('the detached worker writes the tip index file, which the search at the tip then reads', async () => {
    assert.equal(startIndexWorker({ self: { execPath: process.execPath, script: CLI }, cwd: store.dir, env: cleanEnv() }), true);
    await indexWritten(store.dir);
    const r = await axme(store.dir, ['search', 'ledger', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).hits[0]?.title, 'Use Postgres for the ledger');
  });
});

test(`a session start on a store of ${BACKGROUND_INDEX_ITEMS} items whose tip has no index starts the worker`, async (t) => {
  // the benchmarks' seeded store: decisions written straight into refs/memory/main, never searched
  const dir = seededRepo(BACKGROUND_INDEX_ITEMS);
  t.after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
  assert.equal(await missing(dir), true);
  const r = await axme(dir, ['hook', 'session-start'], {
    input: JSON.stringify({ session_id: 's-index', cwd: dir, hook_event_name: 'SessionStart', source: 'startup' }),
  });
  assert.equal(r.code, 0, r.stderr);
  await indexWritten(dir);
});

describe('the index made ahead after a write on the command line', () => {
  // a process that writes and ends (an agent's `axme decision add`) leaves the new tip without an
  // index file: the next `axme search` would lay the write over in a fresh process and write the
  // file, ~0.8 s at 10,000 items where a search at the tip takes 0.1. The write starts a worker.
  test(`axme decision add on a store of ${BACKGROUND_INDEX_ITEMS} items: the new tip's index file is made in the background`, async (t) => {
    const dir = seededRepo(BACKGROUND_INDEX_ITEMS);
    t.after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
    const r = await axme(dir, ['decision', 'add', '--title', 'Ledger entries are append-only', '--decision', 'Never rewrite a ledger row.'], {
      env: cleanEnv(),
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.startsWith('Decision saved'), true, r.stdout);
    await indexWritten(dir);
    const found = await axme(dir, ['search', 'append-only ledger', '--json'], { env: cleanEnv() });
    assert.equal(JSON.parse(found.stdout).hits[0]?.title, 'Ledger entries are append-only');
  });

  test('one worker at a time: a write while one runs starts none; the lock names the worker, not the writer', async (t) => {
    const dir = seededRepo(BACKGROUND_INDEX_ITEMS);
    t.after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
    const self = { execPath: process.execPath, script: CLI };
    await withCore(dir, async (kb) => {
      const lock = aheadLockPath(kb);
      mkdirSync(dirname(lock), { recursive: true });
      // a live process holds it (this one): no worker
      writeFileSync(lock, `${process.pid} ${new Date().toISOString()}\n`);
      assert.equal(await startIndexAfterWrite(kb, { self, cwd: dir, env: cleanEnv() }), false);
      // its holder gone: a worker starts, and the lock names it
      writeFileSync(lock, '999999999 2026-01-01T00:00:00.000Z\n');
      assert.equal(await startIndexAfterWrite(kb, { self, cwd: dir, env: cleanEnv() }), true);
      const holder = Number(readFileSync(lock, 'utf8').split(' ')[0]);
      assert.ok(holder > 0 && holder !== process.pid, `the lock names ${holder}`);
      // a lock older than a worker lives is taken over, whoever it names (a pid reused)
      writeFileSync(lock, `${process.pid} 2026-01-01T00:00:00.000Z\n`);
      const old = new Date(Date.now() - 60 * 60_000);
      utimesSync(lock, old, old);
      assert.equal(await startIndexAfterWrite(kb, { self, cwd: dir, env: cleanEnv() }), true, 'an hour-old lock held nothing');
    });
    await indexWritten(dir);
  });

  test('a store under the size starts no worker', async (t) => {
    const dir = seededRepo(10);
    t.after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
    const self = { execPath: process.execPath, script: CLI };
    await withCore(dir, async (kb) => assert.equal(await startIndexAfterWrite(kb, { self, cwd: dir, env: cleanEnv() }), false));
  });
});

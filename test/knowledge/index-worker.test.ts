// The tip's search index made in the background (src/knowledge/views/search/index-worker.ts): a
// large store whose tip has no index file (a fresh clone, a pull) would make the first prompts
// build it inside their recall's deadline, and a prompt hook cut short writes none. The session
// start starts a detached `axme search` that writes it; the prompts then read it at the tip.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { seededRepo } from '../../bench/lib.ts';
import { BACKGROUND_INDEX_ITEMS, startIndexWorker } from '../../src/knowledge/views/search/index-worker.ts';
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

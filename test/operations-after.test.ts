// What follows an operation (src/operations/after-operation.ts), one decision for every surface:
// after a write the new tip's search index is made ahead of the next query — in the process when
// it answers again (the MCP server), by a detached worker when it ends (the command line) — and a
// search in such a worker goes again for the tips written while it worked. Real stores, real
// workers; the surfaces only call it.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { describe, test } from 'node:test';
import { seededRepo } from '../bench/lib.ts';
import { aheadLockPath, BACKGROUND_INDEX_ITEMS, INDEX_AHEAD_ENV, tipIndexMissing } from '../src/knowledge/views/search/index-worker.ts';
import { loadSearchIndex } from '../src/knowledge/views/search.ts';
import { afterOperation } from '../src/operations/after-operation.ts';
import { decisionAdd } from '../src/operations/decision/add.ts';
import { decisionList } from '../src/operations/decision/list.ts';
import { search } from '../src/operations/search.ts';
import { withCore } from './core.ts';
import { CLI, cleanEnv } from './helpers.ts';
import { aheadDone, indexWritten } from './knowledge/index-written.ts';
import { useStore } from './store-fixture.ts';

const self = { execPath: process.execPath, script: CLI };
const add = (title: string) => ({ title, decision: `${title}.` });

describe('after an operation, in a process that answers again (the MCP server)', () => {
  const store = useStore();

  test("a write's new tip is indexed in this process, ahead of the next query; no worker is started", async () => {
    await withCore(store.dir, async (kb) => {
      await loadSearchIndex(kb);
      await decisionAdd.run(kb, add('Ledger rows carry their currency'));
      await afterOperation(decisionAdd, kb, { answersAgain: true });
      await kb.cache.idle();
      assert.equal((await loadSearchIndex(kb)).source, 'memory', 'the next query finds the index made ahead');
      assert.equal(existsSync(aheadLockPath(kb)), false, 'no worker');
    });
  });

  test('a read is followed by nothing', async () => {
    await withCore(store.dir, async (kb) => {
      await loadSearchIndex(kb);
      await decisionAdd.run(kb, add('Ledger rows are never deleted'));
      await afterOperation(decisionList, kb, { answersAgain: true });
      await kb.cache.idle();
      assert.notEqual((await loadSearchIndex(kb)).source, 'memory', 'the write before the read was not indexed ahead by the read');
    });
  });
});

describe(`after an operation, in a process that ends (the command line), on a store of ${BACKGROUND_INDEX_ITEMS} items`, () => {
  test("a write starts the worker, which makes the new tip's index; a search in a worker goes again for a newer tip", async (t) => {
    const dir = seededRepo(BACKGROUND_INDEX_ITEMS);
    t.after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
    const env = cleanEnv();
    await withCore(dir, async (kb) => {
      await decisionAdd.run(kb, add('Ledger entries are append-only'));
      await afterOperation(decisionList, kb, { answersAgain: false, self, cwd: dir, env });
      assert.equal(existsSync(aheadLockPath(kb)), false, 'a read starts no worker');
      await afterOperation(decisionAdd, kb, { answersAgain: false, cwd: dir, env });
      assert.equal(existsSync(aheadLockPath(kb)), false, 'a process that cannot start axme starts no worker');
      await afterOperation(decisionAdd, kb, { answersAgain: false, self, cwd: dir, env });
      const worker = Number(readFileSync(aheadLockPath(kb), 'utf8').split(' ')[0]);
      assert.ok(worker > 0 && worker !== process.pid, `the lock names the worker (${worker})`);
    });
    await indexWritten(dir);
    await aheadDone(dir);
    await withCore(dir, async (kb) => {
      await decisionAdd.run(kb, add('Ledger corrections are new rows'));
      assert.equal(await tipIndexMissing(kb), true);
      await afterOperation(search, kb, { answersAgain: false, cwd: dir, env });
      assert.equal(await tipIndexMissing(kb), true, 'a search outside a worker goes no further');
      await afterOperation(search, kb, { answersAgain: false, cwd: dir, env: { ...env, [INDEX_AHEAD_ENV]: '1' } });
      assert.equal(await tipIndexMissing(kb), false, 'the worker went again: the new tip has its index file');
    });
  });
});

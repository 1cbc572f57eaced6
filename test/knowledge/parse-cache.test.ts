// The parse cache on disk (src/knowledge/core/parse-cache.ts): a folder's parse stored in full or
// as a delta against a base parse. Two processes reading a fresh store at once can hand the
// writer a base of the very tree it writes; the cache must never hold, nor follow, a delta whose
// base chain comes back to itself (a reader then looped forever reading the same file).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { closeKnowledgeBase, openKnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { cachedFolder, type ParsedFile, storeFolder } from '../../src/knowledge/core/parse-cache.ts';
import { withCore } from '../core.ts';
import { cleanEnv } from '../helpers.ts';
import { useStore } from '../store-fixture.ts';

/** A knowledge base on `dir` with nothing in memory, whose disk cache throws past `limit` reads: a loop fails instead of hanging. */
async function freshKb(dir: string, limit = 50) {
  const kb = await openKnowledgeBase({ cwd: dir, env: cleanEnv(), workspace: false });
  const get = kb.cache.disk.get.bind(kb.cache.disk);
  let reads = 0;
  kb.cache.disk.get = <T>(key: string) => {
    if (++reads > limit) throw new Error(`the parse cache read ${reads} times for one folder: a loop`);
    return get<T>(key);
  };
  return kb;
}

const files = (n: number): ParsedFile[] =>
  Array.from({ length: n }, (_, i) => ({ name: `d-${i}.md`, oid: `${i}`.padStart(40, '0'), error: `not an item ${i}` }));

describe('the parse cache on disk', () => {
  const store = useStore();
  const TREE = 'a'.repeat(40);
  const OTHER = 'b'.repeat(40);

  test('a folder stored with a base of the same tree is read back whole, not as a delta of itself', async () => {
    const list = files(5);
    await withCore(store.dir, async (kb) => {
      await storeFolder(kb, 'decisions', TREE, list, { oid: TREE, files: list });
      await kb.cache.disk.settle();
    });
    const kb = await freshKb(store.dir);
    try {
      assert.deepEqual(await cachedFolder(kb, 'decisions', TREE), list);
    } finally {
      await closeKnowledgeBase(kb);
    }
  });

  test('a delta whose base chain comes back to itself is a miss (the store is parsed again)', async () => {
    await withCore(store.dir, async (kb) => {
      await kb.cache.disk.put(`decisions-${TREE}`, { base: OTHER, entries: [], removed: [] });
      await kb.cache.disk.put(`decisions-${OTHER}`, { base: TREE, entries: [], removed: [] });
      await kb.cache.disk.put(`decisions-${'c'.repeat(40)}`, { base: 'c'.repeat(40), entries: [] });
    });
    const kb = await freshKb(store.dir);
    try {
      assert.equal(await cachedFolder(kb, 'decisions', TREE), undefined);
      assert.equal(await cachedFolder(kb, 'decisions', 'c'.repeat(40)), undefined);
    } finally {
      await closeKnowledgeBase(kb);
    }
  });
});

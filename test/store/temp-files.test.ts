/**
 * Temporary files a killed writer left beside the derived caches (a hook cut short while it wrote
 * a cache entry) are removed by the next writer; one whose writer still runs, or that is young,
 * is not.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { searchKnowledge } from '../../src/knowledge/views/search.ts';
import { diskCache } from '../../src/store/cache.ts';
import { ORPHAN_AGE_MS, removeOrphanTemps, tempBeside } from '../../src/store/temp-files.ts';
import { initCore, withCore } from '../core.ts';
import { tempRepo } from '../helpers.ts';

const root = mkdtempSync(join(tmpdir(), 'axme-temps-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A pid no process has any more: a child that ran and was reaped. */
const gonePid = (): number => {
  const pid = spawnSync(process.execPath, ['-e', '0']).pid;
  assert.ok(pid && pid > 0);
  return pid;
};

/** Writes `name` in `dir`, dated `ageMs` before now. */
function leave(dir: string, name: string, ageMs: number): void {
  const at = join(dir, name);
  writeFileSync(at, 'half a file');
  const t = (Date.now() - ageMs) / 1000;
  utimesSync(at, t, t);
}

describe('temporary files left by writers', () => {
  test('an old one whose writer is gone is removed; a young one, a running writer’s, other files stay', () => {
    const dir = join(root, 'direct');
    mkdirSync(dir);
    const dead = gonePid();
    const old = ORPHAN_AGE_MS * 2;
    leave(dir, `a.json.tmp-${dead}-0a1b2c`, old);
    leave(dir, `b.idx.tmp-${dead}-ffffff`, old);
    leave(dir, `c.json.tmp-${dead}-123456`, 1_000);
    leave(dir, `d.json.tmp-${process.pid}-abcdef`, old);
    leave(dir, 'e.json', old);
    leave(dir, `f.json.tmp-${dead}-notHex`, old);
    const removed = removeOrphanTemps(dir, readdirSync(dir));
    assert.deepEqual(removed.sort(), [`a.json.tmp-${dead}-0a1b2c`, `b.idx.tmp-${dead}-ffffff`]);
    assert.deepEqual(readdirSync(dir).sort(), [`c.json.tmp-${dead}-123456`, `d.json.tmp-${process.pid}-abcdef`, 'e.json', `f.json.tmp-${dead}-notHex`]);
  });

  test('tempBeside names a file this process owns, which is kept', () => {
    const dir = join(root, 'own');
    mkdirSync(dir);
    const tmp = tempBeside(join(dir, 'x.json'));
    assert.match(tmp, new RegExp(`x\\.json\\.tmp-${process.pid}-[0-9a-f]{6}$`));
    leave(dir, basename(tmp), ORPHAN_AGE_MS * 2);
    assert.deepEqual(removeOrphanTemps(dir, readdirSync(dir)), []);
  });

  test('the cache’s next write removes what a killed writer left', async () => {
    const axmeDir = join(root, 'cache-owner');
    const dir = join(axmeDir, 'cache');
    mkdirSync(dir, { recursive: true });
    const orphan = `tree-1.json.tmp-${gonePid()}-a0a0a0`;
    leave(dir, orphan, ORPHAN_AGE_MS * 2);
    const cache = diskCache(axmeDir, 1);
    await cache.put('tree-2', { items: 1 });
    await cache.settle();
    assert.equal(existsSync(join(dir, orphan)), false, `left: ${readdirSync(dir).join(', ')}`);
    assert.deepEqual(await cache.get('tree-2'), { items: 1 });
  });

  test('the search index’s next write removes a half-written index a killed writer left', async () => {
    const { dir, cleanup } = tempRepo({ commit: true });
    try {
      await initCore(dir);
      const searchDir = join(dir, '.git', 'axme', 'search');
      mkdirSync(searchDir, { recursive: true });
      const orphan = `${'a'.repeat(40)}.idx.tmp-${gonePid()}-b1b1b1`;
      leave(searchDir, orphan, ORPHAN_AGE_MS * 2);
      await withCore(dir, (kb) => searchKnowledge(kb, { query: 'anything' }));
      const left = readdirSync(searchDir);
      assert.ok(
        left.some((n) => n.endsWith('.idx')),
        `an index was written: ${left.join(', ')}`,
      );
      assert.equal(left.includes(orphan), false, `left: ${left.join(', ')}`);
    } finally {
      cleanup();
    }
  });
});

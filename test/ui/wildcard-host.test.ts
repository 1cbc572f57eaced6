// `axme ui --host 0.0.0.0` (or ::) would listen everywhere yet answer only the Host it was bound to,
// which no one can send: it is refused with a usage error saying to give a concrete address.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { axme, axmeOk, tempRepo } from '../helpers.ts';

test('axme ui --host 0.0.0.0 or ::: a usage error (exit 2) asking for a concrete address, nothing served', async () => {
  const store = tempRepo();
  try {
    await axmeOk(store.dir, ['init']);
    for (const host of ['0.0.0.0', '::']) {
      const r = await axme(store.dir, ['ui', '--port', '0', '--host', host]);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /concrete address/);
    }
  } finally {
    store.cleanup();
  }
});

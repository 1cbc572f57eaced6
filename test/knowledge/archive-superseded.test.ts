/**
 * Archiving a memory that is already retired by a supersede says so: it answered "Memory already
 * archived" for a memory whose status is superseded.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryAdd, memorySupersede } from '../../src/operations/memory/add.ts';
import { memoryRemove } from '../../src/operations/memory/remove.ts';
import { runOpText } from '../core.ts';
import { useStore } from '../store-fixture.ts';

const s = useStore();

test('archiving a superseded memory says it is superseded, and by what; an archived one stays "already archived"', async () => {
  await runOpText(s.dir, memoryAdd, { type: 'feedback', title: 'Tabs not spaces', description: 'tabs' });
  await runOpText(s.dir, memorySupersede, { slug: 'tabs-not-spaces', type: 'feedback', title: 'Two spaces', description: 'spaces now' });
  assert.equal(
    await runOpText(s.dir, memoryRemove, { slug: 'tabs-not-spaces' }),
    'Memory tabs-not-spaces is superseded by two-spaces: already retired, nothing to archive',
  );
  assert.equal(await runOpText(s.dir, memoryRemove, { slug: 'two-spaces' }), 'Memory archived: two-spaces');
  assert.equal(await runOpText(s.dir, memoryRemove, { slug: 'two-spaces' }), 'Memory already archived: two-spaces');
});

/**
 * What search prints for a reader. The MCP tool's text names every hit by what its read tool
 * takes (a memory's slug: it named memories by title alone), and `axme search`, whose lines have
 * no total, says on stderr when it shows fewer hits than matched.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { search } from '../../src/operations/search.ts';
import { runOpText } from '../core.ts';
import { cliRun, useStore } from '../store-fixture.ts';

describe('search text', () => {
  const s = useStore();
  test('the MCP text names a memory by its slug; the CLI notes on stderr what it left out', async () => {
    for (let i = 1; i <= 12; i++) await s.addMemory({ type: 'pattern', title: `Cache layer note ${i}`, description: `The cache layer keeps entry ${i} warm.` });
    const text = await runOpText(s.dir, search, { query: 'cache layer' });
    assert.match(text, /^1\. cache-layer-note-\d+ Cache layer note \d+ \[memory\]/m);
    const cli = await cliRun(s.dir, search, { query: 'cache layer' });
    assert.equal(cli.stdout.trim().split('\n').length, 10);
    assert.match(cli.stderr, /10 of 12 matches shown; --limit 12 shows them all/);
    const all = await cliRun(s.dir, search, { query: 'cache layer', k: 12 });
    assert.equal(all.stderr, '');
  });
});

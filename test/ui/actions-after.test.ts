// The page is a process that answers again, as the MCP server is: after a person's change the new
// tip's search index is made in it, ahead of the next search (src/operations/after-operation.ts,
// the one decision every surface calls). runAction is called in-process with a real form on a
// real store; the next query finds the index made ahead.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { showItem } from '../../src/knowledge/items/show-item.ts';
import { loadSearchIndex } from '../../src/knowledge/views/search.ts';
import { newCsrfToken, runAction } from '../../src/ui/actions.ts';
import type { UiContext } from '../../src/ui/context.ts';
import { withCore } from '../core.ts';
import { useStore } from '../store-fixture.ts';
import { formPost, ORIGIN } from './form-post.ts';

describe("the page's changes, then its next search", () => {
  const store = useStore();

  test("an amend from the page is followed by the new tip's index, made in the page's process", async () => {
    await withCore(store.dir, async (kb) => {
      const { decisionAdd } = await import('../../src/operations/decision/add.ts');
      await decisionAdd.run(kb, { title: 'Ledger rows carry their currency', decision: 'Each row names its currency.' });
      await loadSearchIndex(kb);
      const csrf = newCsrfToken();
      const ctx: UiContext = { kb, at: undefined, cwd: store.dir, env: {}, actions: { csrf } };
      const next = await runAction(
        ctx,
        formPost({ csrf, base: (await showItem(kb, { kind: 'decision', ref: 'D-001' })).version, reasoning: 'Rows from several ledgers meet in one report.' }),
        '/act/decision/D-001/amend',
        new Set([ORIGIN]),
      );
      assert.equal(next, '/history/decision/ledger-rows-carry-their-currency');
      await kb.cache.idle();
      assert.equal((await loadSearchIndex(kb)).source, 'memory', "the page's next search finds the index made ahead of it");
    });
  });
});

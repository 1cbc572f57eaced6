// A form's list fields (a decision's tags, a memory's keywords) are read as every other surface
// reads a list (model/text.ts stringList): comma-separated, trimmed, empties and repeats dropped.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { showItem } from '../../src/knowledge/items/show-item.ts';
import { decisionAdd } from '../../src/operations/decision/add.ts';
import { decisionShow } from '../../src/operations/decision/reads.ts';
import { memoryAdd } from '../../src/operations/memory/add.ts';
import { memoryShow } from '../../src/operations/memory/reads.ts';
import { newCsrfToken, runAction } from '../../src/ui/actions.ts';
import type { UiContext } from '../../src/ui/context.ts';
import { withCore } from '../core.ts';
import { useStore } from '../store-fixture.ts';
import { formPost, ORIGIN } from './form-post.ts';

describe("the page's list fields", () => {
  const store = useStore();

  test('tags and keywords from a form: split at commas, trimmed, empties and repeats dropped, order kept', async () => {
    await withCore(store.dir, async (kb) => {
      await decisionAdd.run(kb, { title: 'Amounts are integer cents', decision: 'No floats for money.' });
      const memory = (await memoryAdd.run(kb, { type: 'feedback', title: 'Short commit subjects', description: 'Under 60 characters.' })) as {
        item: { slug: string };
      };
      const csrf = newCsrfToken();
      const ctx: UiContext = { kb, at: undefined, cwd: store.dir, env: {}, actions: { csrf } };
      await runAction(
        ctx,
        formPost({ csrf, base: (await showItem(kb, { kind: 'decision', ref: 'D-001' })).version, tags: ' money , ledger,, money,cents ' }),
        '/act/decision/D-001/amend',
        new Set([ORIGIN]),
      );
      await runAction(
        ctx,
        formPost({ csrf, base: (await showItem(kb, { kind: 'memory', ref: memory.item.slug })).version, keywords: 'git,  commits ,,git' }),
        `/act/memory/${memory.item.slug}/update`,
        new Set([ORIGIN]),
      );
      const decision = (await decisionShow.run(kb, { id_or_slug: 'D-001' })) as { item: { tags: string[] } };
      assert.deepEqual(decision.item.tags, ['money', 'ledger', 'cents']);
      const mem = (await memoryShow.run(kb, { slug: memory.item.slug })) as { item: { keywords: string[] } };
      assert.deepEqual(mem.item.keywords, ['git', 'commits']);
    });
  });
});

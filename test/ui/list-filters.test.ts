// A list filtered to nothing says so (and how many there are in all), not that there are none yet;
// a status no item can have is refused (INVALID_INPUT: the page answers 400) naming the valid ones.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decisionAdd } from '../../src/operations/decision/add.ts';
import type { UiContext } from '../../src/ui/context.ts';
import { backlogView } from '../../src/ui/views/backlog.ts';
import { decisionsView } from '../../src/ui/views/decisions.ts';
import { memoriesView } from '../../src/ui/views/memories.ts';
import { questionsView } from '../../src/ui/views/questions.ts';
import { withCore } from '../core.ts';
import { useStore } from '../store-fixture.ts';

describe("the lists' status filter", () => {
  const store = useStore();

  test('filtered to nothing: "No revoked decisions (2 in all)"; an unknown status: refused with the valid ones', async () => {
    await withCore(store.dir, async (kb) => {
      await decisionAdd.run(kb, { title: 'Amounts are integer cents', decision: 'No floats for money.' });
      await decisionAdd.run(kb, { title: 'Orders live in Postgres', decision: 'One database.' });
      const ctx: UiContext = { kb, at: undefined, cwd: store.dir, env: {}, actions: null };
      const page = async (status: string) => {
        const r = await decisionsView(ctx, new URL(`http://ui.invalid/decisions?status=${status}`), []);
        return 'body' in r ? r.body.text : '';
      };
      for (const status of ['revoked', 'superseded']) {
        const body = await page(status);
        assert.match(body, new RegExp(`No ${status} decisions \\(2 in all\\)`));
        assert.doesNotMatch(body, /No decisions yet/);
      }
      for (const view of [decisionsView, memoriesView, questionsView, backlogView])
        await assert.rejects(view(ctx, new URL('http://ui.invalid/x?status=bogus'), []), (e: Error & { code?: string }) => {
          assert.equal(e.code, 'INVALID_INPUT');
          assert.match(e.message, /unknown status "bogus": use one of/);
          return true;
        });
    });
  });
});

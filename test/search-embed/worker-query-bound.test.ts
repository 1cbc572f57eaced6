import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { readBackoff } from '../../src/knowledge/views/search/endpoint-backoff.ts';
import { endpointKey } from '../../src/knowledge/views/search/meaning.ts';
import { axmeOk } from '../helpers.ts';
import { processesEnded } from '../until.ts';
import { endpointStore } from './endpoint-store.ts';

/**
 * The detached worker that goes on making the items' vectors after a command-line search
 * (vectors-worker.ts) answers nobody: its own search's query vector is not held to the query's
 * bound (`query_timeout_ms`, a person's wait), which a worker run at low priority on a loaded
 * machine outlasts. Before, the worker's query was cut at that bound and counted as a failure of
 * the endpoint, so an endpoint that made every vector was backed off from for a minute and the
 * person's next searches went by words.
 */
describe('the vectors worker and the query bound', () => {
  test("an endpoint slower than query_timeout_ms on the worker's query is not backed off from once every vector is made", async () => {
    let released = false;
    let firstItems = true;
    // items' requests (texts of several lines): the first batch answered, the rest held until released;
    // a query (one line) answered a while after it arrives — longer than its 1 ms bound, well within the endpoint's own timeout
    const world = await endpointStore(
      [
        ['Invoices go through Stripe', 'Every invoice is sent and settled by Stripe.'],
        ['Queue jobs with Kafka', 'Background jobs go through Kafka topics.'],
        ['Sessions expire after a day', 'Login sessions last 24 hours.'],
      ],
      (_n, texts) => {
        if (texts.some((t) => t.includes('\n'))) {
          if (firstItems || released) {
            firstItems = false;
            return 'ok';
          }
          return 'hold';
        }
        setTimeout(() => world.server.release(), 300);
        return 'hold';
      },
      { batch: 1, query_timeout_ms: 1, timeout_ms: 600000 },
    );
    const { server, dir: repoDir } = world;
    try {
      const { axmeDir } = world.kb.repo;
      const r = await axmeOk(repoDir, ['search', '--json', 'kafka', 'topics']);
      assert.equal(r.meaning.fused, false, 'answered by words while the items were held');
      const lock = join(axmeDir, 'search', 'vectors.lock');
      assert.ok(existsSync(lock), 'a worker was started');
      const workerPid = Number(readFileSync(lock, 'utf8').split(' ')[0]);
      released = true;
      server.release();
      await processesEnded([workerPid]);
      const dir = join(axmeDir, 'search');
      const key = endpointKey({ url: server.url, model: 'stand-in' });
      assert.equal(world.vectorsSaved(), 3, 'the worker made every vector');
      assert.ok(
        server.seen.some((s) => s.texts.length === 1 && !s.texts[0]!.includes('\n')),
        "the worker asked its query's vector (the case this test is about)",
      );
      assert.equal(readBackoff(dir, key), null, 'no failure of the endpoint was recorded');
      // and the person's next search asks the endpoint (not backed off from), every item's vector there
      const next = await axmeOk(repoDir, ['search', '--json', 'kafka', 'topics']);
      assert.equal(next.meaning.lacking, 0, JSON.stringify(next.meaning));
      assert.doesNotMatch(next.meaning.reason ?? '', /failed|next try/);
    } finally {
      await world.done();
    }
  });
});

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { initStore } from '../../src/knowledge/admin/init-store.ts';
import { closeKnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import { endpointKey } from '../../src/knowledge/views/search/meaning.ts';
import { readVectors } from '../../src/knowledge/views/search/vectors.ts';
import { axme, axmeOk, openTestKb, tempRepo } from '../helpers.ts';
import { processesEnded } from '../until.ts';
import { configureEndpoint, endpointServer } from './endpoint-server.ts';

/**
 * `axme search --json` (the built CLI, its own process) with an endpoint that holds the items'
 * vectors: the answer comes by words and says so (`meaning`), the process ends without waiting,
 * and the detached worker it starts makes the vectors once the endpoint answers.
 */
describe('axme search with a held endpoint, through the CLI', () => {
  test('answered by words with meaning.fused false; the worker it leaves makes every vector once the endpoint answers', async () => {
    const repo = tempRepo({ commit: true });
    let released = false;
    // the items' requests (texts of several lines) held until released; a query's answered
    const server = await endpointServer((_n, texts) => (released || !texts.some((t) => t.includes('\n')) ? 'ok' : 'hold'));
    try {
      const kb = await openTestKb(repo.dir);
      await initStore(kb);
      await addDecision(kb, { title: 'Invoices go through Stripe', decision: 'Every invoice is sent and settled by Stripe.' });
      await addDecision(kb, { title: 'Queue jobs with Kafka', decision: 'Background jobs go through Kafka topics.' });
      await addDecision(kb, { title: 'Sessions expire after a day', decision: 'Login sessions last 24 hours.' });
      const { commonDir, axmeDir } = kb.repo;
      await closeKnowledgeBase(kb);
      configureEndpoint(commonDir, server.url, { query_timeout_ms: 30 });
      const r = await axmeOk(repo.dir, ['search', '--json', 'kafka', 'topics']);
      assert.equal(r.hits[0].slug, 'queue-jobs-with-kafka');
      assert.equal(r.meaning.fused, false);
      assert.equal(r.meaning.lacking, 3);
      assert.match(r.meaning.reason, /being made in the background/);
      assert.ok(existsSync(join(axmeDir, 'search', 'vectors.lock')), 'a worker was started');
      const workerPid = Number(readFileSync(join(axmeDir, 'search', 'vectors.lock'), 'utf8').split(' ')[0]);
      released = true;
      server.release();
      // the worker's end is what is waited for: it makes every vector (in its first search's run,
      // or in the run its second search waits for), then lets its lock go and exits. Its query's
      // own request is no sign: bound by query_timeout_ms, on a loaded machine it may be cut
      // before it is sent, and a worker whose first search made every vector asks no second query.
      await processesEnded([workerPid]);
      assert.ok(!existsSync(join(axmeDir, 'search', 'vectors.lock')), 'the worker let its lock go');
      assert.equal(readVectors(join(axmeDir, 'search'), endpointKey({ url: server.url, model: 'stand-in' })).size, 3);
    } finally {
      await server.close();
      repo.cleanup();
    }
  });
});

describe('axme search with a failing endpoint, through the CLI', () => {
  test('the first search asks and fails; the next ones ask nothing and start no worker; --retry-endpoint asks at once', async () => {
    const repo = tempRepo({ commit: true });
    let failing = true;
    const server = await endpointServer(() => (failing ? { status: 500 } : 'ok'));
    try {
      const kb = await openTestKb(repo.dir);
      await initStore(kb);
      await addDecision(kb, { title: 'Invoices go through Stripe', decision: 'Every invoice is sent and settled by Stripe.' });
      await addDecision(kb, { title: 'Queue jobs with Kafka', decision: 'Background jobs go through Kafka topics.' });
      const { commonDir, axmeDir } = kb.repo;
      await closeKnowledgeBase(kb);
      configureEndpoint(commonDir, server.url, { query_timeout_ms: 600000 });
      const first = await axmeOk(repo.dir, ['search', '--json', 'kafka', 'topics']);
      assert.equal(first.meaning.fused, false);
      const asked = server.seen.length;
      assert.ok(asked > 0);
      for (let i = 0; i < 3; i++) {
        const r = await axmeOk(repo.dir, ['search', '--json', 'kafka', 'topics']);
        assert.equal(r.hits[0].slug, 'queue-jobs-with-kafka');
        assert.match(r.meaning.reason, /failed 1 time, last: .*500.*next try after/);
      }
      assert.equal(server.seen.length, asked, 'no request during the delay');
      assert.ok(!existsSync(join(axmeDir, 'search', 'vectors.lock')), 'no worker started');
      const doctor = await axme(repo.dir, ['doctor']);
      assert.match(doctor.stdout + doctor.stderr, /failed 1 time/);
      failing = false;
      const retried = await axmeOk(repo.dir, ['search', '--json', '--retry-endpoint', 'money', 'handling']);
      assert.equal(retried.meaning.fused, true);
      assert.equal(retried.hits[0].slug, 'invoices-go-through-stripe');
    } finally {
      await server.close();
      repo.cleanup();
    }
  });
});

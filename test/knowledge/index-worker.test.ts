// The tip's search index made in the background (src/knowledge/views/search/index-worker.ts): a
// large store whose tip has no index file (a fresh clone, a pull) would make the first prompts
// build it inside their recall's deadline, and a prompt hook cut short writes none. The session
// start starts a detached `axme search` that writes it; the prompts then read it at the tip.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { seededRepo } from '../../bench/lib.ts';
import { readMergedState } from '../../src/knowledge/core/merged-state.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import {
  aheadLockPath,
  BACKGROUND_INDEX_ITEMS,
  INDEX_AHEAD_ENV,
  indexAheadAgain,
  startIndexAhead,
  tipIndexMissing,
} from '../../src/knowledge/views/search/index-worker.ts';
import { indexKey, readStale, searchDir } from '../../src/knowledge/views/search/persist.ts';
import { loadSearchIndex } from '../../src/knowledge/views/search.ts';
import { headCommitSync } from '../../src/store/locate.ts';
import { withCore } from '../core.ts';
import { axme, CLI, cleanEnv } from '../helpers.ts';
import { useStore } from '../store-fixture.ts';
import { processesEnded } from '../until.ts';
import { aheadDone, indexWritten, tipIndexMissingAt as missing, tipFile } from './index-written.ts';

describe('the index made in the background', () => {
  const store = useStore();

  test('a tip with no index file is missing one only from the size the prompts cannot build it within their deadline', async () => {
    await store.addDecision({ title: 'Use Postgres for the ledger', decision: 'The ledger lives in Postgres.' });
    assert.equal(await missing(store.dir, 1), true, 'no search has run: the tip has no index file');
    assert.equal(await missing(store.dir), false, `a store under ${BACKGROUND_INDEX_ITEMS} items is left to the prompts`);
  });

  test('a tip whose index file another version of axme wrote (a format this one ignores) is missing one', async () => {
    const { folder, key } = await tipFile(store.dir);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `${key}.idx`), 'axme-search-index of another version: not this format');
    try {
      assert.equal(await missing(store.dir, 1), true);
    } finally {
      rmSync(join(folder, `${key}.idx`), { force: true });
    }
  });

  test('the detached worker writes the tip index file, which the search at the tip then reads', async () => {
    const self = { execPath: process.execPath, script: CLI };
    await withCore(store.dir, async (kb) => assert.equal(await startIndexAhead(kb, { self, cwd: store.dir, env: cleanEnv() }, 1), true));
    await indexWritten(store.dir);
    const r = await axme(store.dir, ['search', 'ledger', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).hits[0]?.title, 'Use Postgres for the ledger');
  });

  test('the worker runs at a lower priority than the process that started it (niceness 10 at least), and still writes the index', async () => {
    // a new tip: no index file yet
    await store.addDecision({ title: 'Ledger rows are never deleted', decision: 'A correction is a new row.' });
    const self = { execPath: process.execPath, script: CLI };
    const { lock, started } = await withCore(store.dir, async (kb) => ({
      lock: aheadLockPath(kb),
      started: await startIndexAhead(kb, { self, cwd: store.dir, env: cleanEnv() }, 1),
    }));
    assert.equal(started, true);
    const worker = Number(readFileSync(lock, 'utf8').split(' ')[0]);
    // read before it could have ended: its node has not even loaded its script yet
    const niceness = getPriority(worker);
    assert.ok(niceness >= Math.max(10, getPriority()), `the worker runs at niceness ${niceness}`);
    await indexWritten(store.dir);
    await processesEnded([worker]);
  });
});

test(`a session start on a store of ${BACKGROUND_INDEX_ITEMS} items whose tip has no index starts the worker`, async (t) => {
  // the benchmarks' seeded store: decisions written straight into refs/memory/main, never searched
  const dir = seededRepo(BACKGROUND_INDEX_ITEMS);
  t.after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
  assert.equal(await missing(dir), true);
  const r = await axme(dir, ['hook', 'session-start'], {
    input: JSON.stringify({ session_id: 's-index', cwd: dir, hook_event_name: 'SessionStart', source: 'startup' }),
  });
  assert.equal(r.code, 0, r.stderr);
  await indexWritten(dir);
  // the worker holds the lock a write's does, and goes on for newer tips: let it end before its store is removed
  await aheadDone(dir);
});

describe('the index made ahead after a write on the command line', () => {
  // a process that writes and ends (an agent's `axme decision add`) leaves the new tip without an
  // index file: the next `axme search` would lay the write over in a fresh process and write the
  // file, ~0.8 s at 10,000 items where a search at the tip takes 0.1. The write starts a worker.
  test(`axme decision add on a store of ${BACKGROUND_INDEX_ITEMS} items: the new tip's index file is made in the background`, async (t) => {
    const dir = seededRepo(BACKGROUND_INDEX_ITEMS);
    t.after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
    const r = await axme(dir, ['decision', 'add', '--title', 'Ledger entries are append-only', '--decision', 'Never rewrite a ledger row.'], {
      env: cleanEnv(),
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.startsWith('Decision saved'), true, r.stdout);
    await indexWritten(dir);
    const found = await axme(dir, ['search', 'append-only ledger', '--json'], { env: cleanEnv() });
    assert.equal(JSON.parse(found.stdout).hits[0]?.title, 'Ledger entries are append-only');
    await aheadDone(dir);
  });

  test('one worker at a time: a write while one runs starts none; the lock names the worker, not the writer', async (t) => {
    const dir = seededRepo(BACKGROUND_INDEX_ITEMS);
    t.after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
    const self = { execPath: process.execPath, script: CLI };
    const workers: number[] = [];
    await withCore(dir, async (kb) => {
      const lock = aheadLockPath(kb);
      mkdirSync(dirname(lock), { recursive: true });
      // a live process holds it (this one): no worker
      writeFileSync(lock, `${process.pid} ${new Date().toISOString()}\n`);
      assert.equal(await startIndexAhead(kb, { self, cwd: dir, env: cleanEnv() }), false);
      // its holder gone: a worker starts, and the lock names it
      writeFileSync(lock, '999999999 2026-01-01T00:00:00.000Z\n');
      assert.equal(await startIndexAhead(kb, { self, cwd: dir, env: cleanEnv() }), true);
      const holder = Number(readFileSync(lock, 'utf8').split(' ')[0]);
      assert.ok(holder > 0 && holder !== process.pid, `the lock names ${holder}`);
      workers.push(holder);
      // a lock older than a worker lives is taken over, whoever it names (a pid reused)
      writeFileSync(lock, `${process.pid} 2026-01-01T00:00:00.000Z\n`);
      const old = new Date(Date.now() - 60 * 60_000);
      utimesSync(lock, old, old);
      assert.equal(await startIndexAhead(kb, { self, cwd: dir, env: cleanEnv() }), true, 'an hour-old lock held nothing');
      workers.push(Number(readFileSync(lock, 'utf8').split(' ')[0]));
    });
    await indexWritten(dir);
    // both workers write into the store until they end: its folder is removed after
    await processesEnded(workers);
  });

  test('a store under the size starts no worker', async (t) => {
    const dir = seededRepo(10);
    t.after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
    const self = { execPath: process.execPath, script: CLI };
    await withCore(dir, async (kb) => assert.equal(await startIndexAhead(kb, { self, cwd: dir, env: cleanEnv() }), false));
  });
});

describe('the index made ahead after a burst of writes', () => {
  // an agent writes several items in a row, each an `axme decision add` of its own: the first
  // write's worker holds the lock while the others land, and starts none of them
  test(`five command-line writes in a row on a store of ${BACKGROUND_INDEX_ITEMS} items: once the worker is done, the last tip has its index file`, async (t) => {
    const dir = seededRepo(BACKGROUND_INDEX_ITEMS);
    t.after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
    for (let i = 0; i < 5; i++) {
      const r = await axme(dir, ['decision', 'add', '--title', `Burst decision ${i} on the ledger`, '--decision', `Written in a burst (${i}).`], {
        env: cleanEnv(),
      });
      assert.equal(r.code, 0, r.stderr);
    }
    await aheadDone(dir);
    const { folder, key } = await tipFile(dir);
    assert.equal(existsSync(join(folder, `${key}.idx`)), true, 'the worker left the tip of the last write without its index file');
  });

  test('a write while the worker is at work starts none; the worker, let go on, leaves the last tip with its index file', async (t) => {
    const dir = seededRepo(BACKGROUND_INDEX_ITEMS);
    t.after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
    const folder = (await tipFile(dir)).folder;
    const lock = await withCore(dir, async (kb) => aheadLockPath(kb));
    const holder = () => (existsSync(lock) ? Number(readFileSync(lock, 'utf8').split(' ')[0]) : 0);
    let stopped = 0;
    t.after(() => {
      if (stopped) process.kill(stopped, 'SIGCONT');
    });
    const write = async (i: number) => {
      const r = await axme(dir, ['decision', 'add', '--title', `Ledger decision ${i} written by an agent`, '--decision', `The ${i}th rule of the ledger.`], {
        env: cleanEnv(),
      });
      assert.equal(r.code, 0, r.stderr);
    };
    // a worker held still while it holds the lock (SIGSTOP, then the lock read again): at work, by
    // construction rather than by timing. A worker already past its work (gone, or its lock let go)
    // is not one: the next write starts another, which is tried in its place.
    let i = 1;
    for (; !stopped; i++) {
      if (i > 5) assert.fail('no worker could be held while at work in 5 writes');
      await write(i);
      const pid = holder();
      if (!(pid > 0) || pid === process.pid) continue;
      try {
        process.kill(pid, 'SIGSTOP');
      } catch {
        continue;
      }
      if (holder() === pid) stopped = pid;
      else process.kill(pid, 'SIGCONT');
    }
    await write(i);
    assert.equal(holder(), stopped, 'the write while a worker works started no worker of its own');
    process.kill(stopped, 'SIGCONT');
    stopped = 0;
    await aheadDone(dir);
    const { key } = await tipFile(dir);
    assert.equal(existsSync(join(folder, `${key}.idx`)), true, "the last write's tip was left without its index file");
  });

  test("the worker's rounds, in one process: one for a tip written after its search, none outside a worker; the lock let go", async (t) => {
    const dir = seededRepo(BACKGROUND_INDEX_ITEMS);
    t.after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
    await withCore(dir, async (kb) => {
      const lock = aheadLockPath(kb);
      mkdirSync(dirname(lock), { recursive: true });
      // this process is the worker the write named in the lock; its search made the index of the tip it saw
      writeFileSync(lock, `${process.pid} ${new Date().toISOString()}\n`);
      await loadSearchIndex(kb);
      await addDecision(kb, { title: 'Ledger rows carry their currency', decision: 'Every row names its currency.' });
      assert.equal(await tipIndexMissing(kb), true);
      assert.equal(await indexAheadAgain(kb, {}), 0, 'a search outside a worker goes no further');
      assert.equal(existsSync(lock), true, "and leaves the worker's lock alone");
      assert.equal(await indexAheadAgain(kb, { [INDEX_AHEAD_ENV]: '1' }), 1);
      assert.equal(await tipIndexMissing(kb), false, 'the new tip has its index file');
      // and its stale marks against HEAD, without which the query at the tip of a store with anchored items cannot answer
      const head = headCommitSync(kb.repo.gitDir, kb.repo.commonDir);
      assert.ok(readStale(searchDir(kb.repo.axmeDir), indexKey(await readMergedState(kb)), head ?? 'none'), 'the stale marks of the new tip');
      assert.equal(existsSync(lock), false, 'the lock is let go');
      assert.equal(await indexAheadAgain(kb, { [INDEX_AHEAD_ENV]: '1' }), 0, 'nothing moved: no round');
    });
  });

  test("a worker's time is its lock's age, not its process's: a long-lived process with a fresh lock makes its round; a lock past its time, none", async (t) => {
    const dir = seededRepo(BACKGROUND_INDEX_ITEMS);
    t.after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
    await withCore(dir, async (kb) => {
      const lock = aheadLockPath(kb);
      mkdirSync(dirname(lock), { recursive: true });
      const ours = () => writeFileSync(lock, `${process.pid} ${new Date().toISOString()}\n`);
      const worker = { [INDEX_AHEAD_ENV]: '1' };
      ours();
      await loadSearchIndex(kb);
      await addDecision(kb, { title: 'Ledger rows carry their currency', decision: 'Every row names its currency.' });
      // a process up for an hour (a test runner, a loaded machine's slow worker) that holds a fresh lock
      const uptime = process.uptime;
      process.uptime = () => 3600;
      try {
        assert.equal(await indexAheadAgain(kb, worker), 1, 'the round a fresh lock allows');
      } finally {
        process.uptime = uptime;
      }
      assert.equal(await tipIndexMissing(kb), false);
      // its lock ten minutes old: others may take it over, so no round is begun
      ours();
      const old = new Date(Date.now() - 10 * 60_000);
      utimesSync(lock, old, old);
      await addDecision(kb, { title: 'Ledger totals are rounded once', decision: 'Round the total, never each row.' });
      assert.equal(await indexAheadAgain(kb, worker), 0, 'a lock past its time');
      assert.equal(await tipIndexMissing(kb), true);
      assert.equal(existsSync(lock), false, 'its own lock let go');
    });
  });
});

/**
 * What a query held open in one process (the MCP server) does per query (docs/search.md): the
 * ranking reads a document's revoked and current marks once an index, not once a query, so that
 * a warm query over a large store reads no document object it does not return; after the
 * process's own write, the index laid over works out no length norm per document (a posting's
 * norms follow from its document's lengths and the fields' means when a query reads it) and
 * takes over the ranking's buffers rather than allocating them again.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { closeKnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import { amendDecision } from '../../src/knowledge/items/decision/amend-decision.ts';
import { revokeDecision } from '../../src/knowledge/items/decision/revoke-decision.ts';
import { supersedeDecision } from '../../src/knowledge/items/decision/supersede-decision.ts';
import { addMemory } from '../../src/knowledge/items/memory/add-memory.ts';
import { archiveMemory } from '../../src/knowledge/items/memory/archive-memory.ts';
import type { Doc } from '../../src/knowledge/views/search/build-index.ts';
import type { Index } from '../../src/knowledge/views/search/index-shape.ts';
import { loadSearchIndex, searchKnowledge } from '../../src/knowledge/views/search.ts';
import { openTestKb } from '../helpers.ts';
import { seededStore } from '../seeded-store.ts';

/** Puts each document in `docs` behind a counter of the reads of its revoked and current marks (the documents themselves unchanged). */
function countMarkReads(docs: Doc[]): { reads: number } {
  const counter = { reads: 0 };
  for (let i = 0; i < docs.length; i++)
    docs[i] = new Proxy(docs[i]!, {
      get(doc, key, receiver) {
        if (key === 'revoked' || key === 'current') counter.reads++;
        return Reflect.get(doc, key, receiver);
      },
    }) as Doc;
  return counter;
}

/** What a process reading the store at `dir` afresh answers `query`: the same hits (and count of matches, when given). */
async function ranksAsFresh(dir: string, query: Parameters<typeof searchKnowledge>[1], got: { hits: unknown; total?: number }): Promise<void> {
  const other = await openTestKb(dir);
  try {
    const fresh = await searchKnowledge(other, query);
    assert.deepEqual(fresh.hits, got.hits);
    if (got.total !== undefined) assert.equal(fresh.total, got.total);
  } finally {
    await closeKnowledgeBase(other);
  }
}

/** `array` seen through a counter of the numbers read from it (its methods act on the array itself). */
const counted = <T extends Float64Array | Int32Array>(array: T, count: (at: number) => unknown): T =>
  new Proxy(array, {
    get(target, key) {
      if (typeof key === 'string' && /^\d+$/.test(key)) count(Number(key));
      const v = Reflect.get(target, key, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });

const N = 400;

/** A store of `n` decisions that all hold "component", every 13th of them revoked. */
const seeded = (n: number): string =>
  seededStore(
    n,
    (i) => ({
      slug: `decision-${i}`,
      title: `Decision ${i} about component ${i % 17}`,
      decision: `Component ${i % 17} takes approach ${i}.`,
      ...(i % 13 === 0 ? { status: 'revoked' as const } : {}),
    }),
    { prefix: 'axme-search-work-' },
  );

describe('a warm query', () => {
  let dir: string;
  let kb: KnowledgeBase;
  before(async () => {
    dir = seeded(N);
    kb = await openTestKb(dir);
  });
  after(async () => {
    await closeKnowledgeBase(kb);
    rmSync(dir, { recursive: true, force: true });
  });

  test("reads each document's revoked and current marks once an index, not once a query", async () => {
    const { index } = await loadSearchIndex(kb);
    assert.equal(index.docs.length, N);
    // each document seen through a counter of the marks read (the documents themselves unchanged)
    const marks = countMarkReads(index.docs);
    const ask = async () => {
      marks.reads = 0;
      const { hits, total } = await searchKnowledge(kb, { query: 'component 4', k: 20 });
      return { hits, total, reads: marks.reads };
    };
    const first = await ask();
    const second = await ask();
    assert.equal(first.total, N);
    assert.equal(first.hits.length, 20);
    assert.ok(first.reads > 0, 'the first query reads the marks of the documents it ranks');
    assert.deepEqual(second.hits, first.hits);
    assert.equal(second.reads, 0, `the second query read ${second.reads} marks again`);
    assert.ok(first.hits.every((h, i) => i === 0 || h.score <= first.hits[i - 1]!.score));
  });
  test('after its own write, works out norms only for the postings it reads, in the buffers it had', async () => {
    const query = { query: 'component 4', k: 20 };
    await searchKnowledge(kb, query);
    const { index: before } = await loadSearchIndex(kb);
    const buffers = before.scratch;
    assert.ok(buffers, 'a query hands its buffers back to the index');
    await addDecision(kb, { title: 'Component 4 takes a new approach', decision: 'Written between two queries: the zeppelin way.' });
    const laid = await loadSearchIndex(kb);
    assert.equal(laid.source, 'incremental');
    const { index } = laid;
    assert.equal(index.docs.length, N + 1);
    const { delta } = index;
    assert.ok(delta, 'the write is laid over the index');
    // one number a field, not four a document: the documents' lengths are the only array of that size
    assert.equal(delta.means.length, 4);
    const perDocument = Object.values(delta).filter((v) => v instanceof Float64Array && v.length === 4 * index.docs.length);
    assert.deepEqual(perDocument, [delta.len]);
    assert.equal(index.scratch, buffers, "the index laid over has the previous index's buffers");
    assert.equal((await searchKnowledge(kb, query)).total, N + 1);
    const { hits } = await searchKnowledge(kb, { query: 'zeppelin component' });
    assert.equal(hits[0]!.title, 'Component 4 takes a new approach');
  });
});

describe('the first query after a write', () => {
  const COLOURS = ['red', 'green', 'blue', 'amber'];
  const M = 600;
  let dir: string;
  let kb: KnowledgeBase;
  before(async () => {
    // every decision holds "component"; a quarter of them "amber"
    dir = seededStore(
      M,
      (i) => ({ slug: `decision-${i}`, title: `Decision ${i} about the ${COLOURS[i % 4]} component`, decision: `Component ${i} takes approach ${i}.` }),
      { prefix: 'axme-search-work-' },
    );
    kb = await openTestKb(dir);
  });
  /** `query` asked, a decision titled `title` added, and the index the next query reads: laid over the one before (asserted). */
  const writtenBetween = async (query: { query: string; k?: number }, title: string): Promise<Index> => {
    await searchKnowledge(kb, query);
    await addDecision(kb, { title, decision: 'Written between two queries.' });
    const { index, source } = await loadSearchIndex(kb);
    assert.equal(source, 'incremental');
    return index;
  };
  after(async () => {
    await closeKnowledgeBase(kb);
    rmSync(dir, { recursive: true, force: true });
  });

  test("reads a common term's postings and works out their gains only for the documents pruning scores", async () => {
    const query = { query: 'amber component', k: 10 };
    const index = await writtenBetween(query, 'The amber component takes a new approach');
    const { delta } = index;
    assert.ok(delta, 'the write is laid over the index');
    // the base postings' frequencies and the documents' lengths seen through counters of the numbers read
    let frequencies = 0;
    let lengths = 0;
    const { tf, ...rest } = delta.base;
    const len = delta.len;
    delta.base = { ...rest, tf: counted(tf, () => frequencies++) };
    delta.len = counted(len, () => lengths++);
    const { hits, total } = await searchKnowledge(kb, query);
    delta.base = { ...rest, tf };
    delta.len = len;
    assert.equal(total, M + 1, 'every document holds "component"');
    // "amber" (a quarter of the documents) is scored whole; "component" only where an amber document is
    assert.ok(frequencies > 0 && frequencies < M + 1, `${frequencies} postings' frequencies read: not fewer than the ${M + 1} documents holding "component"`);
    // a gain reads up to four lengths: fewer than one gain a document holding "component"
    assert.ok(lengths > 0 && lengths < 4 * (M + 1), `${lengths} document lengths read to work out gains`);
    // the same ranking as a process that reads the store afresh
    await ranksAsFresh(dir, query, { hits });
    assert.equal(hits.length, query.k);
  });

  test("reads no unchanged document's marks again", async () => {
    const query = { query: 'amber component', k: 10 };
    await searchKnowledge(kb, query);
    const { index: previous } = await loadSearchIndex(kb);
    // the documents seen through a counter of the marks read, before the write: the index laid over keeps them
    const marks = countMarkReads(previous.docs);
    await writtenBetween(query, 'Another amber component');
    marks.reads = 0;
    const { total } = await searchKnowledge(kb, query);
    assert.equal(total, M + 2);
    assert.equal(marks.reads, 0, `the first query after the write read ${marks.reads} marks of unchanged documents`);
  });

  test("reads a term no moved or added document holds as the base's postings, merging none", async () => {
    // a new decision sorts last of the decisions: those before it stay where they were
    const index = await writtenBetween({ query: 'red component', k: 10 }, 'A green component after the others');
    const { delta, postings } = index;
    assert.ok(delta && postings.read && postings.docsOf, 'the write is laid over the index');
    const red = postings.ids.get('red');
    const green = postings.ids.get('green');
    assert.ok(red !== undefined && green !== undefined);
    assert.equal(postings.docsOf(red).buffer, delta.base.docs.buffer, 'the documents of "red" were copied');
    const read = postings.read(red);
    assert.equal(read.docs.buffer, delta.base.docs.buffer, 'the postings of "red" were merged into new arrays');
    assert.equal(read.docs.length, M / 4);
    // a term the new document holds is merged as before
    assert.notEqual(postings.read(green).docs.buffer, delta.base.docs.buffer);
    const query = { query: 'red component', k: 10 };
    const { hits, total } = await searchKnowledge(kb, query);
    await ranksAsFresh(dir, query, { hits, total });
  });

  test('counts the matches without reading the documents of a term every document holds', async () => {
    const query = { query: 'amber component', k: 10 };
    const index = await writtenBetween(query, 'A third amber component');
    const { postings } = index;
    const component = postings.ids.get('compon');
    assert.ok(component !== undefined && postings.docsOf, 'the write is laid over the index');
    // the documents of each term read to count the matches, seen through a counter
    const docsOf = postings.docsOf;
    const counted: number[] = [];
    postings.docsOf = (id) => (counted.push(id), docsOf.call(postings, id));
    const { hits, total } = await searchKnowledge(kb, query);
    postings.docsOf = docsOf;
    assert.equal(total, index.docs.length, 'every document holds "component"');
    assert.ok(!counted.includes(component), 'the documents of "component", which every document holds, were read to count the matches');
    await ranksAsFresh(dir, query, { hits, total });
  });

  test("looks the documents pruning scores up in a common term's postings, walking none of the others", async () => {
    const query = { query: 'amber component', k: 10 };
    const index = await writtenBetween(query, 'Yet another amber component');
    const { delta } = index;
    const component = index.postings.ids.get('compon');
    assert.ok(delta && !delta.exact && component !== undefined, 'the write is laid over the index');
    const held = delta.df[component]!;
    const amber = delta.df[index.postings.ids.get('amber')!]!;
    // the base postings' documents seen through a counter of the positions of "component" read
    const [from, to] = [delta.base.start[component]!, delta.base.start[component + 1]!];
    let reads = 0;
    const { docs, ...rest } = delta.base;
    delta.base = { ...rest, docs: counted(docs, (at) => at >= from && at < to && reads++) };
    const { hits, total } = await searchKnowledge(kb, query);
    delta.base = { ...rest, docs };
    assert.equal(total, index.docs.length, 'every document holds "component"');
    // "amber" (a quarter of the documents) is scored whole; "component" is looked up for those alone, two reads each
    assert.ok(reads > 0 && reads <= 2 * amber, `${reads} of the ${held} base postings of "component" read for the ${amber} documents holding "amber"`);
    await ranksAsFresh(dir, query, { hits, total });
  });

  test('after writes, removals and supersessions laid over one another, ranks every pruned query as a process reading the store afresh', async () => {
    // a quarter of the documents hold each colour: the first word scored touches more than the best hundred, and the rest is pruned
    const queries = ['amber component', 'red component approach', 'green takes component', 'blue approach', 'approach 150 component'];
    let memory = '';
    let successor = '';
    const writes: Array<[string, () => Promise<unknown>]> = [
      ['a decision added', () => addDecision(kb, { title: 'The amber component added last', decision: 'Component takes the red approach.' })],
      [
        'one in the middle superseded',
        async () =>
          (successor = (
            await supersedeDecision(kb, { id: 'D-150', title: 'An amber component superseding', decision: 'Component 150 takes another approach.' })
          ).item.id),
      ],
      ['one revoked', () => revokeDecision(kb, { id: 'D-020', reason: 'no longer holds' })],
      ['one amended', () => amendDecision(kb, { id: 'D-077', decision: 'The green component takes the amber approach.' })],
      [
        'a memory added',
        async () =>
          (memory = (await addMemory(kb, { type: 'pattern', title: 'Amber component memory', description: 'The red component approach.' })).item.slug),
      ],
      [
        'the successor superseded in turn',
        () => supersedeDecision(kb, { id: successor, title: 'A blue component superseding again', decision: 'Component takes the blue approach.' }),
      ],
      ['the memory archived', () => archiveMemory(kb, { slug: memory })],
    ];
    let markedReads = 0;
    for (const [what, write] of writes) {
      await write();
      const { index, source } = await loadSearchIndex(kb);
      assert.equal(source, 'incremental', what);
      assert.ok(index.delta && !index.delta.exact, `${what}: laid over the index before, not laid out`);
      // the reads for the documents a pruned scoring marks, counted: the run must go through them
      const { postings } = index;
      const read = postings.read!;
      postings.read = (id, only) => (only && markedReads++, read.call(postings, id, only));
      const mine = [];
      for (const query of queries) mine.push(await searchKnowledge(kb, { query, k: 10 }));
      postings.read = read;
      const other = await openTestKb(dir);
      try {
        for (const [i, query] of queries.entries()) {
          const fresh = await searchKnowledge(other, { query, k: 10 });
          assert.deepEqual(mine[i]!.hits, fresh.hits, `${what}: "${query}" ranks as a fresh process`);
          assert.equal(mine[i]!.total, fresh.total, `${what}: "${query}" counts as a fresh process`);
        }
      } finally {
        await closeKnowledgeBase(other);
      }
    }
    assert.ok(markedReads > 0, 'no query read postings for marked documents alone');
  });

  test("a term's postings read for marked documents are its whole postings restricted to them, in arrays the size of what is found", async () => {
    const index = await writtenBetween({ query: 'amber component', k: 10 }, 'A red component written for the marked reads');
    const { postings, delta } = index;
    assert.ok(delta && !delta.exact && postings.read, 'the write is laid over the index');
    const n = index.docs.length;
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const masks = [0.01, 0.05, 0.3, 1].map((density) => Uint8Array.from({ length: n }, () => (random() < density ? 1 : 0)));
    const ids = [...postings.ids].map(([, id]) => id);
    // every marked read first (a whole read is kept, and answers the marked ones after it)
    const marked = ids.map((id) => masks.map((only) => postings.read!(id, only)));
    const component = ids.indexOf(postings.ids.get('compon')!);
    const few = marked[component]![0]!;
    assert.ok(
      few.docs.length < 64 && few.docs.buffer.byteLength <= 128 * 4,
      `${few.docs.buffer.byteLength} bytes held for ${few.docs.length} of "component"'s postings`,
    );
    for (const [i, id] of ids.entries()) {
      const whole = postings.read!(id);
      for (const [j, only] of masks.entries()) {
        const keep = [...whole.docs.keys()].filter((at) => only[whole.docs[at]!] === 1);
        const got = marked[i]![j]!;
        assert.deepEqual(
          [...got.docs],
          keep.map((at) => whole.docs[at]!),
          `term ${id}, mask ${j}: the documents`,
        );
        assert.deepEqual(
          [...got.gain],
          keep.map((at) => whole.gain[at]!),
          `term ${id}, mask ${j}: the gains`,
        );
      }
    }
  });

  test('scores a query whose first word most documents hold without marking them: its other words are read whole', async () => {
    const query = { query: 'takes component', k: 10 };
    const index = await writtenBetween(query, 'A component that takes its time');
    const { postings } = index;
    assert.ok(index.delta && postings.read, 'the write is laid over the index');
    // the reads of a term's postings seen through a counter of those for the documents a pruned scoring marks
    const read = postings.read;
    let marked = 0;
    postings.read = (id, only) => (only && marked++, read.call(postings, id, only));
    const { hits, total } = await searchKnowledge(kb, query);
    postings.read = read;
    assert.equal(marked, 0, `${marked} terms read for the documents a pruned scoring marked, where every document was scored`);
    await ranksAsFresh(dir, query, { hits, total });
  });
});

describe('an index read from its file, and the same index after a write', () => {
  let dir: string;
  before(() => {
    dir = seeded(120);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The fields of `o` in order, and what made it (a class, or a plain object). */
  const shape = (o: object) => [o.constructor.name, ...Object.keys(o)];

  test('hold their postings, delta and fields in one shape: the ranking meets after a write the objects it ranked before', async () => {
    const first = await openTestKb(dir);
    await searchKnowledge(first, { query: 'component 4' });
    await closeKnowledgeBase(first);
    // a new process (the MCP server after a restart): the index read from its file, then a write laid over it
    const kb = await openTestKb(dir);
    try {
      const read = await loadSearchIndex(kb);
      assert.equal(read.source, 'disk');
      await searchKnowledge(kb, { query: 'component 4' });
      await addDecision(kb, { title: 'Component 4 takes a new approach', decision: 'Written after the file was read.' });
      const laid = await loadSearchIndex(kb);
      assert.equal(laid.source, 'incremental');
      /** every object a query reads on its way to the postings, as `shape` gives it */
      const shapes = (index: Index) => {
        assert.ok(index.delta, 'the postings are a base and a delta');
        return [index, index.postings, index.postings.ids, index.delta, index.delta.base].map(shape);
      };
      const before = shapes(read.index);
      assert.deepEqual(shapes(laid.index), before);
      // the file written after the answer leaves the index laid out flat again, read as the one from disk
      kb.cache.settle();
      assert.deepEqual(shapes(laid.index), before);
      assert.equal(laid.index.delta?.exact, true, 'after the file is written, a delta of nothing changed over its flat postings');
    } finally {
      await closeKnowledgeBase(kb);
    }
  });
});

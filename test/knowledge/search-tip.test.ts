/**
 * The query at the memory tip (docs/search.md): `searchAtTip` answers from the tip's index file
 * alone — no store opened — exactly what `searchKnowledge` answers, or nothing when it cannot
 * tell (no file for this tip yet, staleness not worked out for this HEAD, a damaged file); the
 * CLI's `axme search` and the prompt hook answer through it on the launcher's fast path, with
 * the same output as the full CLI's.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { tipSearchArgs } from '../../src/cli/tip-search-main.ts';
import { initStore } from '../../src/knowledge/admin/init-store.ts';
import { closeKnowledgeBase, type KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { locateRepo } from '../../src/knowledge/core/location.ts';
import { addBacklogItem } from '../../src/knowledge/items/backlog/add-backlog-item.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import { revokeDecision } from '../../src/knowledge/items/decision/revoke-decision.ts';
import { supersedeDecision } from '../../src/knowledge/items/decision/supersede-decision.ts';
import { addMemory } from '../../src/knowledge/items/memory/add-memory.ts';
import { askQuestion } from '../../src/knowledge/items/question/ask-question.ts';
import { recallForPrompt } from '../../src/knowledge/views/recall.ts';
import { searchAnswerOf, searchAtTip } from '../../src/knowledge/views/search/tip-search.ts';
import { loadSearchIndex, searchKnowledge } from '../../src/knowledge/views/search.ts';
import type { SearchType } from '../../src/model/search-kinds.ts';
import { axme, cleanEnv, commitFiles, openTestKb, tempRepo } from '../helpers.ts';

const QUERIES: Array<[string, SearchType]> = [
  ['postgres billing transactions', 'all'],
  ['logging', 'all'],
  ['sessions kept in memory', 'all'],
  ['db orders', 'all'],
  ['audit log', 'all'],
  ['cache version', 'all'],
  ['cache version', 'memory'],
  ['retyr uploads', 'all'],
  ['session', 'decision'],
  ['which queue do emails use', 'question'],
  ['the of and', 'all'],
];

describe('the query at the memory tip', () => {
  let dir: string;
  let cleanup: () => void;
  let kb: KnowledgeBase;
  const env = cleanEnv();
  // the search's answer: what the query is worth and the index's size are the prompt recall's (its equality is checked below)
  const atTip = (query: string, type: SearchType = 'all', k = 10) => {
    const r = searchAtTip({ loc: locateRepo(dir, env)!, cwd: dir, env, query, k, type });
    return r && searchAnswerOf(r);
  };
  const full = async (query: string, type: SearchType = 'all', k = 10) => {
    const k2 = await openTestKb(dir);
    try {
      return await searchKnowledge(k2, { query, type, k });
    } finally {
      await closeKnowledgeBase(k2);
    }
  };
  const indexFiles = () => readdirSync(join(kb.repo.axmeDir, 'search')).filter((n) => n.endsWith('.idx'));
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    commitFiles(dir, { 'src/keys.ts': 'export const prefix = 1;\n' }, 'key code');
    kb = await openTestKb(dir);
    await initStore(kb);
    await addDecision(kb, {
      title: 'Use Postgres for billing',
      decision: 'Billing data lives in Postgres.',
      reasoning: 'Transactions and mature tooling.',
      tags: ['db'],
    });
    await addDecision(kb, { title: 'Use a relational database for orders', decision: 'Orders live in one relational store.' });
    await addDecision(kb, { title: 'Session store', decision: 'Sessions are kept in memory for now.' });
    await supersedeDecision(kb, { id: 'session-store', title: 'Session store moves to Redis', decision: 'Sessions are kept in Redis.' });
    await addDecision(kb, { title: 'Two audit logs', decision: 'Audit events go to a second log.' });
    await revokeDecision(kb, { id: 'two-audit-logs', reason: 'one is enough' });
    await addMemory(kb, { type: 'feedback', title: 'Audit log review', description: 'Someone reads the audit log every week.' });
    await addMemory(kb, {
      type: 'pattern',
      title: 'Cache key prefix',
      description: 'Every cache key starts with the schema version, then the name.',
      anchors: ['src/keys.ts'],
    });
    await addMemory(kb, { type: 'pattern', title: 'Retry uploads with backoff', description: 'Uploads are retried with exponential backoff.' });
    await addBacklogItem(kb, { title: 'Add request logging', description: 'Log every request with its duration.' });
    await askQuestion(kb, { question: 'Which queue do emails go through?', context: 'The worker retries them.' });
    // the anchored memory's code moves: it is stale
    commitFiles(dir, { 'src/keys.ts': 'export const prefix = 2;\n' }, 'keys: a new prefix');
  });
  after(async () => {
    await closeKnowledgeBase(kb);
    cleanup();
  });

  test('before any search has left the index of this tip, it does not answer', () => {
    assert.equal(atTip('postgres'), undefined);
  });

  test('once the full path ran, it answers every query as the full path does (hits, marks, staleness, total)', async () => {
    await full('postgres');
    for (const [query, type] of QUERIES) {
      const expected = await full(query, type);
      assert.deepEqual(atTip(query, type), expected, `${query} (${type})`);
    }
    const stale = atTip('cache version')!.hits.find((h) => h.slug === 'cache-key-prefix');
    assert.equal(stale?.stale, true, 'the stale memory is marked at the tip too');
    assert.equal(atTip('logging')!.hits[0]?.kind, 'backlog');
  });

  test('after a write it does not answer until the index of the new tip is on disk, then answers as the full path', async () => {
    await addDecision(kb, { title: 'Queue jobs with Kafka', decision: 'Background jobs go through Kafka topics.' });
    assert.equal(atTip('kafka topics'), undefined);
    const expected = await full('kafka topics');
    assert.equal(expected.hits[0]?.slug, 'queue-jobs-with-kafka');
    assert.deepEqual(atTip('kafka topics'), expected);
  });

  test('after a code commit (HEAD moved) it does not answer until the stale marks for that HEAD are known', async () => {
    commitFiles(dir, { 'README.md': 'hello\n' }, 'docs');
    assert.equal(atTip('cache version'), undefined);
    const expected = await full('cache version');
    assert.deepEqual(atTip('cache version'), expected);
  });

  test('a damaged index file is never used: garbage, or positions out of range, make the full path rebuild it, with the same answer', async () => {
    const expected = await full('audit log');
    // the tip's file: the one `last` names
    const key = readFileSync(join(kb.repo.axmeDir, 'search', 'last'), 'utf8').split('\n')[0]!;
    assert.ok(indexFiles().includes(`${key}.idx`), key);
    const file = join(kb.repo.axmeDir, 'search', `${key}.idx`);
    // the first posting of `audit`, a term of the query, names a document past the last (the layout: src/knowledge/views/search/index-file-layout.ts)
    const bytes = readFileSync(file);
    const header = JSON.parse(bytes.subarray(12, 12 + bytes.readUInt32LE(8)).toString('utf8')) as {
      n: number;
      sections: { head: [number, number]; pdocs: [number, number] };
      head: { start: number };
    };
    const head = header.sections.head[0];
    const vocab = bytes
      .subarray(head, head + header.head.start)
      .toString('utf8')
      .replace(/\0+$/, '')
      .split('\n');
    const term = vocab.indexOf('audit');
    assert.ok(term >= 0);
    bytes.writeInt32LE(header.n + 7, header.sections.pdocs[0] + 4 * bytes.readInt32LE(head + header.head.start + 4 * term));
    writeFileSync(file, bytes);
    assert.equal(atTip('audit log'), undefined);
    const k2 = await openTestKb(dir);
    try {
      assert.equal((await loadSearchIndex(k2)).source === 'disk', false, 'the full path does not take it either');
    } finally {
      await closeKnowledgeBase(k2);
    }
    assert.deepEqual(atTip('audit log'), expected);
    writeFileSync(file, 'not an index');
    assert.equal(atTip('audit log'), undefined);
    assert.deepEqual(await full('audit log'), expected);
    assert.deepEqual(atTip('audit log'), expected);
  });

  test('`axme search` prints what the full CLI prints, text and --json, and the prompt hook injects the same', async () => {
    const dist = resolve(import.meta.dirname, '../../dist');
    const fullCli = (args: string[], input = '') => spawnSync(process.execPath, [join(dist, 'cli.js'), ...args], { cwd: dir, env, input, encoding: 'utf8' });
    for (const args of [
      ['search', 'postgres', 'billing'],
      ['search', 'logging', '--json'],
      ['search', 'session', '--type', 'decision', '--k', '2'],
      ['search', 'nothing', 'like', 'this', 'zzzq'],
    ]) {
      const expected = fullCli(args);
      const r = await axme(dir, args);
      assert.equal(r.code, expected.status, args.join(' '));
      assert.equal(r.stdout, expected.stdout, args.join(' '));
    }
    // the launcher's fast path itself (dist/tip-search.cjs) answers these, as the full CLI would
    const built = createRequire(import.meta.url)(join(dist, 'tip-search.cjs')) as typeof import('../../src/cli/tip-search-main.ts');
    for (const args of [
      ['postgres', 'billing'],
      ['logging', '--json'],
    ]) {
      let printed = '';
      assert.equal(built.tipSearch(args, { cwd: dir, env, write: (t) => (printed += t), note: () => {} }), true, args.join(' '));
      assert.equal(printed, fullCli(['search', ...args]).stdout);
    }
    const recalled = built.promptRecallAtTip(locateRepo(dir, env)!, env, { prompt: 'how do we keep billing data in postgres?', cwd: dir, given: new Set() });
    assert.deepEqual(recalled, await recallForPrompt(kb, 'how do we keep billing data in postgres?', new Set()));
    const payload = (session: string) =>
      JSON.stringify({ prompt: 'how do we keep billing data in postgres?', session_id: session, cwd: dir, hook_event_name: 'UserPromptSubmit' });
    const expected = fullCli(['hook', 'user-prompt-submit'], payload('full-1'));
    const r = await axme(dir, ['hook', 'user-prompt-submit'], { input: payload('tip-1') });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /use-postgres-for-billing|D-001/);
    assert.equal(r.stdout, expected.stdout);
  });
});

describe("the query at the tip takes the full CLI's spellings of a search", () => {
  // what tipSearchArgs answers must be what yargs makes of the same line, or nothing (the full path then parses it)
  const cases: Array<[args: string[], expected: { query: string; k?: number; type?: string; json?: boolean } | undefined]> = [
    [['logging'], { query: 'logging' }],
    [['request', 'logging', '-k', '5'], { query: 'request logging', k: 5 }],
    [['logging', '--limit', '7'], { query: 'logging', k: 7 }],
    [['logging', '--limit=8'], { query: 'logging', k: 8 }],
    [['-k=3', 'logging'], { query: 'logging', k: 3 }],
    [['logging', '--k', '100'], { query: 'logging', k: 100 }],
    [['--json', '--type', 'backlog', 'logging'], { query: 'logging', type: 'backlog', json: true }],
    [['--', '--no-verify'], { query: '--no-verify' }],
    [['--json', '--', '--json', '-k'], { query: '--json -k', json: true }],
    [['-'], { query: '-' }],
    [['--json', 'x', '-', 'y'], { query: 'x - y', json: true }],
    [['logging', '--limit', '0'], undefined],
    [['logging', '-k', '101'], undefined],
    [['logging', '-k', '3', '--limit', '5'], undefined],
    [['logging', '--type', 'decision', '--type', 'memory'], undefined],
    [['logging', '--type', 'decisions'], undefined],
    [['logging', '--eval', 'x.jsonl'], undefined],
    [['--'], undefined],
  ];
  for (const [args, expected] of cases)
    test(`axme search ${args.join(' ')}`, () => {
      const got = tipSearchArgs(args);
      assert.deepEqual(got, expected && { k: 10, type: 'all', json: false, ...expected });
    });
});

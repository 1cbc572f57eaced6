/**
 * The related words' table (search/related-words.ts): a question phrased with one member finds
 * the item that says another, on the full path and at the memory tip (the table is read from the
 * index file there); and the table analyzes as it is written (no member loses a word to a stop
 * word, no two written words share a stem, no everyday word is pulled in by a member's stem).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { initStore } from '../../src/knowledge/admin/init-store.ts';
import { closeKnowledgeBase, type KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { locateRepo } from '../../src/knowledge/core/location.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import { addMemory } from '../../src/knowledge/items/memory/add-memory.ts';
import { americanSpelling, stem } from '../../src/knowledge/views/search/analyze.ts';
import { parseQuery } from '../../src/knowledge/views/search/query.ts';
import { RELATED_WORDS } from '../../src/knowledge/views/search/related-words.ts';
import { RELATED_WEIGHT } from '../../src/knowledge/views/search/synonyms.ts';
import { searchAtTip } from '../../src/knowledge/views/search/tip-search.ts';
import { searchKnowledge, tokenize } from '../../src/knowledge/views/search.ts';
import { cleanEnv, openTestKb, tempRepo } from '../helpers.ts';

/** Members written with a stop word the analyzer drops, kept on purpose (the comment above them in related-words.ts says why). */
const WITH_A_STOP_WORD = new Set(['turn on', 'switch on', 'turn into']);

/** Each query says none of its item's words: only the table leads from one to the other. */
const CASES: Array<{ query: string; slug: string }> = [
  { query: 'follow symlinks', slug: 'dereference-symbolic-links-when-bundling' },
  { query: 'gzip archive', slug: 'compress-the-tarball-before-upload' },
  { query: 'leave out', slug: 'exclude-generated-files-from-the-linter' },
  { query: 'standard output', slug: 'progress-lines-go-to-stdout' },
];

describe('related words: a question phrased otherwise finds the item', () => {
  let dir: string;
  let cleanup: () => void;
  let kb: KnowledgeBase;
  const env = cleanEnv();
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    kb = await openTestKb(dir);
    await initStore(kb);
    await addDecision(kb, { title: 'Dereference symbolic links when bundling', decision: 'The bundler copies what a link points at.' });
    await addDecision(kb, { title: 'Compress the tarball before upload', decision: 'Release tarballs are compressed first.' });
    await addMemory(kb, { type: 'pattern', title: 'Exclude generated files from the linter', description: 'What the build writes is excluded.' });
    await addMemory(kb, { type: 'pattern', title: 'Progress lines go to stdout', description: 'Errors go elsewhere.' });
    await addDecision(kb, { title: 'Queue jobs with Kafka', decision: 'Background jobs go through Kafka topics.' });
  });
  after(async () => {
    await closeKnowledgeBase(kb);
    cleanup();
  });

  for (const { query, slug } of CASES) {
    test(`"${query}" finds ${slug}, on the full path and at the tip`, async () => {
      const full = await searchKnowledge(kb, { query, type: 'all', k: 5 });
      assert.equal(full.hits[0]?.slug, slug, JSON.stringify(full.hits.map((h) => h.slug)));
      const tip = searchAtTip({ loc: locateRepo(dir, env)!, cwd: dir, env, query, k: 5, type: 'all' });
      assert.ok(tip, 'the tip answers');
      assert.equal(tip.hits[0]?.slug, slug, JSON.stringify(tip.hits.map((h) => h.slug)));
    });
  }
});

describe('related words: the table analyzes as it is written', () => {
  test('no member loses a word to a stop word, and every line keeps two members or more', () => {
    for (const group of RELATED_WORDS) {
      for (const member of group) {
        if (WITH_A_STOP_WORD.has(member)) continue;
        assert.equal(tokenize(member).length, member.split(/\s+/).length, `"${member}" loses a word to a stop word`);
      }
      const analyzed = new Set(group.map((m) => tokenize(m).join(' ')));
      assert.equal(analyzed.size, group.length, `two members of [${group.join(', ')}] analyze alike`);
    }
  });

  test('every member is written in American spelling, as the words of a query are looked up', () => {
    for (const word of RELATED_WORDS.flat().flatMap((m) => m.split(/\s+/))) assert.equal(americanSpelling(word), word);
  });

  test('two different words written in the table never share a stem', () => {
    const written = new Map<string, string>();
    for (const group of RELATED_WORDS)
      for (const word of group.flatMap((m) => m.split(/\s+/))) {
        const s = stem(word);
        const was = written.get(s);
        assert.ok(was === undefined || was === word, `"${was}" and "${word}" are both "${s}" to search`);
        written.set(s, word);
      }
  });

  test('everyday words that share a stem with a word left out are not expanded', () => {
    // each is Porter's stem of a word a table could hold, and says something else:
    // initiate/initialize, exception/except, complete/completion, performance/perform,
    // preference/prefer, identical/identity, provide/provider, listener/listen, transition/transit
    // and quite/quit, opts/opt, custom/customize, period/periodically, passed/pass, breaking/break,
    // terminated/terminal, found in the review by stemming every word of the docs and man pages
    const words = [
      ...['initialize', 'except', 'completion', 'perform', 'prefer', 'identity', 'provider', 'listen', 'transit', 'responsible'],
      ...['quite', 'opts', 'custom', 'period', 'passed', 'breaking', 'terminated'],
    ];
    for (const w of words) assert.deepEqual(relatedOf(w), [], `"${w}" is expanded`);
  });
});

/** The terms a query looks for at the related words' weight, but its own (the index knowing no identifier whole unless `whole` says it does). */
function relatedOf(query: string, whole: readonly string[] = []): string[] {
  const own = tokenize(query);
  return parseQuery(query, new Map(), (t) => whole.includes(t))
    .terms.filter((t) => t.weight === RELATED_WEIGHT && !own.includes(t.term))
    .map((t) => t.term);
}

describe('related words: a member meets the word it is, not every word of its stem', () => {
  // [a word of the query, a term of the line it may meet, whether it meets it]: the member, its
  // plural, -ed and -ing (and a British spelling) meet the line; a shorter word or another word
  // of the same stem does not ("set" is not "setting", "general" not "generate")
  const CASES: Array<[string, string, boolean]> = [
    ['setting', 'option', true],
    ['settings', 'option', true],
    ['set', 'option', false],
    ['headings', 'header', true],
    ['head', 'header', false],
    ['several', 'multipl', true],
    ['severity', 'multipl', false],
    ['past', 'log', true],
    ['paste', 'log', false],
    ['generated', 'creat', true],
    ['general', 'creat', false],
    ['required', 'mandatory', true],
    ['require', 'mandatory', false],
    ['requires', 'mandatory', false],
    ['deletes', 'remov', true],
    ['deleting', 'remov', true],
    ['copied', 'duplic', true],
    ['stopped', 'halt', true],
    ['honour', 'obey', true],
    // a member is written as its word's base form, so that the query's inflections meet it
    ['millisecond', 'ms', true],
    ['milliseconds', 'ms', true],
  ];
  for (const [word, neighbour, meets] of CASES)
    test(`"${word}" ${meets ? 'meets' : 'does not meet'} "${neighbour}"`, () => {
      assert.equal(relatedOf(word).includes(neighbour), meets, JSON.stringify(relatedOf(word)));
    });

  test('a phrase member meets the phrase, its last word inflected too', () => {
    assert.ok(relatedOf('symbolic links').includes('symlink'));
    assert.ok(relatedOf('rolled back').includes('revert'));
    assert.ok(relatedOf('lines that do not match').includes('invert'));
    assert.ok(relatedOf('lines not matching').includes('invert'));
  });
});

describe('related words: an identifier asked whole is asked as itself', () => {
  test('the part of an identifier the index holds whole brings no related word; the same word alone does', () => {
    assert.deepEqual(relatedOf('--no-verify', ['noverify']), []);
    assert.ok(relatedOf('--no-verify').includes('valid'), 'an identifier the index lacks whole is asked by its words');
    assert.ok(relatedOf('verify').includes('valid'));
  });
});

/**
 * Numbers written with dots or dashes between their parts — versions (`15.2.0`, `0.5`), dates
 * (`2026-07-15`), addresses — are one term whole (as written) as well as their parts, as an identifier is: the
 * note about 1.2.3 is not the note about 3.2.1, nor 15.2 the one about 1.52.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tokenize } from '../../src/knowledge/views/search.ts';
import { useNoteStore } from './note-store.ts';

describe('tokenize: a dotted or dashed number is a term whole', () => {
  const rows: Array<[string, string]> = [
    ['15.2.0', '15.2.0'],
    ['0.5', '0.5'],
    ['2026-07-15', '2026-07-15'],
    ['10.0.0.1', '10.0.0.1'],
  ];
  for (const [text, whole] of rows)
    test(`${text}: its parts, then ${whole}`, () => {
      const terms = tokenize(text);
      assert.deepEqual(terms.slice(0, -1), text.split(/[.-]/), terms.join(' '));
      assert.equal(terms.at(-1), whole);
    });

  test('the whole keeps its separators: 1.52 and 15.2 are two numbers', () => {
    assert.notEqual(tokenize('1.52').at(-1), tokenize('15.2').at(-1));
  });

  test('a lone number, and the words of a sentence, gain no whole', () => {
    assert.deepEqual(tokenize('version 42'), ['version', '42']);
    assert.deepEqual(tokenize('3 of 4'), ['3', '4']);
  });
});

describe('searchKnowledge: a version or a date written whole', () => {
  const notes = useNoteStore([
    // each pair: the same words, the numbers' parts in another order; the one a query does not
    // ask for sorts first, so a tie would put it first
    ['Driver pin a', 'The database driver is pinned to 3.2.1 until the pool leak is fixed.'],
    ['Driver pin b', 'The database driver is pinned to 1.2.3 until the pool leak is fixed.'],
    ['Parser a', 'The parser moved to 1.52 and the lexer stays.'],
    ['Parser b', 'The parser moved to 15.2 and the lexer stays.'],
    ['Freeze a', 'Deploys froze on 2026-03-07 for the audit.'],
    ['Freeze b', 'Deploys froze on 2026-07-03 for the audit.'],
  ]);
  const first = async (query: string) => (await notes.slugs(query))[0];

  const rows: Array<[string, string]> = [
    ['driver 1.2.3', 'driver-pin-b'],
    ['1.2.3', 'driver-pin-b'],
    ['parser 15.2', 'parser-b'],
    ['deploys froze 2026-07-03', 'freeze-b'],
  ];
  for (const [query, slug] of rows)
    test(`"${query}" finds ${slug} first`, async () => {
      assert.equal(await first(query), slug);
    });

  test('a number asked in part still finds the notes holding it', async () => {
    const hits = await notes.slugs('driver 1.2');
    assert.deepEqual(hits.slice(0, 2).sort(), ['driver-pin-a', 'driver-pin-b']);
  });
});

/**
 * An identifier of three segments or more is a term whole, and so is each of its tails of two
 * segments or more: `UTF-8` is found whole in `non-UTF-8`, `search.ts` in `src/views/search.ts`,
 * where only its parts, at half weight, were before.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tokenize } from '../../src/knowledge/views/search.ts';
import { useNoteStore } from './note-store.ts';

describe('tokenize: the tails of an identifier are terms whole', () => {
  const rows: Array<[string, string]> = [
    ['non-UTF-8', 'UTF-8'],
    ['src/views/search.ts', 'search.ts'],
    ['src/views/search.ts', 'views/search.ts'],
    ['--no-ignore-vcs', 'ignore-vcs'],
  ];
  for (const [text, tail] of rows)
    test(`${text} holds ${tail} whole`, () => {
      assert.ok(tokenize(text).includes(tokenize(tail).at(-1)!), `${tokenize(tail).at(-1)} in ${tokenize(text).join(' ')}`);
    });

  test('a head is not a tail: --no-ignore-vcs does not hold --no-ignore whole', () => {
    assert.ok(!tokenize('--no-ignore-vcs').includes(tokenize('--no-ignore').at(-1)!));
  });
});

describe('searchKnowledge: an identifier found whole inside a longer one', () => {
  const notes = useNoteStore([
    ['Reader inside', 'The reader rejects non-UTF-8 input at the boundary.'],
    ['Reader plain', 'The reader rejects UTF-8 input at the boundary.'],
    ['Ranking inside', 'The ranking lives in src/views/search.ts beside the index.'],
    ['Ranking plain', 'The ranking lives in search.ts beside the index.'],
    ['Other', 'Tables of 8 bytes and utf names; search ts files.'],
  ]);
  const { scoreOf } = notes;

  const rows: Array<[string, string, string]> = [
    ['UTF-8', 'reader-inside', 'reader-plain'],
    ['search.ts', 'ranking-inside', 'ranking-plain'],
  ];
  for (const [query, inside, plain] of rows)
    test(`"${query}" scores the note writing it inside a longer identifier near the one writing it alone, above the note holding its parts apart`, async () => {
      const [a, b, other] = [await scoreOf(query, inside), await scoreOf(query, plain), await scoreOf(query, 'other')];
      assert.ok(a > 0.8 * b, `${a} against ${b}`);
      assert.ok(a > other, `${a} against ${other}`);
    });
});

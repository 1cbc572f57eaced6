/**
 * An index file's vocabulary (search/file-vocabulary.ts), looked up by halving its sorted order
 * instead of a Map built at opening: on random vocabularies (accents, digits, terms that are
 * prefixes of others, code units past the BMP), it answers every look-up as a Map of the same
 * terms, and the terms a prefix starts as a pass over every term does.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { FileVocabulary, sortedOrder } from '../../src/knowledge/views/search/file-vocabulary.ts';

const term = fc.string({ unit: fc.constantFrom('a', 'b', 'ab', 'z', 'é', '1', '-', '.', '😀', 'ß'), minLength: 1, maxLength: 6 });
const vocabulary = fc.uniqueArray(term, { maxLength: 60 });

describe('the index file vocabulary', () => {
  test('answers as a Map of its terms, and the terms a prefix starts as a pass over them all', () => {
    fc.assert(
      fc.property(vocabulary, fc.array(term, { maxLength: 10 }), (terms, asked) => {
        const vocab = new FileVocabulary(terms, sortedOrder(terms));
        const map = new Map(terms.map((t, i) => [t, i]));
        assert.equal(vocab.size, map.size);
        assert.deepEqual([...vocab], [...map]);
        assert.deepEqual([...vocab.keys()], [...map.keys()]);
        for (const t of [...asked, ...terms]) {
          assert.equal(vocab.get(t), map.get(t), t);
          assert.equal(vocab.has(t), map.has(t), t);
          const scanned = terms.filter((x) => x.startsWith(t) && !/\d/.test(x)).sort();
          assert.deepEqual(vocab.startingWith(t), scanned, t);
        }
      }),
      { numRuns: 300 },
    );
  });

  test('an order that is not one id a term is refused', () => {
    assert.throws(() => new FileVocabulary(['a', 'b'], new Int32Array([0])), /bad term order/);
    const bad = new FileVocabulary(['a', 'b'], new Int32Array([0, 7]));
    assert.throws(() => bad.get('b'), /bad term order/);
  });
});

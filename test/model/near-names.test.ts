import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eitherOf, nearNames } from '../../src/model/near-names.ts';

// nearNames is shared by every "did you mean" (unknown options, choices, clients, models): it
// compares without case and offers a known name as its place spells it, capitals and all.

describe('nearNames: the known names a mistyped word was meant to be', () => {
  test('one or two edits away, a singular or plural, else the names it starts (before a separator)', () => {
    assert.deepEqual(nearNames('titel', ['title', 'decision']), ['title']);
    assert.deepEqual(nearNames('decisions', ['decision', 'memory']), ['decision']);
    assert.deepEqual(nearNames('claude', ['claude-code', 'claude-desktop', 'codex']), ['claude-code', 'claude-desktop']);
    assert.deepEqual(nearNames('zzzzzz', ['title', 'decision']), []);
    assert.deepEqual(nearNames('x', ['y', 'title']), [], 'a one-letter name is never offered');
  });

  test('compared without case; a name with capitals is offered as it is spelt', () => {
    assert.deepEqual(nearNames('potion-base-8m', ['potion-base-8M', 'potion-base-32M']), ['potion-base-8M']);
    assert.deepEqual(nearNames('POTION-BASE-8M', ['potion-base-8M']), ['potion-base-8M']);
    assert.deepEqual(nearNames('potion-base', ['potion-base-8M', 'potion-base-32M']), ['potion-base-8M', 'potion-base-32M']);
    assert.deepEqual(nearNames('Titel', ['title']), ['title']);
  });

  test('eitherOf says names as a sentence does', () => {
    assert.equal(eitherOf(['a']), 'a');
    assert.equal(eitherOf(['a', 'b', 'c']), 'a, b or c');
  });
});

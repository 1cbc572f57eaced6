import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { axmeInOk } from '../cli-in-process.ts';
import { tempRepo } from '../helpers.ts';

/**
 * The first line a session's context counts the store in, as a model reads it on a first day:
 * "1 decision (1 required), 1 memory", not "1 decisions … 1 memories" (seen by h/firstday6 in
 * every client's session-start context).
 */
describe('the context header counts in words that agree with the number', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    await axmeInOk(dir, ['init', '--no-claude', '--no-git-hooks', '--no-scan']);
  });
  after(() => cleanup());

  test('none of each, then one of each', async () => {
    const none = await axmeInOk(dir, ['context']);
    assert.match(String(none), /^0 decisions \(0 required\), 0 memories, 0 open questions, 0 open backlog items, 0 oracle pages\.$/m);
    await axmeInOk(dir, ['decision', 'add', '--title', 'Use Valkey', '--decision', 'Valkey replaces Redis.', '--enforce', 'required']);
    await axmeInOk(dir, ['memory', 'add', '--type', 'feedback', '--title', 'Run the tests', '--description', 'npm test before each commit.']);
    await axmeInOk(dir, ['question', 'ask', 'Which region?']);
    await axmeInOk(dir, ['backlog', 'add', '--title', 'Add a cache']);
    const one = await axmeInOk(dir, ['context']);
    assert.match(String(one), /^1 decision \(1 required\), 1 memory, 1 open question, 1 open backlog item, 0 oracle pages\.$/m);
  });
});

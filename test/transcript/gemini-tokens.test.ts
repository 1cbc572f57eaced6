import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { lastPromptOf } from '../../src/transcript/gemini-tokens.ts';

const dir = mkdtempSync(join(tmpdir(), 'axme-gemini-tokens-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const HEAD = { sessionId: 's', projectHash: 'p', startTime: 't', lastUpdated: 't', kind: 'main' };
const file = (name: string, records: unknown[], before = ''): string => {
  const path = join(dir, name);
  writeFileSync(path, before + records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  return path;
};
const gemini = (id: string, tokens: unknown, model = 'gemini-2.5-pro') => ({ id, timestamp: 't', type: 'gemini', content: 'x', tokens, model });

test("a Gemini CLI session file's last prompt: the newest model message with a token count", () => {
  assert.deepEqual(lastPromptOf(file('a', [HEAD, gemini('m1', { input: 10 }), { id: 'u', type: 'user', content: 'q' }, gemini('m2', { input: 900 })])), {
    tokens: 900,
    model: 'gemini-2.5-pro',
  });
  // the newest copy of a message counts; one whose tokens are not in yet is passed over
  assert.deepEqual(lastPromptOf(file('b', [HEAD, gemini('m1', { input: 10 }), gemini('m2', null)])), { tokens: 10, model: 'gemini-2.5-pro' });
  // a history replaced whole ({$set: {messages}}: a compression, a resumed session)
  assert.deepEqual(lastPromptOf(file('c', [HEAD, gemini('m1', { input: 10 }), { $set: { messages: [gemini('m1', { input: 7 }, 'gemma-4-31b-it')] } }])), {
    tokens: 7,
    model: 'gemma-4-31b-it',
  });
  // a replaced history whose messages carry no count: what the older lines said is not this prompt's
  assert.equal(
    lastPromptOf(
      file('c2', [HEAD, gemini('m1', { input: 700_000 }), { $set: { messages: [{ id: 'u', type: 'user', content: 'summary' }, gemini('m2', null)] } }]),
    ),
    null,
  );
  // one with no model message yet (Gemini sets the first prompt's history so): nothing sent that could be compressed
  assert.deepEqual(lastPromptOf(file('c4', [HEAD, gemini('m1', { input: 700_000 }), { $set: { messages: [{ id: 'u', type: 'user', content: 'q' }] } }])), {
    tokens: 0,
    model: null,
  });
  // a metadata update ({$set} without messages) is passed over
  assert.deepEqual(lastPromptOf(file('c3', [HEAD, gemini('m1', { input: 10 }), { $set: { lastUpdated: 't2' } }])), { tokens: 10, model: 'gemini-2.5-pro' });
  // no model message yet: nothing sent that could be compressed
  assert.deepEqual(lastPromptOf(file('d', [HEAD, { id: 'u', type: 'user', content: 'q' }])), { tokens: 0, model: null });
});

test("the session file of a real Gemini CLI 0.61.0 session: the start's replaced history holds no answer; the last answer's count", () => {
  const real = readFileSync(new URL('../fixtures/transcripts/gemini-0.61.0.jsonl', import.meta.url), 'utf8').split('\n');
  // the header, the history Gemini sets for the first prompt ({$set: {messages}}), the prompt: before the first model call
  assert.deepEqual(lastPromptOf(file('real-start', [], `${real.slice(0, 3).join('\n')}\n`)), { tokens: 0, model: null });
  assert.deepEqual(lastPromptOf(file('real', [], real.join('\n'))), { tokens: 100, model: 'gemini-3.8-flash' });
});

test('what a session file cannot tell is null: no file, model messages without token counts, a tail with none', () => {
  assert.equal(lastPromptOf(join(dir, 'missing.jsonl')), null);
  assert.equal(lastPromptOf(file('e', [HEAD, gemini('m1', null), gemini('m2', { input: 'many' })])), null);
  // past the megabyte read, a model message could be before the part read: unknown, not "none"
  const filler = `${JSON.stringify({ id: 'u', type: 'user', content: 'y'.repeat(1 << 20) })}\n`;
  assert.equal(lastPromptOf(file('f', [{ id: 'u2', type: 'user', content: 'q' }], `${JSON.stringify(HEAD)}\n${filler}`)), null);
  // and a model message in the part read still counts, its cut first line skipped
  assert.deepEqual(lastPromptOf(file('g', [gemini('m9', { input: 42 })], `${JSON.stringify(HEAD)}\n${filler}`)), { tokens: 42, model: 'gemini-2.5-pro' });
});

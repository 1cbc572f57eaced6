// The gist of a session transcript (the first request, the last request, the agent's last words)
// for each client axme reads: what a recovered handoff says the session was asked. The samples
// captured from the real Gemini CLI and Codex are read as they are.

import assert from 'node:assert/strict';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { transcriptGist } from '../../src/transcript/gist.ts';
import { codex, codexMeta, gemini, geminiUser, item } from './client-lines.ts';
import { fixtureLines, tempDir, writeFixture } from './fixture.ts';

const GEMINI = resolve(import.meta.dirname, '../fixtures/transcripts/gemini-0.61.0.jsonl');
const CODEX = resolve(import.meta.dirname, '../fixtures/transcripts/codex-0.169.0.jsonl');

let tmp: ReturnType<typeof tempDir>;
before(() => (tmp = tempDir()));
after(() => tmp.remove());

let n = 0;
/** A transcript of `lines`, each ending in a newline. */
function file(lines: unknown[]): string {
  const path = join(tmp.dir, `g${n++}.jsonl`);
  writeFileSync(path, lines.map((l) => `${typeof l === 'string' ? l : JSON.stringify(l)}\n`).join(''));
  return path;
}
const three = (g: Awaited<ReturnType<typeof transcriptGist>>) => [g?.firstPrompt, g?.lastPrompt, g?.lastReply];

describe('the gist of a transcript', () => {
  test('Claude Code: prompts and prose; no tool results, injected lines, compaction summaries, sidechains, nor a line still being written', async () => {
    const path = writeFixture(tmp.dir);
    const want = ['Fix the failing date test — «é» 🎉', 'Fix the failing date test — «é» 🎉', 'Tests pass; the timezone bug is fixed.'];
    assert.deepEqual(three(await transcriptGist(path, 'claude-code')), want);
    assert.deepEqual(three(await transcriptGist(path)), want, 'told from the first line');
    appendFileSync(path, `${fixtureLines().rest}\n`);
    assert.equal((await transcriptGist(path, 'claude-code'))?.lastPrompt, 'Now commit it', 'the line once it is whole');
  });

  test('Gemini CLI (the real client\u2019s sample): the prompt without the injected context, the newest copy of the reply', async () => {
    const want = ['What does the README say?', 'What does the README say?', 'The README says: demo.'];
    assert.deepEqual(three(await transcriptGist(GEMINI, 'gemini')), want);
    assert.deepEqual(three(await transcriptGist(GEMINI, null)), want, 'told from the first line');
  });

  test('Codex (the real client\u2019s sample): the user\u2019s prompt, not AGENTS.md or the environment Codex sends as user messages', async () => {
    const want = ['Record the storage decision and write the notes.', 'Record the storage decision and write the notes.', 'Saved D-001 and wrote the notes.'];
    assert.deepEqual(three(await transcriptGist(CODEX, 'codex')), want);
    assert.deepEqual(three(await transcriptGist(CODEX)), want, 'told from the first line');
  });

  test('the client given is the format read: a Claude Code file read as a Codex rollout says nothing', async () => {
    assert.equal(await transcriptGist(writeFixture(tmp.dir), 'codex'), null);
  });

  test('table: nothing to say is null; tool traffic, meta entries and slash commands are no request', async () => {
    const u = (content: unknown, extra = {}) => ({ type: 'user', message: { role: 'user', content }, ...extra });
    const a = (t: string) => ({
      type: 'assistant',
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: t },
          { type: 'tool_use', id: 'x', name: 'Bash', input: {} },
        ],
      },
    });
    const cases: Array<[string, string | null, [string | null, string | null, string | null] | null]> = [
      ['no path', null, null],
      ['missing file', join(tmp.dir, 'nope.jsonl'), null],
      ['empty file', file([]), null],
      ['not JSON at all', file(['garbage', '{{{']), null],
      [
        'a line without its newline is still being written',
        (() => {
          const p = file([]);
          writeFileSync(p, JSON.stringify(u('half')));
          return p;
        })(),
        null,
      ],
      ['one prompt', file([u('fix the build')]), ['fix the build', 'fix the build', null]],
      [
        'tool results are not prompts',
        file([u('first'), a('on it'), u([{ type: 'tool_result', tool_use_id: 'x', content: 'done' }])]),
        ['first', 'first', 'on it'],
      ],
      [
        'text blocks are joined',
        file([
          u([
            { type: 'text', text: 'part one' },
            { type: 'text', text: 'part two' },
          ]),
        ]),
        ['part one\npart two', 'part one\npart two', null],
      ],
      [
        'meta entries and slash commands are skipped',
        file([u('real'), u('<command-name>/clear</command-name>'), u('<system-reminder>x</system-reminder>'), u('injected', { isMeta: true })]),
        ['real', 'real', null],
      ],
      [
        'a broken line in the middle is skipped',
        file(['{"type":"user","message":{"role":"user","content":"a"}}', '{"type":"us', '{"type":"user","message":{"role":"user","content":"b"}}']),
        ['a', 'b', null],
      ],
    ];
    for (const [name, path, want] of cases) {
      const g = await transcriptGist(path, path === null ? null : 'claude-code');
      if (!want) assert.equal(g, null, name);
      else assert.deepEqual(three(g), want, name);
    }
  });

  test('texts are redacted, then cut to 600 characters', async () => {
    const u = (content: string) => ({ type: 'user', message: { role: 'user', content } });
    // a credential that straddles the cut is redacted first, not cut into an unrecognisable half
    const g = await transcriptGist(file([u(`${'x'.repeat(570)} ghp_abcdefghijklmnopqrstuvwxyz0123456789 tail`)]));
    assert.doesNotMatch(g!.lastPrompt!, /ghp_abc/);
    assert.ok(g!.lastPrompt!.length <= 600);
    const gem = await transcriptGist(
      file([
        gemini.meta('s'),
        gemini.user('u', [{ text: 'deploy with token=ghp_abcdefghijklmnopqrstuvwxyz0123456789' }]),
        gemini.model('m', { content: 'y'.repeat(5000) }),
        gemini.touched(),
      ]),
    );
    assert.doesNotMatch(gem!.firstPrompt!, /ghp_abc/);
    assert.equal(gem!.lastReply!.length, 600);
  });
});

describe('the gist of a large transcript: its head and its tail only', () => {
  const filler = 'x'.repeat(1000);

  test('Claude Code', async () => {
    const u = (content: string) => ({ type: 'user', message: { role: 'user', content } });
    const a = (t: string) => ({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: t }] } });
    const g = await transcriptGist(file([u('the very first'), ...Array.from({ length: 5000 }, () => a(filler)), u('the very last'), a('done')]));
    assert.deepEqual(three(g), ['the very first', 'the very last', 'done']);
  });

  test('Codex', async () => {
    const path = file([
      codexMeta('c-big'),
      codex('response_item', item.message('user', '# AGENTS.md instructions for /home/ann/app\n\n<INSTRUCTIONS>\nUse axme.\n</INSTRUCTIONS>')),
      codex('response_item', item.message('user', 'the very first')),
      ...Array.from({ length: 5000 }, (_, i) => codex('response_item', item.output(`call_${i}`, filler))),
      codex('response_item', item.message('user', '<environment_context>\n  <cwd>/home/ann/app</cwd>\n</environment_context>')),
      codex('response_item', item.message('user', 'the very last')),
      codex('response_item', item.message('assistant', 'done')),
    ]);
    assert.deepEqual(three(await transcriptGist(path, 'codex')), ['the very first', 'the very last', 'done']);
  });

  test('Gemini CLI: the first prompt from the head, the last from the tail, not what a hook added to it', async () => {
    const path = file([
      gemini.meta('g-big'),
      gemini.set({ messages: [geminiUser('ctx', [{ text: '<session_context>\nThis is the Gemini CLI.\n</session_context>' }])] }),
      gemini.user('u-first', [{ text: 'the very first' }]),
      ...Array.from({ length: 5000 }, (_, i) => gemini.model(`m-${i}`, { content: filler })),
      gemini.user('u-last', [{ text: '<hook_context>Project knowledge</hook_context>\n\nthe very last' }]),
      gemini.model('m-last', { content: 'done' }),
      gemini.touched(),
    ]);
    assert.deepEqual(three(await transcriptGist(path, 'gemini')), ['the very first', 'the very last', 'done']);
  });

  test('Gemini CLI: a reply rewritten across the tail\u2019s start is read as its newest copy', async () => {
    const calls = (k: number) => Array.from({ length: k }, (_, i) => gemini.call(`c-${i}`, 'read_file', { file_path: `f${i}` }, filler));
    const path = file([
      gemini.meta('g-long'),
      gemini.user('u-1', [{ text: 'read every file' }]),
      gemini.model('m-1', { content: '' }),
      // the client appends the whole message again with each tool call: 3 MB of copies
      ...Array.from({ length: 75 }, (_, k) => gemini.model('m-1', { content: '', toolCalls: calls(k + 1) })),
      gemini.model('m-1', { content: 'Read all 75 files.', toolCalls: calls(75) }),
      gemini.touched(),
    ]);
    const g = await transcriptGist(path, 'gemini');
    assert.equal(g?.firstPrompt, 'read every file');
    assert.equal(g?.lastReply, 'Read all 75 files.');
  });
});

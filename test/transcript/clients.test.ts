// The readers of Gemini CLI and Codex transcripts beside Claude Code's: what each file's records
// become, what is skipped and counted, resuming from an offset, and telling the client from the
// first line. The lines are shaped like the real clients' (client-lines.ts); the samples captured
// from the real clients (test/fixtures/transcripts/) are read too when they are there.

import assert from 'node:assert/strict';
import { appendFileSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readerFor, sniffTranscript } from '../../src/transcript/clients.ts';
import { readTranscript } from '../../src/transcript/read-transcript.ts';
import { renderTranscript } from '../../src/transcript/render.ts';
import type { TranscriptClient, TranscriptEntry } from '../../src/transcript/types.ts';
import { codex, codexMeta, codexSession, gemini, geminiSession, geminiUser, item } from './client-lines.ts';
import { tempDir, writeFixture } from './fixture.ts';

let tmp: ReturnType<typeof tempDir>;
before(() => (tmp = tempDir()));
after(() => tmp.remove());

let n = 0;
function file(lines: string[], tail = '\n'): string {
  const path = join(tmp.dir, `t${n++}.jsonl`);
  writeFileSync(path, lines.join('\n') + tail);
  return path;
}
const read = (client: TranscriptClient, path: string, from = 0) => readTranscript({ path, from, reader: readerFor(client) });
const texts = (e: TranscriptEntry) =>
  e.blocks.map((b) =>
    b.type === 'text' || b.type === 'thinking' ? b.text : b.type === 'tool_use' ? `tool:${b.name}` : b.type === 'tool_result' ? `result:${b.content}` : b.type,
  );

describe('Gemini CLI session files', () => {
  test('each message once, as its newest copy; tool calls with their results; the echoed responses add nothing', async () => {
    const r = await read('gemini', file(geminiSession()));
    assert.deepEqual(
      r.main.map((e) => [e.role, e.uuid, e.meta]),
      [
        ['user', 'ctx-1', true],
        ['user', 'u-1', false],
        ['assistant', 'g-1', false],
        ['assistant', 'g-2', false],
        ['assistant', 'g-3', false],
      ],
    );
    const [, prompt, g1, g2, g3] = r.main as TranscriptEntry[];
    assert.deepEqual(texts(prompt!), ['Fix the failing date test. We always use UTC in this repo.']);
    assert.deepEqual(texts(g1!), [
      'Checking: The test runs in UTC on CI.',
      'tool:run_shell_command',
      'result:Output: 1 failed: expected 10, got 11\nExit Code: 1',
    ]);
    assert.deepEqual(g1!.blocks[2], {
      type: 'tool_result',
      tool_use_id: 'run_shell_command_1',
      content: 'Output: 1 failed: expected 10, got 11\nExit Code: 1',
      is_error: true,
    });
    assert.deepEqual(g1!.blocks[1], { type: 'tool_use', id: 'run_shell_command_1', name: 'run_shell_command', input: { command: 'npm test' } });
    assert.deepEqual(texts(g2!), ['tool:read_file', 'result:export const hours = (d) => d.getHours();']);
    assert.deepEqual(texts(g3!), ['Fixed: getUTCHours everywhere. Decided to keep all dates in UTC.']);
    assert.equal(r.stats.entries, 5);
    assert.equal(r.stats.malformed, 0);
    assert.equal(r.stats.skipped_types.session, 1);
    // the rewritten copy of g-1 spans both of its lines
    const lines = geminiSession().map((l) => Buffer.byteLength(l) + 1);
    assert.equal(
      g1!.offset,
      lines.slice(0, 4).reduce((a, b) => a + b, 0),
    );
    assert.equal(
      g1!.end_offset,
      lines.slice(0, 7).reduce((a, b) => a + b, 0),
    );
    const rendered = (await renderTranscript({ entries: r.main })).chunks[0]!.text;
    assert.equal(rendered.split('1 failed: expected 10').length - 1, 1, 'each tool result is shown once');
    assert.doesNotMatch(rendered, /session_context/, 'the injected environment is left out');
    assert.match(rendered, /<tool_result name="run_shell_command" error="true">/);
  });

  test("a hook's context is not the user speaking; a record of nothing else is injected (meta)", async () => {
    const r = await read(
      'gemini',
      file([
        gemini.meta('s-hook'),
        gemini.user('u-1', [{ text: '<hook_context>axme: 3 decisions, 2 memories</hook_context>\n\nAdd a retry to the client' }]),
        gemini.user('u-2', [{ text: 'And a timeout' }, { text: '<hook_context>reminder from a hook</hook_context>' }]),
        gemini.user('u-3', [{ text: '<hook_context>only context</hook_context>' }]),
        gemini.user('u-4', [{ text: 'expanded @README.md content…' }], { displayContent: [{ text: 'look at @README.md' }] }),
      ]),
    );
    assert.deepEqual(
      r.main.map((e) => [texts(e), e.meta]),
      [
        [['Add a retry to the client'], false],
        [['And a timeout'], false],
        [['<hook_context>only context</hook_context>'], true],
        [['look at @README.md'], false],
      ],
    );
  });

  test('a compression replacing the history: a compaction, and the new user message is its summary; a rewind is said', async () => {
    const r = await read(
      'gemini',
      file([
        gemini.meta('s-compress'),
        gemini.user('u-1', [{ text: 'first prompt' }]),
        gemini.model('g-1', { content: 'first answer' }),
        gemini.set({
          messages: [
            geminiUser('sum-1', [{ text: '<state_snapshot>the user fixed dates</state_snapshot>' }]),
            { id: 'g-ack', type: 'gemini', content: 'Got it.' },
          ],
        }),
        gemini.user('u-2', [{ text: 'second prompt' }]),
        gemini.rewind('u-2'),
        gemini.user('u-3', [{ text: 'second prompt, again' }]),
      ]),
    );
    assert.deepEqual(
      r.main.map((e) => [e.role, e.uuid, e.compact_boundary, e.compact_summary, e.subtype]),
      [
        ['user', 'u-1', false, false, null],
        ['assistant', 'g-1', false, false, null],
        ['system', null, true, false, 'compact_boundary'],
        ['user', 'sum-1', false, true, null],
        ['assistant', 'g-ack', false, false, null],
        ['user', 'u-2', false, false, null],
        ['system', null, false, false, 'rewind'],
        ['user', 'u-3', false, false, null],
      ],
    );
  });

  test('resumed from end_offset: only what is new, even when the client rewrites the whole history; the partial last line waits', async () => {
    const lines = geminiSession('s-resume');
    const path = file(lines);
    const first = await read('gemini', path);
    assert.equal(first.end_offset, statSync(path).size);
    // a resumed session: the history written again whole, a copy of the last message, then a new turn
    const history = [
      geminiUser('ctx-1', [{ text: 'ctx' }]),
      geminiUser('u-1', [{ text: 'Fix the failing date test.' }]),
      { id: 'g-3', type: 'gemini', content: 'Fixed.' },
    ];
    const next = gemini.user('u-9', [{ text: 'NEW: now add a changelog entry' }]);
    appendFileSync(
      path,
      [
        gemini.set({ sessionId: 's-resume' }),
        gemini.set({ messages: history }),
        gemini.model('g-3', { content: 'Fixed, again' }),
        next,
        gemini.model('g-9', { content: 'Added.' }),
      ].join('\n') + '\n',
    );
    appendFileSync(path, gemini.user('u-10', [{ text: 'half written' }]).slice(0, 20));
    const second = await read('gemini', path, first.end_offset);
    assert.deepEqual(
      second.main.map((e) => e.uuid),
      ['u-9', 'g-9'],
    );
    assert.deepEqual(texts(second.main[0]!), ['NEW: now add a changelog entry']);
    assert.equal(second.stats.skipped_types['message-update'], 1);
    assert.equal(second.stats.partial_bytes, 20);
    // the same bytes read from the start hold everything once
    const whole = await read('gemini', path);
    assert.deepEqual(
      whole.main.map((e) => e.uuid),
      ['ctx-1', 'u-1', 'g-1', 'g-2', 'g-3', 'u-9', 'g-9'],
    );
  });

  test("a subagent's file is sidechain; lines that are no record are counted", async () => {
    const r = await read(
      'gemini',
      file([gemini.meta('s-sub', 'subagent'), gemini.user('u-1', [{ text: 'explore' }]), '{"not": "a record"}', 'not json', '[1]']),
    );
    assert.equal(r.main.length, 0);
    assert.deepEqual(
      r.sidechain.map((e) => e.uuid),
      ['u-1'],
    );
    assert.equal(r.stats.malformed, 2);
    assert.equal(r.stats.skipped_types['(none)'], 1);
  });
});

describe('Codex rollouts', () => {
  test('the conversation from the response items; instructions and environment are injected; events counted, not shown', async () => {
    const r = await read('codex', file(codexSession()));
    assert.deepEqual(
      r.main.map((e) => [e.role, e.meta, texts(e)]),
      [
        ['system', true, ['<permissions instructions>Filesystem sandboxing: danger-full-access.</permissions instructions>']],
        ['user', true, ['<environment_context>\n  <cwd>/home/ann/app</cwd>\n  <shell>bash</shell>\n</environment_context>']],
        ['user', false, ['Fix the failing date test. We always use UTC in this repo.']],
        ['assistant', false, ['Looking at the date helpers first.']],
        ['assistant', false, ['tool:exec_command']],
        ['user', false, ['result:Chunk ID: 0477e0\nWall time: 0.4 seconds\nProcess exited with code 1\nOutput:\n1 failed: expected 10, got 11\n']],
        ['assistant', false, ['tool:apply_patch']],
        ['user', false, ['result:Success. Updated the following files:\nM src/date.ts']],
        ['assistant', false, ['Fixed: getUTCHours everywhere. Decided to keep all dates in UTC.']],
      ],
    );
    assert.deepEqual(r.main[3]!.blocks, [{ type: 'thinking', text: 'Looking at the date helpers first.' }]);
    assert.deepEqual(r.main[4]!.blocks, [{ type: 'tool_use', id: 'call_1', name: 'exec_command', input: { cmd: 'npm test' } }]);
    assert.deepEqual(r.main[6]!.blocks[0], {
      type: 'tool_use',
      id: 'call_2',
      name: 'apply_patch',
      input: { input: '*** Begin Patch\n*** Update File: src/date.ts\n-getHours()\n+getUTCHours()\n*** End Patch\n' },
    });
    assert.deepEqual(r.stats.skipped_types, {
      session_meta: 1,
      'event_msg:task_started': 1,
      world_state: 1,
      turn_context: 1,
      'event_msg:item_completed': 1,
      token_usage_record: 1,
      'event_msg:token_count': 1,
      'event_msg:task_complete': 1,
    });
    assert.equal(r.stats.malformed, 0);
    const rendered = (await renderTranscript({ entries: r.main })).chunks[0]!.text;
    assert.match(rendered, /<tool name="exec_command">cmd: npm test<\/tool>\n<tool_result name="exec_command">/);
    assert.doesNotMatch(rendered, /environment_context|permissions instructions/);
  });

  test('a compaction, an interrupted turn, a rollback, a failed call; output as content items', async () => {
    const r = await read(
      'codex',
      file([
        codexMeta(),
        codex('response_item', item.message('user', 'first')),
        codex('compacted', { message: 'Summary: the dates are UTC now.', replacement_history: [] }),
        codex('event_msg', { type: 'context_compacted' }),
        codex('event_msg', { type: 'turn_aborted', reason: 'interrupted', turn_id: 't' }),
        codex('event_msg', { type: 'thread_rolled_back', num_turns: 2 }),
        codex('response_item', item.call('c1', 'mcp_tool', { q: 1 })),
        codex('response_item', item.output('c1', { content: 'boom', success: false })),
        codex(
          'response_item',
          item.output('c2', [
            { type: 'input_text', text: 'line one' },
            { type: 'input_image', image_url: 'data:...' },
          ]),
        ),
        codex('response_item', { type: 'ghost_snapshot', ghost_commit: {} }),
        codex('response_item', { type: 'reasoning', summary: [], encrypted_content: 'opaque' }),
      ]),
    );
    assert.deepEqual(
      r.main.map((e) => [e.role, e.subtype, e.compact_boundary, e.compact_summary]),
      [
        ['user', null, false, false],
        ['system', 'compact_boundary', true, false],
        ['user', null, false, true],
        ['system', 'turn_aborted', false, false],
        ['system', 'rollback', false, false],
        ['assistant', null, false, false],
        ['user', null, false, false],
        ['user', null, false, false],
      ],
    );
    assert.deepEqual(r.main[6]!.blocks, [{ type: 'tool_result', tool_use_id: 'c1', content: 'boom', is_error: true }]);
    assert.deepEqual(r.main[7]!.blocks, [{ type: 'tool_result', tool_use_id: 'c2', content: 'line one\n[image]', is_error: false }]);
    assert.equal(r.stats.skipped_types['response_item:ghost_snapshot'], 1);
    assert.equal(r.stats.skipped_types['response_item:reasoning'], 1, 'encrypted reasoning only: nothing to show');
  });

  test("resumed from end_offset: only the new lines; a subagent's rollout stays sidechain from any offset", async () => {
    const path = file(codexSession());
    const first = await read('codex', path);
    appendFileSync(path, `${codex('response_item', item.message('user', 'NEW: add a changelog entry'))}\n`);
    const second = await read('codex', path, first.end_offset);
    assert.deepEqual(second.main.map(texts), [['NEW: add a changelog entry']]);
    const sub = file([
      codexMeta('sub-1', { source: { subagent: { thread_spawn: { parent_thread_id: 'p', depth: 1 } } }, agent_role: 'explorer' }),
      codex('response_item', item.message('user', 'explore')),
    ]);
    const s1 = await read('codex', sub);
    assert.equal(s1.main.length, 0);
    assert.equal(s1.sidechain.length, 1);
    appendFileSync(sub, `${codex('response_item', item.message('assistant', 'found it'))}\n`);
    const s2 = await read('codex', sub, s1.end_offset);
    assert.deepEqual(s2.sidechain.map(texts), [['found it']]);
    assert.equal(s2.main.length, 0);
  });
});

describe('which client wrote a transcript', () => {
  test('told from the first line, with the client\u2019s session id where it names it', async () => {
    assert.deepEqual(await sniffTranscript(writeFixture(tmp.dir)), { client: 'claude-code', harness_session_id: null });
    assert.deepEqual(await sniffTranscript(file(geminiSession('g-sess'))), { client: 'gemini', harness_session_id: 'g-sess' });
    assert.deepEqual(await sniffTranscript(file(codexSession('c-sess'))), { client: 'codex', harness_session_id: 'c-sess' });
    assert.deepEqual(await sniffTranscript(file(['', JSON.stringify({ type: 'user', uuid: 'u', sessionId: 'cc-1', message: { content: 'x' } })])), {
      client: 'claude-code',
      harness_session_id: 'cc-1',
    });
    assert.equal(await sniffTranscript(file([JSON.stringify({ event: 'something else' })])), null);
    assert.equal(await sniffTranscript(file(['plain text, not JSON'])), null);
    assert.equal(await sniffTranscript(file([], '')), null, 'empty');
  });
});

/** Transcripts others captured from the real clients, when they are there. */
const REAL: Array<[TranscriptClient, string]> = [
  ['gemini', resolve(import.meta.dirname, '../fixtures/transcripts/gemini-0.61.0.jsonl')],
  ['codex', resolve(import.meta.dirname, '../fixtures/transcripts/codex-0.169.0.jsonl')],
];

describe('samples captured from the real clients', () => {
  for (const [client, path] of REAL) {
    test(`${client}: ${path.split('/').pop()} is told apart and read`, { skip: !existsSync(path) && 'not captured yet' }, async () => {
      assert.equal((await sniffTranscript(path))?.client, client);
      const r = await read(client, path);
      assert.ok(
        r.main.some((e) => e.role === 'user' && !e.meta),
        'a prompt',
      );
      assert.ok(
        r.main.some((e) => e.role === 'assistant'),
        'an answer',
      );
      assert.equal(r.stats.malformed, 0);
      for (const e of r.main.filter((x) => x.role === 'user' && !x.meta)) {
        for (const t of texts(e))
          assert.doesNotMatch(
            t,
            /^\s*<(hook_context|session_context|environment_context|permissions instructions)>/,
            'what the client injected is not the user speaking',
          );
      }
      const rendered = await renderTranscript({ entries: r.main });
      assert.ok(rendered.chunks.length >= 1);
    });
  }
});

// The streaming reader of Claude Code transcripts (issue 23, "Transcripts"): typed entries, what is
// skipped and counted, sidechains apart, resume offsets, a bounded buffer on a large file.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { appendFileSync, createWriteStream, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { isAxmeError } from '../../src/model/errors.ts';
import { claudeCodeReader, readClaudeCode } from '../../src/transcript/claude-code.ts';
import { readTranscript } from '../../src/transcript/read-transcript.ts';
import type { TranscriptEntry } from '../../src/transcript/types.ts';
import { assistantLine, fixtureLines, tempDir, toolResult, toolUse, userLine, writeFixture } from './fixture.ts';

let tmp: ReturnType<typeof tempDir>;
before(() => (tmp = tempDir()));
after(() => tmp.remove());

describe('reading a Claude Code transcript', () => {
  test('user, assistant and system entries with their blocks, in file order', async () => {
    const path = writeFixture(tmp.dir);
    const read = await readTranscript({ path });
    assert.deepEqual(
      read.main.map((e) => e.uuid),
      ['u1', 'a1', 'u2', 'a2', 'u3', 'u3b', 'c1', 'u4', 'm1', 'a3'],
    );
    const [u1, a1, u2, a2, u3] = read.main as [TranscriptEntry, TranscriptEntry, TranscriptEntry, TranscriptEntry, TranscriptEntry];
    assert.deepEqual(u1.blocks, [{ type: 'text', text: 'Fix the failing date test — «é» 🎉' }]);
    assert.equal(u1.role, 'user');
    assert.equal(u1.parent_uuid, null);
    assert.equal(a1.role, 'assistant');
    assert.deepEqual(a1.blocks[1], {
      type: 'tool_use',
      id: 'toolu_01E',
      name: 'Edit',
      input: { file_path: '/home/ann/app/src/date.ts', old_string: 'getHours()', new_string: 'getUTCHours()' },
    });
    assert.deepEqual(u2.blocks, [
      { type: 'tool_result', tool_use_id: 'toolu_01E', content: 'The file /home/ann/app/src/date.ts has been updated.', is_error: false },
    ]);
    assert.deepEqual(a2.blocks[0], { type: 'thinking', text: 'The test runs in UTC on CI.' });
    assert.equal(a2.blocks.filter((b) => b.type === 'tool_use').length, 2, 'parallel tool calls in one line');
    // a result given as text blocks, flagged as an error
    assert.deepEqual(u3.blocks, [{ type: 'tool_result', tool_use_id: 'toolu_01B', content: '1 failed: expected 10, got 11', is_error: true }]);
  });

  test('compaction: the boundary and the summary are flagged; injected lines are marked meta', async () => {
    const read = await readTranscript({ path: writeFixture(tmp.dir) });
    const boundary = read.main.find((e) => e.uuid === 'c1')!;
    assert.equal(boundary.role, 'system');
    assert.equal(boundary.subtype, 'compact_boundary');
    assert.equal(boundary.compact_boundary, true);
    assert.equal(boundary.compact_trigger, 'auto');
    const summary = read.main.find((e) => e.uuid === 'u4')!;
    assert.equal(summary.compact_summary, true);
    assert.equal(read.main.filter((e) => e.compact_summary).length, 1);
    assert.equal(read.main.find((e) => e.uuid === 'm1')!.meta, true);
  });

  test('sidechain (subagent) entries are kept apart, never in the main conversation', async () => {
    const read = await readTranscript({ path: writeFixture(tmp.dir) });
    assert.deepEqual(
      read.sidechain.map((e) => e.uuid),
      ['s-u1', 's-a1'],
    );
    assert.ok(read.sidechain.every((e) => e.sidechain));
    assert.ok(read.main.every((e) => !e.sidechain));
    assert.ok(!JSON.stringify(read.main).includes('SIDECHAIN'));
    assert.equal(read.stats.sidechain_entries, 2);
  });

  test('unknown types and malformed lines are skipped and counted; the partial last line is left', async () => {
    const { complete, partial } = fixtureLines();
    const read = await readTranscript({ path: writeFixture(tmp.dir) });
    assert.equal(read.stats.lines, complete.length);
    assert.equal(read.stats.entries, 12);
    assert.equal(read.stats.skipped_unknown, 2);
    assert.deepEqual(read.stats.skipped_types, { summary: 1, 'file-history-snapshot': 1 });
    assert.equal(read.stats.malformed, 1);
    assert.equal(read.stats.partial_bytes, Buffer.byteLength(partial));
    assert.equal(read.end_offset, Buffer.byteLength(complete.map((l) => `${l}\n`).join('')));
  });

  test('lines that are JSON but not entries count as malformed; unknown blocks are counted', async () => {
    const path = join(tmp.dir, 'odd.jsonl');
    const lines = ['[1,2]', 'null', '"text"', JSON.stringify({ type: 'user' }), JSON.stringify({ type: 'assistant', message: { content: 7 } }), '', '   '];
    lines.push(assistantLine('a9', null, [{ type: 'redacted_thinking', data: 'x' }, { type: 'text', text: 'ok' }, { type: 'server_tool_use' }]));
    writeFileSync(path, lines.join('\n') + '\n');
    const read = await readTranscript({ path });
    assert.equal(read.stats.malformed, 5);
    assert.equal(read.stats.lines, 6, 'blank lines are not counted');
    assert.equal(read.stats.skipped_blocks, 2);
    assert.deepEqual(read.main[0]!.blocks, [{ type: 'text', text: 'ok' }]);
  });

  test('resuming from end_offset reads only the new lines, the once-partial line whole', async () => {
    const { rest } = fixtureLines();
    const path = writeFixture(tmp.dir);
    const first = await readTranscript({ path });
    appendFileSync(path, `${rest}\n${assistantLine('a4', 'u5', [{ type: 'text', text: 'Committed.' }])}\n`);
    const second = await readTranscript({ path, from: first.end_offset });
    assert.deepEqual(
      second.main.map((e) => e.uuid),
      ['u5', 'a4'],
    );
    assert.deepEqual(second.main[0]!.blocks, [{ type: 'text', text: 'Now commit it' }]);
    assert.equal(second.stats.lines, 2);
    assert.equal(second.stats.malformed, 0);
    assert.equal(second.main[0]!.offset, first.end_offset);
    assert.equal(second.end_offset, statSync(path).size);
    // nothing new: nothing read
    const third = await readTranscript({ path, from: second.end_offset });
    assert.equal(third.stats.lines, 0);
    assert.equal(third.end_offset, second.end_offset);
  });

  test('tiny chunks give the same entries: lines and UTF-8 characters split across reads', async () => {
    const path = writeFixture(tmp.dir);
    const whole = await readTranscript({ path });
    for (const chunkBytes of [1, 7, 100]) {
      const small = await readTranscript({ path, chunkBytes });
      assert.deepEqual(small.main, whole.main, `chunkBytes ${chunkBytes}`);
      assert.deepEqual({ ...small.stats, max_buffer_bytes: 0 }, { ...whole.stats, max_buffer_bytes: 0 });
      assert.equal(small.end_offset, whole.end_offset);
    }
  });

  test('a line longer than the limit is skipped without being held, and counted', async () => {
    const path = join(tmp.dir, 'long.jsonl');
    const huge = userLine('big', null, [toolResult('toolu_X', 'x'.repeat(200_000))]);
    writeFileSync(path, [userLine('u1', null, 'before'), huge, userLine('u2', 'u1', 'after')].join('\n') + '\n');
    const stream = readClaudeCode({ path, maxLineBytes: 50_000, chunkBytes: 4096 });
    const uuids: Array<string | null> = [];
    for await (const e of stream) uuids.push(e.uuid);
    assert.deepEqual(uuids, ['u1', 'u2']);
    assert.equal(stream.stats.oversized, 1);
    assert.ok(stream.stats.max_buffer_bytes <= 4096 + 50_000, `held ${stream.stats.max_buffer_bytes}`);
    assert.equal(stream.end_offset, statSync(path).size);
  });

  test('errors: a missing file, an offset past the end, a bad offset, a second iteration', async () => {
    await assert.rejects(readTranscript({ path: join(tmp.dir, 'nope.jsonl') }), (e) => isAxmeError(e, 'NOT_FOUND'));
    const path = writeFixture(tmp.dir);
    await assert.rejects(readTranscript({ path, from: statSync(path).size + 10 }), (e) => isAxmeError(e, 'WRONG_STATE'));
    assert.throws(
      () => claudeCodeReader.read({ path, from: -1 }),
      (e) => isAxmeError(e, 'INVALID_INPUT'),
    );
    assert.throws(
      () => claudeCodeReader.read({ path, chunkBytes: 0 }),
      (e) => isAxmeError(e, 'INVALID_INPUT'),
    );
    const stream = claudeCodeReader.read({ path });
    for await (const _ of stream) void _;
    await assert.rejects(
      async () => {
        for await (const _ of stream) void _;
      },
      (e) => isAxmeError(e, 'WRONG_STATE'),
    );
  });

  test('a 50 MB transcript streams with a buffer under 1 MB', async () => {
    const path = join(tmp.dir, 'large.jsonl');
    const out = createWriteStream(path);
    let bytes = 0;
    let expected = 0;
    const output = 'line of tool output\n'.repeat(15_000); // a 300 KB tool result every few turns
    for (let i = 0; bytes < 50 * 1024 * 1024; i++) {
      const lines = [
        userLine(`u${i}`, null, `prompt ${i}: ${'please look at the code '.repeat(20)}`),
        assistantLine(`a${i}`, `u${i}`, [{ type: 'text', text: 'Reading. '.repeat(100) }, toolUse(`t${i}`, 'Read', { file_path: `/src/f${i}.ts` })]),
        userLine(`r${i}`, `a${i}`, [toolResult(`t${i}`, i % 10 === 0 ? output : 'short output '.repeat(50))]),
      ];
      expected += lines.length;
      const text = lines.join('\n') + '\n';
      bytes += Buffer.byteLength(text);
      if (!out.write(text)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
    const stream = claudeCodeReader.read({ path });
    let entries = 0;
    for await (const _ of stream) entries++;
    assert.equal(entries, expected);
    assert.equal(stream.stats.malformed, 0);
    assert.equal(stream.end_offset, bytes);
    assert.ok(stream.stats.max_buffer_bytes > 300_000, 'the longest line was held whole');
    assert.ok(stream.stats.max_buffer_bytes < 1024 * 1024, `peak buffer ${stream.stats.max_buffer_bytes} bytes`);
  });
});

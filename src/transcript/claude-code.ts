import { AxmeError } from '../model/errors.ts';
import { claudeCodeLine } from './claude-code-line.ts';
import { readLines, type LineState } from './lines.ts';
import { emptyStats, type ReadTranscriptOptions, type TranscriptEntry, type TranscriptReader, type TranscriptStats, type TranscriptStream } from './types.ts';

const DEFAULT_MAX_LINE = 16 * 1024 * 1024;
const DEFAULT_CHUNK = 64 * 1024;

/**
 * Claude Code's session transcripts (JSONL, one object a line): user, assistant and system lines
 * in file order, sidechain lines flagged, everything else skipped and counted.
 */
export const claudeCodeReader: TranscriptReader = {
  client: 'claude-code',
  read: readClaudeCode,
};

/** Streams the entries of a Claude Code transcript from `from` (default 0), once; see `TranscriptReader`. */
export function readClaudeCode(options: ReadTranscriptOptions): TranscriptStream {
  const from = options.from ?? 0;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE;
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK;
  if (typeof options.path !== 'string' || !options.path) throw new AxmeError('INVALID_INPUT', 'path: name the transcript file to read', { field: 'path' });
  for (const [field, value] of [['from', from], ['maxLineBytes', maxLineBytes], ['chunkBytes', chunkBytes]] as const) {
    const min = field === 'from' ? 0 : 1;
    if (!Number.isSafeInteger(value) || value < min) throw new AxmeError('INVALID_INPUT', `${field}: give a whole number of bytes, at least ${min} (got ${value})`, { field, value });
  }
  const stats = emptyStats();
  const lines: LineState = { end_offset: from, oversized: 0, partial_bytes: 0, max_buffer_bytes: 0 };
  let started = false;
  async function* entries(): AsyncGenerator<TranscriptEntry> {
    if (started) throw new AxmeError('WRONG_STATE', 'a transcript stream is read once: call read() again (from its end_offset) for another pass');
    started = true;
    for await (const line of readLines({ path: options.path, from, maxLineBytes, chunkBytes, state: lines })) {
      const entry = claudeCodeLine(line.bytes.toString('utf8'), line, stats);
      if (entry) yield entry;
    }
  }
  return {
    [Symbol.asyncIterator]: entries,
    get stats(): TranscriptStats {
      return { ...stats, oversized: lines.oversized, partial_bytes: lines.partial_bytes, max_buffer_bytes: lines.max_buffer_bytes };
    },
    get end_offset(): number {
      return lines.end_offset;
    },
  };
}

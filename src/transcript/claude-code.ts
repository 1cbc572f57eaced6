import { claudeCodeLine } from './claude-code-line.ts';
import { readJsonl } from './jsonl-stream.ts';
import type { ReadTranscriptOptions, TranscriptReader, TranscriptStream } from './types.ts';

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
  return readJsonl(options, {
    line: (text, at, stats) => {
      const entry = claudeCodeLine(text, at, stats);
      return entry ? [entry] : [];
    },
  });
}

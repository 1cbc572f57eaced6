import { claudeCodeReader } from './claude-code.ts';
import type { ReadTranscriptOptions, TranscriptEntry, TranscriptReader, TranscriptStats } from './types.ts';

/** A whole read: the main conversation and the sidechains apart, in file order. */
export interface TranscriptRead {
  /** the conversation itself: no sidechain entry is ever here */
  main: TranscriptEntry[];
  /** subagents' and background entries (`isSidechain`), kept apart */
  sidechain: TranscriptEntry[];
  stats: TranscriptStats;
  /** where the next read starts */
  end_offset: number;
}

export interface ReadTranscriptAllOptions extends ReadTranscriptOptions {
  /** the client's reader; default Claude Code's */
  reader?: TranscriptReader;
}

/**
 * Reads a transcript from `from` into memory, main conversation and sidechains apart. For a
 * transcript of unknown size, iterate `reader.read()` instead and render as you go.
 */
export async function readTranscript(options: ReadTranscriptAllOptions): Promise<TranscriptRead> {
  const { reader = claudeCodeReader, ...read } = options;
  const stream = reader.read(read);
  const main: TranscriptEntry[] = [];
  const sidechain: TranscriptEntry[] = [];
  for await (const entry of stream) (entry.sidechain ? sidechain : main).push(entry);
  return { main, sidechain, stats: stream.stats, end_offset: stream.end_offset };
}

import { AxmeError } from '../model/errors.ts';
import { type LineState, readLines } from './lines.ts';
import { emptyStats, type ReadTranscriptOptions, type TranscriptEntry, type TranscriptStats, type TranscriptStream } from './types.ts';

const DEFAULT_MAX_LINE = 16 * 1024 * 1024;
const DEFAULT_CHUNK = 64 * 1024;

/** Where a line is in the file: its first byte, and the byte after its newline. */
export interface LineAt {
  offset: number;
  end_offset: number;
}

/** The bounds of one read, as a parser's `prepare` may use them to look at the bytes before `from`. */
export interface ReadBounds {
  path: string;
  from: number;
  maxLineBytes: number;
  chunkBytes: number;
}

/**
 * One client's JSONL format, for one read: each non-blank line in (its text, where it is, the
 * counts to update), the entries it makes out. A parser may hold an entry back (a record the
 * client rewrites on a later line) and give it out on a later line or at `finish`.
 */
export interface LineParser {
  /** before the first line; a parser that needs what the bytes before `from` said reads them here */
  prepare?(bounds: ReadBounds): Promise<void>;
  line(text: string, at: LineAt, stats: TranscriptStats): TranscriptEntry[];
  /** after the last line: what was held back */
  finish?(stats: TranscriptStats): TranscriptEntry[];
}

/** Checks a read's options, with the defaults filled in. */
function boundsOf(options: ReadTranscriptOptions): ReadBounds {
  const from = options.from ?? 0;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE;
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK;
  if (typeof options.path !== 'string' || !options.path) throw new AxmeError('INVALID_INPUT', 'path: name the transcript file to read', { field: 'path' });
  for (const [field, value] of [
    ['from', from],
    ['maxLineBytes', maxLineBytes],
    ['chunkBytes', chunkBytes],
  ] as const) {
    const min = field === 'from' ? 0 : 1;
    if (!Number.isSafeInteger(value) || value < min)
      throw new AxmeError('INVALID_INPUT', `${field}: give a whole number of bytes, at least ${min} (got ${value})`, { field, value });
  }
  return { path: options.path, from, maxLineBytes, chunkBytes };
}

/**
 * Streams the entries of a JSONL transcript from `from` (default 0), once, through `parser`: the
 * bounded line reader underneath (lines.ts), blank lines ignored, every other line counted, the
 * entries counted as they are given out. See `TranscriptReader` for the contract.
 */
export function readJsonl(options: ReadTranscriptOptions, parser: LineParser): TranscriptStream {
  const bounds = boundsOf(options);
  const stats = emptyStats();
  const lines: LineState = { end_offset: bounds.from, oversized: 0, partial_bytes: 0, max_buffer_bytes: 0 };
  let started = false;
  const count = (e: TranscriptEntry): TranscriptEntry => {
    stats.entries++;
    if (e.sidechain) stats.sidechain_entries++;
    return e;
  };
  async function* entries(): AsyncGenerator<TranscriptEntry> {
    if (started) throw new AxmeError('WRONG_STATE', 'a transcript stream is read once: call read() again (from its end_offset) for another pass');
    started = true;
    await parser.prepare?.(bounds);
    for await (const line of readLines({ ...bounds, state: lines })) {
      const text = line.bytes.toString('utf8');
      if (!/\S/.test(text)) continue;
      stats.lines++;
      for (const e of parser.line(text, line, stats)) yield count(e);
    }
    for (const e of parser.finish?.(stats) ?? []) yield count(e);
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

/**
 * The complete lines before `until`, decoded, for a parser's `prepare`: what an earlier read of the
 * same file already covered. Bounded like any read; stops at `until`.
 */
export async function* linesBefore(bounds: ReadBounds, until: number): AsyncGenerator<string> {
  if (until <= 0) return;
  const state: LineState = { end_offset: 0, oversized: 0, partial_bytes: 0, max_buffer_bytes: 0 };
  for await (const line of readLines({ path: bounds.path, from: 0, maxLineBytes: bounds.maxLineBytes, chunkBytes: bounds.chunkBytes, state })) {
    if (line.offset >= until) return;
    yield line.bytes.toString('utf8');
  }
}

/** One line as a JSON object, or null with the line counted as malformed (not JSON, or not an object). */
export function parseObjectLine(text: string, stats: TranscriptStats): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    stats.malformed++;
    return null;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  stats.malformed++;
  return null;
}

/** Counts a line that makes no entry, by its kind (`summary`, `event_msg:token_count`, …). */
export function skipLine(stats: TranscriptStats, kind: string): void {
  stats.skipped_unknown++;
  stats.skipped_types[kind] = (stats.skipped_types[kind] ?? 0) + 1;
}

import { readSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { AxmeError } from '../model/errors.ts';

/**
 * Newline-terminated lines of a file from a byte offset, with a bounded buffer: one read chunk plus
 * the line being assembled, never the whole file. Any JSONL transcript reader builds on it.
 */

/** One complete line: its bytes without the newline, where it starts, and the byte after its newline. */
export interface FileLine {
  /** valid until the next line is asked for: decode it before then */
  bytes: Buffer;
  offset: number;
  end_offset: number;
}

/** What a read of lines leaves behind; updated as lines are produced. */
export interface LineState {
  /** byte after the last complete line: where the next read starts */
  end_offset: number;
  /** lines longer than the limit, skipped */
  oversized: number;
  /** bytes after the last newline, not consumed */
  partial_bytes: number;
  /** read chunk plus the longest line assembled */
  max_buffer_bytes: number;
}

export interface ReadLinesOptions {
  path: string;
  from: number;
  maxLineBytes: number;
  chunkBytes: number;
  /** filled in as lines are read */
  state: LineState;
}

const NEWLINE = 0x0a;
// Chunks are read synchronously (a local file, mostly from the page cache: microseconds each):
// an awaited read costs a trip through the thread pool and the event loop per chunk, about a
// fifth of reading and rendering a 20 MB transcript (bench/transcript.bench.ts). Every this
// many bytes the reader still gives the event loop a turn, so a server stays responsive.
const TURN_BYTES = 1024 * 1024;

/** The complete lines of `path` from `from`; a partial last line is left for the next read. */
export async function* readLines(opts: ReadLinesOptions): AsyncGenerator<FileLine> {
  const { path, from, maxLineBytes, chunkBytes, state } = opts;
  const fh = await openTranscript(path);
  try {
    const size = (await fh.stat()).size;
    if (from > size) {
      throw new AxmeError(
        'WRONG_STATE',
        `${path} has ${size} bytes, fewer than the offset ${from} it was last read to: it was replaced or truncated. Read it from the start (offset 0).`,
        { path, size, from },
      );
    }
    state.end_offset = from;
    const chunk = Buffer.allocUnsafe(chunkBytes);
    state.max_buffer_bytes = Math.max(state.max_buffer_bytes, chunkBytes);
    // the line being assembled across chunks: copies, since `chunk` is reused
    let pieces: Buffer[] = [];
    let held = 0;
    let skipping = false; // inside an oversized line: drop bytes until its newline
    let pos = from;
    let lineStart = from;
    let sinceTurn = 0;
    for (;;) {
      if (sinceTurn >= TURN_BYTES) {
        sinceTurn = 0;
        await nextTurn();
      }
      const bytesRead = readSync(fh.fd, chunk, 0, chunkBytes, pos);
      if (bytesRead === 0) break;
      sinceTurn += bytesRead;
      const view = chunk.subarray(0, bytesRead);
      let i = 0;
      while (i < bytesRead) {
        const nl = view.indexOf(NEWLINE, i);
        if (nl === -1) {
          if (!skipping) {
            if (held + (bytesRead - i) > maxLineBytes) {
              [pieces, held, skipping] = [[], 0, true];
              state.oversized++;
            } else {
              pieces.push(Buffer.from(view.subarray(i, bytesRead)));
              held += bytesRead - i;
              state.max_buffer_bytes = Math.max(state.max_buffer_bytes, chunkBytes + held);
            }
          }
          break;
        }
        const end = pos + nl + 1;
        if (skipping) skipping = false;
        else if (held + (nl - i) > maxLineBytes) state.oversized++;
        else {
          let bytes = view.subarray(i, nl);
          if (held > 0) {
            bytes = Buffer.concat([...pieces, bytes], held + bytes.length);
            state.max_buffer_bytes = Math.max(state.max_buffer_bytes, chunkBytes + bytes.length);
          }
          state.end_offset = end;
          yield { bytes, offset: lineStart, end_offset: end };
        }
        [pieces, held] = [[], 0];
        state.end_offset = end;
        lineStart = end;
        i = nl + 1;
      }
      pos += bytesRead;
    }
    state.partial_bytes = pos - lineStart;
  } finally {
    await fh.close();
  }
}

async function openTranscript(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new AxmeError(
        'NOT_FOUND',
        `no transcript at ${path}: check the path (Claude Code keeps them in ~/.claude/projects/<project>/<session>.jsonl, Gemini CLI in ~/.gemini/tmp/<project>/chats/, Codex in ~/.codex/sessions/)`,
        { path },
      );
    throw err;
  }
}

import { claudeCodeReader } from './claude-code.ts';
import { codexReader } from './codex.ts';
import { geminiReader, isGeminiSessionLine } from './gemini.ts';
import { type LineState, readLines } from './lines.ts';
import { TRANSCRIPT_CLIENTS, type TranscriptClient, type TranscriptReader } from './types.ts';
import { isObject, str } from './values.ts';

/** Each client's reader. */
const READERS: Record<TranscriptClient, TranscriptReader> = { 'claude-code': claudeCodeReader, gemini: geminiReader, codex: codexReader };

/** The reader of `client`'s transcripts. */
export function readerFor(client: TranscriptClient): TranscriptReader {
  return READERS[client];
}

/** The transcript client of a session's harness (`claude-code`, `gemini`, `codex`), or null for one whose transcripts axme does not read (an MCP-only session, Cursor). */
export function clientOfHarness(harness: string | null | undefined): TranscriptClient | null {
  return (TRANSCRIPT_CLIENTS as readonly string[]).includes(harness ?? '') ? (harness as TranscriptClient) : null;
}

/** What the first line of a transcript says: which client wrote it, and that client's id of the session when the line names it. */
export interface SniffedTranscript {
  client: TranscriptClient;
  harness_session_id: string | null;
}

const CLAUDE_TYPES = new Set(['user', 'assistant', 'system', 'summary', 'file-history-snapshot', 'queue-operation', 'progress', 'attachment']);
const CODEX_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted', 'world_state', 'token_usage_record']);
const GEMINI_MESSAGE_TYPES = new Set(['user', 'gemini', 'info', 'error', 'warning']);

/**
 * Which client wrote a transcript, from its first line: a Codex `RolloutLine` (`type` and
 * `payload`), a Gemini CLI session record (its metadata: `sessionId` and `projectHash`; or a
 * message, `$set`, `$rewindTo`), a Claude Code line (`type` with `uuid` or `sessionId`, or a type
 * only it writes). Null when the file is empty or the line is none of these. Reads one line.
 */
export async function sniffTranscript(path: string): Promise<SniffedTranscript | null> {
  const state: LineState = { end_offset: 0, oversized: 0, partial_bytes: 0, max_buffer_bytes: 0 };
  for await (const line of readLines({ path, from: 0, maxLineBytes: 16 * 1024 * 1024, chunkBytes: 64 * 1024, state })) {
    const text = line.bytes.toString('utf8');
    if (!/\S/.test(text)) continue;
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      return null;
    }
    return isObject(v) ? classify(v) : null;
  }
  return null;
}

function classify(v: Record<string, unknown>): SniffedTranscript | null {
  const type = str(v.type);
  if (type && CODEX_TYPES.has(type) && isObject(v.payload)) {
    const id = type === 'session_meta' ? (str(v.payload.id) ?? str(v.payload.session_id)) : null;
    return { client: 'codex', harness_session_id: id };
  }
  if (isGeminiSessionLine(v)) return { client: 'gemini', harness_session_id: str(v.sessionId) };
  if (isObject(v.$set) || typeof v.$rewindTo === 'string' || (typeof v.id === 'string' && type !== null && GEMINI_MESSAGE_TYPES.has(type) && !('uuid' in v)))
    return { client: 'gemini', harness_session_id: null };
  if (type && (typeof v.uuid === 'string' || typeof v.sessionId === 'string' || CLAUDE_TYPES.has(type)))
    return { client: 'claude-code', harness_session_id: str(v.sessionId) };
  return null;
}

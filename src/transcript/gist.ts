import { stat } from 'node:fs/promises';
import { redactSecrets } from '../model/secrets.ts';
import { readerFor, sniffTranscript } from './clients.ts';
import type { TranscriptClient, TranscriptEntry, TranscriptReader } from './types.ts';

/**
 * What a session transcript says about where the work stood: the first request, the last request,
 * the agent's last words — what a recovered handoff quotes. Read through the client's reader, from
 * the file's head and tail only: transcripts grow to many megabytes. Any surprise (no file, a
 * format not understood) yields less, never an error.
 */

export interface TranscriptGist {
  firstPrompt: string | null;
  lastPrompt: string | null;
  lastReply: string | null;
  /** user prompts seen (in the part of a large transcript that was read) */
  prompts: number;
}

const HEAD_BYTES = 256 * 1024;
const TAIL_BYTES = 2 * 1024 * 1024;
const MAX_TEXT = 600;
// a longer line is skipped without being held (a transcript's prompts and replies are far shorter)
const MAX_LINE = TAIL_BYTES;

/** The gist of the transcript at `path` read as `client`'s (default: its first line's client, else Claude Code's); null when it holds no request and no reply. */
export async function transcriptGist(path: string | null, client?: TranscriptClient | null): Promise<TranscriptGist | null> {
  if (!path) return null;
  try {
    const { size } = await stat(path);
    const reader = readerFor(client ?? (await sniffTranscript(path))?.client ?? 'claude-code');
    const whole = size <= TAIL_BYTES;
    const firstPrompt = whole ? null : await headPrompt(reader, path);
    const tail = await tailGist(reader, path, whole ? 0 : size - TAIL_BYTES);
    const gist = { ...tail, firstPrompt: whole ? tail.firstPrompt : firstPrompt };
    return gist.firstPrompt || gist.lastPrompt || gist.lastReply ? gist : null;
  } catch {
    return null;
  }
}

/** The first prompt within the file's first `HEAD_BYTES`. */
async function headPrompt(reader: TranscriptReader, path: string): Promise<string | null> {
  for await (const e of reader.read({ path, maxLineBytes: MAX_LINE })) {
    if (e.offset >= HEAD_BYTES) return null;
    const prompt = promptText(e);
    if (prompt) return prompt;
  }
  return null;
}

/** The prompts and the last reply from `from` to the end (`from` may cut a line: that line is skipped). */
async function tailGist(reader: TranscriptReader, path: string, from: number): Promise<TranscriptGist> {
  const gist: TranscriptGist = { firstPrompt: null, lastPrompt: null, lastReply: null, prompts: 0 };
  for await (const e of reader.read({ path, from, tail: from > 0, maxLineBytes: MAX_LINE })) {
    const prompt = promptText(e);
    if (prompt) {
      gist.firstPrompt ??= prompt;
      gist.lastPrompt = prompt;
      gist.prompts++;
      continue;
    }
    const reply = replyText(e);
    if (reply) gist.lastReply = reply;
  }
  return gist;
}

// a slash command and its output, and reminders the client adds, are recorded as tagged user text
const NOT_ASKED = /^<(?:command-|local-command-|system-reminder)/;

/** A user's request: the text of a user entry of the main conversation that nobody injected, carries no tool result and is no compaction's summary. */
function promptText(e: TranscriptEntry): string | null {
  if (e.role !== 'user' || e.sidechain || e.meta || e.compact_summary || e.blocks.some((b) => b.type === 'tool_result')) return null;
  const text = textOf(e);
  return text && !NOT_ASKED.test(text) ? text : null;
}

/** The assistant's prose in an entry of the main conversation (its thinking and tool calls left out). */
function replyText(e: TranscriptEntry): string | null {
  return e.role === 'assistant' && !e.sidechain ? textOf(e) : null;
}

/** The entry's text blocks joined, redacted, then cut (redacted first: a credential cut in half no longer matches its pattern). */
function textOf(e: TranscriptEntry): string | null {
  const text = e.blocks
    .map((b) => (b.type === 'text' ? b.text : ''))
    .filter(Boolean)
    .join('\n')
    .trim();
  if (!text) return null;
  const safe = redactSecrets(text);
  return safe.length > MAX_TEXT ? `${safe.slice(0, MAX_TEXT - 3)}...` : safe;
}

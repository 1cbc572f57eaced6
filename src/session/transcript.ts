import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { redactSecrets } from '../model/secrets.ts';

/**
 * What a Claude Code transcript (the session's JSONL) says about where the work stood: the first
 * request, the last request, the agent's last words. Read from the file's head and tail only —
 * transcripts grow to many megabytes. Any format surprise yields less, never an error.
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

export function transcriptGist(path: string | null): TranscriptGist | null {
  if (!path) return null;
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    const whole = size <= TAIL_BYTES;
    // a cut line at either end fails to parse and is skipped
    const headEntries = entries(readAt(fd, 0, whole ? size : HEAD_BYTES));
    const tailEntries = whole ? headEntries : entries(readAt(fd, size - TAIL_BYTES, TAIL_BYTES));
    const firstPrompt = headEntries.find((e) => e.role === 'user')?.text ?? null;
    const lastPrompt = [...tailEntries].reverse().find((e) => e.role === 'user')?.text ?? null;
    const lastReply = [...tailEntries].reverse().find((e) => e.role === 'assistant')?.text ?? null;
    const prompts = tailEntries.filter((e) => e.role === 'user').length;
    if (!firstPrompt && !lastPrompt && !lastReply) return null;
    return { firstPrompt, lastPrompt, lastReply, prompts };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function readAt(fd: number, position: number, length: number): string {
  const buf = Buffer.alloc(length);
  const n = readSync(fd, buf, 0, length, position);
  return buf.subarray(0, n).toString('utf8');
}

function entries(text: string): Entry[] {
  return text
    .split('\n')
    .map(entry)
    .filter((e): e is Entry => e !== null);
}

interface Entry {
  role: 'user' | 'assistant';
  text: string;
}

/** A line's human-written text: a user prompt or the assistant's prose (tool calls and results are skipped). */
function entry(line: string): Entry | null {
  let e: { type?: unknown; isMeta?: unknown; message?: { role?: unknown; content?: unknown } };
  try {
    e = JSON.parse(line);
  } catch {
    return null;
  }
  if (!e || typeof e !== 'object' || e.isMeta === true) return null;
  const role = e.message?.role ?? e.type;
  if (role !== 'user' && role !== 'assistant') return null;
  const content = e.message?.content;
  let text = '';
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    // a user entry made of tool results is the harness talking, not the user
    if (content.some((c) => c && typeof c === 'object' && (c as { type?: unknown }).type === 'tool_result')) return null;
    text = content
      .filter((c): c is { type: 'text'; text: string } => !!c && typeof c === 'object' && (c as { type?: unknown }).type === 'text' && typeof (c as { text?: unknown }).text === 'string')
      .map((c) => c.text)
      .join('\n');
  }
  text = text.trim();
  // slash commands and their output are recorded as tagged user text
  if (!text || /^<(?:command-|local-command-|system-reminder)/.test(text)) return null;
  // redacted before it is cut: a credential cut in half no longer matches its pattern
  text = redactSecrets(text);
  return { role, text: text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 3)}...` : text };
}

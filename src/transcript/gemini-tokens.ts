import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { isObject } from './values.ts';

/** How much of a session file's end is read for the newest model message: it is rewritten whole at the end each time it changes. */
const TAIL_BYTES = 1 << 20;

/** The prompt Gemini CLI last sent, as its session file records it. */
export interface LastPrompt {
  /** its size in tokens (the newest model message's `tokens.input`, Gemini's `promptTokenCount`); 0 when no model message was recorded yet */
  tokens: number;
  /** the model that answered it, when the record names one */
  model: string | null;
}

/**
 * What a Gemini CLI session file (`~/.gemini/tmp/<project>/chats/session-*.jsonl`, gemini.ts) says
 * of the prompt the client last sent: the newest `gemini` message's `tokens.input` and `model`
 * (ChatRecordingService writes them with the answer; a message rewritten later is appended again
 * whole, and `{$set: {messages}}` replaces the history). Read from the file's last megabyte, newest
 * line first. `{tokens: 0}` when the file holds no model message (the session's first call); null
 * when it cannot tell: no file, unreadable, model messages none of which carries a token count
 * within the part read, or a replaced history (a compression, a resumed session) whose model
 * messages carry none. A replaced history with no model message (Gemini sets the first prompt's
 * history so at a session's start) is `{tokens: 0}` as well.
 */
export function lastPromptOf(path: string): LastPrompt | null {
  let text: string;
  let whole: boolean;
  try {
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      const length = Math.min(size, TAIL_BYTES);
      const buf = Buffer.alloc(length);
      readSync(fd, buf, 0, length, size - length);
      text = buf.toString('utf8');
      whole = length === size;
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
  const lines = text.split('\n');
  // a cut first line is not a record
  if (!whole) lines.shift();
  let sawModel = false;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (!line.includes('gemini') && !line.includes('$set')) continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isObject(record)) continue;
    const set = isObject(record.$set) ? record.$set : null;
    const messages = set && Array.isArray(set.messages) ? set.messages : [record];
    for (let m = messages.length - 1; m >= 0; m--) {
      const message = messages[m];
      if (!isObject(message) || message.type !== 'gemini') continue;
      sawModel = true;
      const tokens = isObject(message.tokens) ? message.tokens.input : undefined;
      if (typeof tokens === 'number' && Number.isFinite(tokens)) return { tokens, model: typeof message.model === 'string' ? message.model : null };
    }
    // the history before a replacement is not the history now: what it said of its prompts is not this prompt's
    if (set && Array.isArray(set.messages)) return sawModel ? null : { tokens: 0, model: null };
  }
  return sawModel || !whole ? null : { tokens: 0, model: null };
}

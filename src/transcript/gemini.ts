import { type GeminiContext, geminiEntry } from './gemini-message.ts';
import { type LineAt, type LineParser, linesBefore, parseObjectLine, type ReadBounds, readJsonl, skipLine } from './jsonl-stream.ts';
import { plainEntry, type ReadTranscriptOptions, type TranscriptEntry, type TranscriptReader, type TranscriptStats, type TranscriptStream } from './types.ts';
import { isObject, str } from './values.ts';

/**
 * Gemini CLI's session files (@google/gemini-cli 0.61.0, ChatRecordingService):
 * `~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl`, an append-only log of records, one a
 * line — the session's metadata first (`{sessionId, projectHash, startTime, lastUpdated, kind}`),
 * then messages (`{id, type, content, …}`, gemini-message.ts), metadata updates (`{$set: {…}}`) and
 * rewinds (`{$rewindTo: <message id>}`). A message is appended again, whole, each time it changes
 * (its tokens, its tool calls and their results): the newest copy of an id is the message.
 * `{$set: {messages: [...]}}` replaces the whole history (a compression, a resumed session).
 */
export const geminiReader: TranscriptReader = {
  client: 'gemini',
  read: readGemini,
};

/** Streams the entries of a Gemini CLI session file from `from` (default 0), once; see `TranscriptReader`. */
function readGemini(options: ReadTranscriptOptions): TranscriptStream {
  return readJsonl(options, new GeminiParser(options.tail === true));
}

/** True for a session file's first line (its metadata). */
export function isGeminiSessionLine(v: Record<string, unknown>): boolean {
  return typeof v.sessionId === 'string' && typeof v.projectHash === 'string';
}

/**
 * One read of a session file. A message is held until a line about another one comes (the client
 * rewrites only the newest message), then given out once, as its newest copy. A copy of a message
 * given out before — in this read, or before `from` (read by `prepare`) — is skipped: an audit
 * resumed from an offset does not see the old conversation again when the client rewrites it. A
 * read of the file's tail (`tail`) looks at its first line only: each message there is given out
 * as its newest copy.
 */
class GeminiParser implements LineParser {
  private readonly seen = new Set<string>();
  private readonly ctx: GeminiContext = { resultsShown: new Set(), sidechain: false };
  private pending: { record: Record<string, unknown>; offset: number; end_offset: number } | null = null;

  constructor(private readonly tail: boolean) {}

  async prepare(bounds: ReadBounds): Promise<void> {
    for await (const text of linesBefore(bounds, bounds.from)) {
      let v: unknown;
      try {
        v = JSON.parse(text);
      } catch {
        v = null;
      }
      // a tail: the first line says whose file it is, the rest is read from `from`
      if (this.tail) {
        if (isObject(v) && isGeminiSessionLine(v)) this.ctx.sidechain = v.kind === 'subagent';
        return;
      }
      if (!isObject(v)) continue;
      if (isGeminiSessionLine(v)) this.ctx.sidechain = v.kind === 'subagent';
      else if (typeof v.id === 'string') this.seen.add(v.id);
      else if (isObject(v.$set) && Array.isArray(v.$set.messages))
        for (const m of v.$set.messages) if (isObject(m) && typeof m.id === 'string') this.seen.add(m.id);
    }
  }

  line(text: string, at: LineAt, stats: TranscriptStats): TranscriptEntry[] {
    const v = parseObjectLine(text, stats);
    if (!v) return [];
    if (typeof v.id === 'string') return this.message(v, v.id, at, stats);
    if (typeof v.$rewindTo === 'string') {
      const note = 'The user rewound the conversation to before an earlier message: what followed it was taken back (changes its tools made to files stay).';
      return [...this.flush(stats), plainEntry('system', [{ type: 'text', text: note }], at, { subtype: 'rewind', sidechain: this.ctx.sidechain })];
    }
    if (isObject(v.$set)) {
      if (Array.isArray(v.$set.messages)) return this.replaced(v.$set.messages, at, stats);
      skipLine(stats, '$set');
      return [];
    }
    if (isGeminiSessionLine(v)) {
      this.ctx.sidechain = v.kind === 'subagent';
      skipLine(stats, 'session');
      return [];
    }
    skipLine(stats, str(v.type) ?? '(none)');
    return [];
  }

  finish(stats: TranscriptStats): TranscriptEntry[] {
    return this.flush(stats);
  }

  /** A message record: the newest copy of the held one, a copy of one given out already, or the next one. */
  private message(v: Record<string, unknown>, id: string, at: LineAt, stats: TranscriptStats): TranscriptEntry[] {
    if (this.pending && this.pending.record.id === id) {
      this.pending = { record: v, offset: this.pending.offset, end_offset: at.end_offset };
      return [];
    }
    if (this.seen.has(id)) {
      skipLine(stats, 'message-update');
      return [];
    }
    const out = this.flush(stats);
    this.seen.add(id);
    this.pending = { record: v, offset: at.offset, end_offset: at.end_offset };
    return out;
  }

  /**
   * The history replaced: messages not seen yet are given out. When some seen ones are gone and new
   * ones come (a compression: the history summarised), that is a compaction, and a new user
   * message is its summary.
   */
  private replaced(messages: unknown[], at: LineAt, stats: TranscriptStats): TranscriptEntry[] {
    const out = this.flush(stats);
    const ids = new Set(messages.map((m) => (isObject(m) ? str(m.id) : null)).filter((id): id is string => id !== null));
    let removed = 0;
    for (const id of this.seen) if (!ids.has(id)) removed++;
    const fresh = messages.filter((m): m is Record<string, unknown> => isObject(m) && typeof m.id === 'string' && !this.seen.has(m.id));
    const compaction = removed > 0 && fresh.length > 0;
    if (compaction) out.push(plainEntry('system', [], at, { subtype: 'compact_boundary', compact_boundary: true, sidechain: this.ctx.sidechain }));
    for (const m of fresh) {
      this.seen.add(m.id as string);
      const e = geminiEntry(m, at, this.ctx, stats);
      if (e) out.push(compaction && e.role === 'user' && !e.meta ? { ...e, compact_summary: true } : e);
    }
    if (!out.length) skipLine(stats, '$set:messages');
    return out;
  }

  private flush(stats: TranscriptStats): TranscriptEntry[] {
    if (!this.pending) return [];
    const { record, offset, end_offset } = this.pending;
    this.pending = null;
    const e = geminiEntry(record, { offset, end_offset }, this.ctx, stats);
    return e ? [e] : [];
  }
}

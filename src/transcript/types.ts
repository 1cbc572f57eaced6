/**
 * What a session transcript holds once read, independent of the client that wrote it. A reader
 * (`TranscriptReader`) turns one client's file into these entries; the renderer turns entries
 * into text for the auditor's model. Field names follow the wire names (snake_case) so an entry
 * prints as JSON the way the transcript spelled it.
 */

/** Prose written by the user or the assistant (or a system line's text). */
export interface TextBlock {
  type: 'text';
  text: string;
}

/** The assistant's thinking, rendered only when asked for. */
export interface ThinkingBlock {
  type: 'thinking';
  text: string;
}

/** A tool call by the assistant: `input` is the tool's arguments as the client recorded them. */
export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

/** What a tool answered; `content` is its text (images become `[image]`). */
export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error: boolean;
}

/** An image the user attached: only its presence is kept. */
export interface ImageBlock {
  type: 'image';
  media_type: string | null;
}

export type TranscriptBlock = TextBlock | ThinkingBlock | ToolUseBlock | ToolResultBlock | ImageBlock;

/** One user, assistant or system line of a transcript. */
export interface TranscriptEntry {
  role: 'user' | 'assistant' | 'system';
  /** the line's own id, and the one it answers (null on the first line and after a compaction) */
  uuid: string | null;
  parent_uuid: string | null;
  timestamp: string | null;
  /** a subagent's (or background) line: never part of the main conversation */
  sidechain: boolean;
  /** text the client injected (hook feedback, caveats), not typed by anyone */
  meta: boolean;
  /** a system line's kind (`compact_boundary`, `stop_hook_summary`, …), else null */
  subtype: string | null;
  /** the system line that marks a compaction point */
  compact_boundary: boolean;
  /** how the compaction was triggered (`auto`, `manual`), on a compact boundary */
  compact_trigger: string | null;
  /** the user line carrying the summary a compaction wrote */
  compact_summary: boolean;
  blocks: TranscriptBlock[];
  /** byte offset of the line in the file, and of the byte after its newline */
  offset: number;
  end_offset: number;
}

/** Counts of one read; never an error for a line the reader does not understand. */
export interface TranscriptStats {
  /** complete non-blank lines read */
  lines: number;
  /** entries produced (main conversation and sidechains) */
  entries: number;
  /** of which sidechain (subagent) entries */
  sidechain_entries: number;
  /** lines of a type the reader does not render (`summary`, `progress`, a future type, …) */
  skipped_unknown: number;
  /** the same, by type */
  skipped_types: Record<string, number>;
  /** content blocks of an unknown type inside known lines */
  skipped_blocks: number;
  /** lines that are not JSON, not an object, or lack the fields their type needs */
  malformed: number;
  /** lines longer than the reader's line limit: skipped without being held in memory */
  oversized: number;
  /** bytes after the last newline: a line still being written, left for the next read */
  partial_bytes: number;
  /** the most bytes the reader held at once (read buffer and the line being assembled) */
  max_buffer_bytes: number;
}

/** Entries of one read, in file order, with the counts and the offset to resume from. */
export interface TranscriptStream extends AsyncIterable<TranscriptEntry> {
  /** counts so far; final once iteration has ended */
  readonly stats: TranscriptStats;
  /** byte offset after the last complete line read: where the next read starts. Final once iteration has ended */
  readonly end_offset: number;
}

export interface ReadTranscriptOptions {
  /** the transcript file */
  path: string;
  /** byte offset to start at: 0, or the `end_offset` of an earlier read of the same file */
  from?: number;
  /**
   * read from `from` as the file's tail, not as what follows an earlier read: `from` may cut a line
   * (it is skipped), and a record first written before `from` is read in its newest copy, not
   * taken as given out already. Default false
   */
  tail?: boolean;
  /** longest line kept (bytes); a longer one is skipped and counted as `oversized`. Default 16 MiB */
  maxLineBytes?: number;
  /** bytes read per system call. Default 64 KiB */
  chunkBytes?: number;
}

/** The clients whose transcripts axme reads: Claude Code, Gemini CLI, Codex. */
export const TRANSCRIPT_CLIENTS = ['claude-code', 'gemini', 'codex'] as const;
export type TranscriptClient = (typeof TRANSCRIPT_CLIENTS)[number];

/**
 * A client's transcript format. `read` streams entries from a byte offset; it holds at most one
 * read chunk plus one line in memory, skips and counts what it does not understand, and never
 * consumes a partial last line, so reading again from `end_offset` picks it up whole.
 */
export interface TranscriptReader {
  /** the client whose transcripts it reads */
  readonly client: TranscriptClient;
  read(options: ReadTranscriptOptions): TranscriptStream;
}

/** Empty counts, for a reader to fill. */
export function emptyStats(): TranscriptStats {
  return {
    lines: 0,
    entries: 0,
    sidechain_entries: 0,
    skipped_unknown: 0,
    skipped_types: {},
    skipped_blocks: 0,
    malformed: 0,
    oversized: 0,
    partial_bytes: 0,
    max_buffer_bytes: 0,
  };
}

/** An entry with the flags of a plain line (no ids, not a sidechain, not injected, no compaction), for a reader to fill. */
export function plainEntry(
  role: TranscriptEntry['role'],
  blocks: TranscriptBlock[],
  at: { offset: number; end_offset: number },
  more: Partial<TranscriptEntry> = {},
): TranscriptEntry {
  return {
    role,
    uuid: null,
    parent_uuid: null,
    timestamp: null,
    sidechain: false,
    meta: false,
    subtype: null,
    compact_boundary: false,
    compact_trigger: null,
    compact_summary: false,
    blocks,
    offset: at.offset,
    end_offset: at.end_offset,
    ...more,
  };
}

import { AxmeError } from '../model/errors.ts';
import { Redactor } from './redact.ts';
import { type Element, type EntryContext, renderEntry } from './render-entry.ts';
import { trimMiddle } from './text.ts';
import type { TranscriptEntry } from './types.ts';

/**
 * A transcript as text for the auditor's model, in chunks of at most `budget` characters. Chunks
 * break between entries; an entry larger than a chunk has its longest texts trimmed until it fits.
 * Credentials are redacted in every text before it is emitted, and counted.
 */

export interface RenderOptions {
  /** most characters per chunk (one model request). Default 100,000; at least 1,000 */
  budget?: number;
  /** render the assistant's thinking. Default false */
  thinking?: boolean;
  /** render the sidechain (subagent) entries instead of the main conversation; never both. Default false */
  sidechain?: boolean;
  /** render entries the client injected (`isMeta`). Default false */
  meta?: boolean;
  /** most characters of one user, assistant, summary or system text. Default 20,000 */
  maxText?: number;
  /** most characters of one tool output. Default 4,000 */
  maxToolOutput?: number;
  /** most characters of one value of a tool's input. Default 2,000 */
  maxToolInputValue?: number;
}

/** One request's worth of transcript, in order. */
export interface RenderedChunk {
  /** 0, 1, … in transcript order */
  index: number;
  text: string;
  /** entries in it */
  entries: number;
  /** byte range of the transcript it covers: the first entry's offset, the byte after the last one's line */
  from_offset: number;
  to_offset: number;
}

export interface RenderStats {
  chunks: number;
  /** entries rendered */
  entries: number;
  /** entries left out: the other side of the sidechain split, `isMeta` ones, ones with nothing to show */
  skipped_entries: number;
  /** texts trimmed to their kind's limit or to fit a chunk */
  trimmed: number;
  /** credentials replaced by `[redacted: …]` */
  redactions: number;
}

export interface RenderedTranscript {
  chunks: RenderedChunk[];
  stats: RenderStats;
}

const MIN_BUDGET = 1000;

/** Renders entries (an array or a reader's stream) into chunks; see `TranscriptRenderer`. */
export async function renderTranscript(
  options: RenderOptions & { entries: Iterable<TranscriptEntry> | AsyncIterable<TranscriptEntry> },
): Promise<RenderedTranscript> {
  const { entries, ...rest } = options;
  const renderer = new TranscriptRenderer(rest);
  const chunks: RenderedChunk[] = [];
  for await (const entry of entries) {
    const done = renderer.add(entry);
    if (done) chunks.push(done);
  }
  const last = renderer.finish();
  if (last) chunks.push(last);
  return { chunks, stats: renderer.stats };
}

/**
 * Incremental rendering, for a transcript read as a stream: `add` each entry in order and send
 * the chunk it returns (a full one) before reading on; `finish` returns the last one.
 */
export class TranscriptRenderer {
  private readonly budget: number;
  private readonly opts: Required<Pick<RenderOptions, 'sidechain' | 'meta'>>;
  private readonly ctx: EntryContext;
  private parts: string[] = [];
  private size = 0;
  private from = 0;
  private to = 0;
  private index = 0;
  private counts = { chunks: 0, entries: 0, skipped_entries: 0 };

  constructor(options: RenderOptions = {}) {
    const num = (field: keyof RenderOptions, fallback: number, min: number): number => {
      const v = options[field] ?? fallback;
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min)
        throw new AxmeError('INVALID_INPUT', `${field}: give a whole number of characters, at least ${min} (got ${String(v)})`, { field, value: v });
      return v;
    };
    this.budget = num('budget', 100_000, MIN_BUDGET);
    const limits = {
      maxText: num('maxText', 20_000, 100),
      maxToolOutput: num('maxToolOutput', 4_000, 100),
      maxToolInputValue: num('maxToolInputValue', 2_000, 100),
      thinking: options.thinking === true,
    };
    this.opts = { sidechain: options.sidechain === true, meta: options.meta === true };
    this.ctx = { limits, redactor: new Redactor(), toolNames: new Map(), trimmed: 0 };
  }

  /** Counts so far. */
  get stats(): RenderStats {
    return { ...this.counts, trimmed: this.ctx.trimmed, redactions: this.ctx.redactor.count };
  }

  /** Adds the next entry; returns the chunk it completed, if it did. */
  add(entry: TranscriptEntry): RenderedChunk | null {
    if (entry.sidechain !== this.opts.sidechain || (entry.meta && !this.opts.meta)) {
      this.counts.skipped_entries++;
      return null;
    }
    const elements = renderEntry(entry, this.ctx);
    if (!elements.length) {
      this.counts.skipped_entries++;
      return null;
    }
    this.counts.entries++;
    const text = this.fit(elements);
    let done: RenderedChunk | null = null;
    if (this.parts.length && this.size + 1 + text.length > this.budget) done = this.flush();
    if (!this.parts.length) this.from = entry.offset;
    this.size += (this.parts.length ? 1 : 0) + text.length;
    this.parts.push(text);
    this.to = entry.end_offset;
    return done;
  }

  /** The last chunk, if anything is left. */
  finish(): RenderedChunk | null {
    return this.parts.length ? this.flush() : null;
  }

  private flush(): RenderedChunk {
    const chunk = { index: this.index++, text: this.parts.join('\n'), entries: this.parts.length, from_offset: this.from, to_offset: this.to };
    this.counts.chunks++;
    [this.parts, this.size] = [[], 0];
    return chunk;
  }

  /**
   * The entry's text within the budget: its longest bodies trimmed to one cap (tags kept whole).
   * When that cap would leave too little of each body, the last blocks give way to a marker.
   */
  private fit(elements: Element[]): string {
    const join = (els: Element[]) => els.map((e) => e.open + e.body + e.close).join('\n');
    const whole = join(elements);
    if (whole.length <= this.budget) return whole;
    let kept = elements;
    for (;;) {
      const dropped = elements.length - kept.length;
      const marker = dropped ? `\n[… ${dropped} more blocks trimmed …]` : '';
      const room = this.budget - marker.length - kept.reduce((n, e) => n + e.open.length + e.close.length + 1, 0);
      const cap = largestCap(
        kept.map((e) => e.body.length),
        room,
      );
      if ((cap < MIN_CAP && kept.length > 1) || cap < 0) {
        kept = kept.slice(0, -1);
        continue;
      }
      const out = kept.map((e) => {
        if (e.body.length <= cap) return e;
        this.ctx.trimmed++;
        return { ...e, body: trimMiddle(e.body, cap) };
      });
      return join(out) + marker;
    }
  }
}

// the least a trimmed body keeps before blocks are dropped instead
const MIN_CAP = 120;

/** The largest cap such that the lengths, each cut to it, sum to at most `room`; -1 if none. */
function largestCap(lengths: number[], room: number): number {
  if (room < 0) return -1;
  let [lo, hi] = [0, Math.max(0, ...lengths)];
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (lengths.reduce((n, l) => n + Math.min(l, mid), 0) <= room) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

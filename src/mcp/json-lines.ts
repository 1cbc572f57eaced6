/**
 * Newline-delimited JSON framing with bounds, for the stdio transport. Bytes are scanned as they
 * arrive: a line past `maxLineBytes` is not buffered (only counted), nesting past `maxDepth` is
 * noticed without parsing, and the request id is picked out of the top-level object even from a
 * line that is never kept — so an oversize or too-deep request can still be answered by its id.
 */

/** One complete line, or why it could not be kept. */
export type Line =
  | { kind: 'json'; text: string; bytes: number }
  | { kind: 'oversize'; bytes: number; id: RequestId | null }
  | { kind: 'too-deep'; bytes: number; depth: number; id: RequestId | null };

export type RequestId = string | number;

const NL = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
/** bytes of a top-level key or id value worth remembering (longer ones are not ids we can answer) */
const CAPTURE_MAX = 256;

export class JsonLineSplitter {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private dropped = false;
  // scanner state for the current line
  private depth = 0;
  private maxSeen = 0;
  private inString = false;
  private escaped = false;
  private topIsObject: boolean | null = null;
  /** at depth 1 of the top object: collecting a key, or the value after `"id":` */
  private capture: 'key' | 'id' | null = null;
  private captured: number[] = [];
  private lastKey = '';
  private expectKey = true;
  private idRaw: string | null = null;

  constructor(private readonly opts: { maxLineBytes: number; maxDepth: number }) {}

  /** Feeds bytes; returns the lines they complete. */
  push(chunk: Buffer): Line[] {
    const lines: Line[] = [];
    let start = 0;
    // inside a string only a quote, a backslash or a newline matters: jump to the next one
    // (positions found by memchr and kept until passed, so a long string is not rescanned)
    let nextQuote = -1;
    let nextSlash = -1;
    let nextNl = -1;
    const after = (cached: number, byte: number, from: number) => {
      if (cached >= from || cached === chunk.length) return cached;
      const at = chunk.indexOf(byte, from);
      return at < 0 ? chunk.length : at;
    };
    for (let i = 0; i < chunk.length; i++) {
      if (this.inString && !this.escaped && this.capture === null) {
        nextQuote = after(nextQuote, QUOTE, i);
        nextSlash = after(nextSlash, BACKSLASH, i);
        nextNl = after(nextNl, NL, i);
        i = Math.min(nextQuote, nextSlash, nextNl);
        if (i >= chunk.length) break;
      }
      const b = chunk[i]!;
      if (b === NL) {
        this.keep(chunk.subarray(start, i));
        const line = this.finish();
        if (line) lines.push(line);
        start = i + 1;
        continue;
      }
      this.scan(b);
    }
    this.keep(chunk.subarray(start));
    return lines;
  }

  /** The last line when input ends without a newline. */
  end(): Line | null {
    return this.finish();
  }

  private keep(part: Buffer): void {
    if (!part.length) return;
    this.bytes += part.length;
    if (this.dropped) return;
    if (this.bytes > this.opts.maxLineBytes || this.maxSeen > this.opts.maxDepth) {
      // nothing of this line is kept from here on: it will be answered, not parsed
      this.dropped = true;
      this.chunks = [];
      return;
    }
    this.chunks.push(Buffer.from(part)); // copied: the stream may reuse its buffer
  }

  private finish(): Line | null {
    const bytes = this.bytes;
    const id = this.id();
    const tooDeep = this.maxSeen > this.opts.maxDepth;
    const text = this.dropped ? '' : Buffer.concat(this.chunks).toString('utf8');
    const maxSeen = this.maxSeen;
    this.reset();
    if (bytes > this.opts.maxLineBytes) return { kind: 'oversize', bytes, id };
    if (tooDeep) return { kind: 'too-deep', bytes, depth: maxSeen, id };
    if (!text.trim()) return null;
    return { kind: 'json', text, bytes };
  }

  private reset(): void {
    this.chunks = [];
    this.bytes = 0;
    this.dropped = false;
    this.depth = 0;
    this.maxSeen = 0;
    this.inString = false;
    this.escaped = false;
    this.topIsObject = null;
    this.capture = null;
    this.captured = [];
    this.lastKey = '';
    this.expectKey = true;
    this.idRaw = null;
  }

  private id(): RequestId | null {
    if (this.idRaw === null) return null;
    try {
      const v: unknown = JSON.parse(this.idRaw);
      return typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v)) ? v : null;
    } catch {
      return null;
    }
  }

  private scan(b: number): void {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (b === BACKSLASH) this.escaped = true;
      else if (b === QUOTE) {
        this.inString = false;
        if (this.capture === 'key') {
          this.lastKey = Buffer.from(this.captured).toString('utf8');
          this.capture = null;
          this.captured = [];
          return;
        }
      }
      if (this.capture) this.take(b);
      return;
    }
    if (b === 0x20 || b === 0x09 || b === 0x0d) return;
    if (b === 0x7b || b === 0x5b) {
      // { or [
      if (this.topIsObject === null) this.topIsObject = b === 0x7b;
      if (this.capture === 'id') this.stopCapture(false); // an object or array is not an id
      this.depth++;
      if (this.depth > this.maxSeen) this.maxSeen = this.depth;
      return;
    }
    if (b === 0x7d || b === 0x5d) {
      // } or ]
      if (this.depth === 1 && this.capture === 'id') this.stopCapture(true);
      this.depth--;
      return;
    }
    const top = this.depth === 1 && this.topIsObject === true;
    if (top && b === COLON) {
      this.expectKey = false;
      if (this.lastKey === 'id') {
        this.capture = 'id';
        this.captured = [];
      }
      return;
    }
    if (top && b === COMMA) {
      if (this.capture === 'id') this.stopCapture(true);
      this.expectKey = true;
      return;
    }
    if (b === QUOTE) {
      this.inString = true;
      if (top && this.expectKey) {
        this.capture = 'key';
        this.captured = [];
        return;
      }
    }
    if (this.capture === 'id') this.take(b);
  }

  private take(b: number): void {
    if (this.captured.length < CAPTURE_MAX) this.captured.push(b);
    else if (this.capture === 'id') this.stopCapture(false);
  }

  private stopCapture(keep: boolean): void {
    if (keep && this.captured.length) this.idRaw = Buffer.from(this.captured).toString('utf8');
    this.capture = null;
    this.captured = [];
  }
}

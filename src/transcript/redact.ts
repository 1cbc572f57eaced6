import { redactSecrets } from '../model/secrets.ts';
import { trimMarker, trimMiddle } from './text.ts';

const MARK = '[redacted: ';
// context kept on each side of a cut when redacting a long text's head and tail: longer than any
// credential pattern's match, so a credential across the cut is still whole where it is matched
const MARGIN = 1024;
// texts up to this long are remembered, at most this many at once (under 1 MB)
const MEMO_CHARS = 128;
const MEMO_ENTRIES = 2048;

/**
 * Redacts credentials with the store's own patterns (`redactSecrets`, the ones a write refuses)
 * and counts them: every text the renderer emits goes through one of these two methods.
 */
export class Redactor {
  /** credentials replaced so far */
  count = 0;
  // short texts recur (tool names, input keys, common paths and commands): three calls in four
  // on bench/transcript.bench.ts's transcript. Their result and count are remembered (pure).
  private readonly memo = new Map<string, { out: string; found: number }>();

  /** `text` with each credential replaced by `[redacted: <what>]`. */
  redact(text: string): string {
    if (!text) return text;
    const short = text.length <= MEMO_CHARS;
    const known = short ? this.memo.get(text) : undefined;
    if (known) {
      this.count += known.found;
      return known.out;
    }
    const out = redactSecrets(text);
    const found = out === text ? 0 : occurrences(out) - occurrences(text);
    this.count += found;
    if (short) {
      if (this.memo.size >= MEMO_ENTRIES) this.memo.clear();
      this.memo.set(text, { out, found });
    }
    return out;
  }

  /**
   * `text` redacted, then trimmed to `max` characters around a marker. A long text is redacted
   * in its head and tail only (with a margin), never scanned whole: a 5 MB tool output costs
   * what its kept part costs.
   */
  redactTrim(text: string, max: number): string {
    if (text.length <= max + 2 * MARGIN) return trimMiddle(this.redact(text), max);
    const keep = max - trimMarker(text.length).length - 2;
    if (keep <= 0) return trimMiddle(text, max);
    const headLen = Math.ceil(keep / 2);
    const tailLen = Math.floor(keep / 2);
    const head = this.redact(text.slice(0, headLen + MARGIN)).slice(0, headLen);
    const tail = this.redact(text.slice(text.length - tailLen - MARGIN)).slice(-tailLen || Infinity);
    return `${head}\n${trimMarker(text.length - headLen - tailLen)}\n${tail}`;
  }
}

function occurrences(text: string): number {
  let n = 0;
  for (let i = text.indexOf(MARK); i !== -1; i = text.indexOf(MARK, i + MARK.length)) n++;
  return n;
}

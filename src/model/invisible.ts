// Characters that display as nothing. Pure: no I/O.
//
// Two uses. One-line fields (titles, tags, keywords, scope, anchors) drop them, so two titles
// that look the same are the same and a slug is made of what a reader sees. The secret scan
// reads text through `scanView`, without them and in NFKC, so that a token split by a zero-width
// space or typed in fullwidth letters is still a token. Long text (bodies) keeps them: free text
// round-trips byte for byte. Bidirectional embeddings, overrides and isolates (U+202A–U+202E,
// U+2066–U+2069) are refused everywhere before this (`textProblem` in text.ts).

/**
 * Default_Ignorable_Code_Point (zero-width space and joiners, word joiner, BOM, invisible
 * operators U+2061–U+2064, soft hyphen, combining grapheme joiner, LRM/RLM/ALM, Mongolian
 * vowel separator and variation selectors, Hangul fillers, variation selectors, tag characters)
 * and every other format character (Cf).
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/u;
const NON_ASCII = /[^\x00-\x7f]/;
// refused by `textProblem`, never removed silently: cleanLine leaves them for it to see
const BIDI_CONTROL = /^[\u202A-\u202E\u2066-\u2069]$/;

// Scripts that need ZWNJ/ZWJ between letters to be spelt right (Persian, Indic conjuncts, ...).
const LETTER_OR_MARK = /^[\p{L}\p{M}]$/u;
const JOINER_SCRIPTS =
  /[\p{scx=Arab}\p{scx=Syrc}\p{scx=Nkoo}\p{scx=Mong}\p{scx=Deva}\p{scx=Beng}\p{scx=Guru}\p{scx=Gujr}\p{scx=Orya}\p{scx=Taml}\p{scx=Telu}\p{scx=Knda}\p{scx=Mlym}\p{scx=Sinh}\p{scx=Khmr}\p{scx=Mymr}\p{scx=Tibt}]/u;
const PICTOGRAPH = /^[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]$/u;

function joinsScript(c: string | undefined): boolean {
  return c !== undefined && LETTER_OR_MARK.test(c) && JOINER_SCRIPTS.test(c);
}

function mongolianLetter(c: string | undefined): boolean {
  return c !== undefined && /^\p{L}$/u.test(c) && /\p{scx=Mong}/u.test(c);
}

/** Whether the invisible `cps[i]` does visible work where it stands, so a one-line field keeps it. */
function shapes(cps: string[], i: number): boolean {
  const c = cps[i]!;
  const prev = cps[i - 1];
  const next = cps[i + 1];
  if (c === '\u200C' || c === '\u200D') {
    if (joinsScript(prev) && joinsScript(next)) return true;
    // emoji ZWJ sequences: 👩‍💻, 🏳️‍🌈
    return c === '\u200D' && prev !== undefined && next !== undefined && PICTOGRAPH.test(prev) && /^\p{Extended_Pictographic}$/u.test(next);
  }
  // emoji / text presentation: ❤️, and keycaps 1️⃣
  if (c === '\uFE0E' || c === '\uFE0F') {
    return prev !== undefined && (/^\p{Extended_Pictographic}$/u.test(prev) || (/^[0-9#*]$/.test(prev) && next === '\u20E3'));
  }
  // Mongolian free variation selectors and vowel separator, between Mongolian letters
  if (/^[\u180B-\u180F]$/.test(c)) return mongolianLetter(prev) && (c !== '\u180E' || mongolianLetter(next));
  return false;
}

/**
 * A one-line field as it is stored: NFC, without characters that display as nothing — except a
 * joiner between letters of a script that needs it (Persian ZWNJ, Indic ZWJ/ZWNJ), inside an
 * emoji sequence, or a presentation selector after an emoji. Tag characters always go.
 * Bidirectional embeddings, overrides and isolates are kept for `textProblem` to refuse.
 */
export function cleanLine(s: string): string {
  if (!NON_ASCII.test(s)) return s;
  const cps = [...s.normalize('NFC')];
  let out = '';
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i]!;
    if (!INVISIBLE.test(c) || BIDI_CONTROL.test(c) || shapes(cps, i)) out += c;
  }
  return out;
}

/** Text as the secret scan reads it, and the way back to offsets in the original. */
export interface ScanView {
  /** the original without invisible and format characters, each character in NFKC */
  text: string;
  /** offset in the original of the view's offset `i` (`text.length` maps to the original's length) */
  original(i: number): number;
}

/**
 * The secret scan's view of `text`: every invisible or format character removed (zero-width,
 * joiners, BOM, soft hyphen, bidirectional controls, tags, variation selectors, ...) and every
 * character folded to NFKC (fullwidth `ｇｈｐ＿` reads `ghp_`), so neither splits nor disguises
 * a credential. Linear; runs of text that need no change are copied whole.
 */
export function scanView(text: string): ScanView {
  if (!NON_ASCII.test(text)) return { text, original: (i) => i };
  // most text in any script needs no change at all: one check of the whole, then no copying
  if (!INVISIBLE_ANY.test(text) && text.normalize('NFKC') === text) return { text, original: (i) => i };
  const b = new ViewBuilder();
  let last = 0;
  for (const m of text.matchAll(/[^\x00-\x7f]+/g)) {
    b.copy(text, last, m.index);
    const run = m[0];
    if (!INVISIBLE_ANY.test(run) && run.normalize('NFKC') === run) b.copy(text, m.index, m.index + run.length);
    else {
      let i = m.index;
      for (const ch of run) {
        if (!INVISIBLE.test(ch)) {
          const n = ch.normalize('NFKC');
          if (n === ch) b.copy(text, i, i + ch.length);
          else b.replace(n, i);
        }
        i += ch.length;
      }
    }
    last = m.index + run.length;
  }
  b.copy(text, last, text.length);
  return b.view(text.length);
}

const INVISIBLE_ANY = new RegExp(INVISIBLE.source, 'u');

/** Builds a ScanView from pieces: copies of the original and replacements of one character. */
class ViewBuilder {
  private out = '';
  // piece k starts at view offset viewAt[k] and original offset origAt[k]; copied[k]: 1:1 or not
  private readonly viewAt: number[] = [];
  private readonly origAt: number[] = [];
  private readonly copied: boolean[] = [];

  copy(text: string, from: number, to: number): void {
    if (to <= from) return;
    const k = this.viewAt.length - 1;
    const contiguous = k >= 0 && this.copied[k] && this.origAt[k]! + (this.out.length - this.viewAt[k]!) === from;
    if (!contiguous) this.push(from, true);
    this.out += text.slice(from, to);
  }

  replace(replacement: string, from: number): void {
    this.push(from, false);
    this.out += replacement;
  }

  view(length: number): ScanView {
    const { out, viewAt, origAt, copied } = this;
    return {
      text: out,
      original(j: number): number {
        if (j >= out.length) return length;
        let lo = 0;
        let hi = viewAt.length - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (viewAt[mid]! <= j) lo = mid;
          else hi = mid - 1;
        }
        return copied[lo] ? origAt[lo]! + (j - viewAt[lo]!) : origAt[lo]!;
      },
    };
  }

  private push(from: number, copied: boolean): void {
    this.viewAt.push(this.out.length);
    this.origAt.push(from);
    this.copied.push(copied);
  }
}

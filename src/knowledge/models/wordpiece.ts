/**
 * A BERT WordPiece tokenizer read from a Hugging Face `tokenizer.json` (model type `WordPiece`,
 * `BertNormalizer`, `BertPreTokenizer`: what Model2Vec's English models use), giving the token ids
 * of a text without the special tokens, as Model2Vec embeds it. Pure: no I/O.
 */
export interface WordPiece {
  /** the ids of `text`'s tokens, unknown and special tokens left out, at most `max` */
  encode(text: string, max?: number): number[];
  /** how many tokens the vocabulary has */
  size: number;
}

interface Normalizer {
  clean: boolean;
  chinese: boolean;
  lowercase: boolean;
  stripAccents: boolean;
}

const MARKS = /\p{M}/gu;
const CONTROL = /[\p{Cc}\p{Cf}]/u;
const SPACE = /[\s\p{Zs}]/u;
const PUNCT = /\p{P}/u;

/** BERT's punctuation: every ASCII non-alphanumeric printable, and Unicode punctuation. */
function isPunctuation(ch: string): boolean {
  const c = ch.codePointAt(0)!;
  if ((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126)) return true;
  return PUNCT.test(ch);
}

/** The CJK ideograph blocks BERT puts spaces around. */
function isChinese(c: number): boolean {
  return (
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x20000 && c <= 0x2a6df) ||
    (c >= 0x2a700 && c <= 0x2b73f) ||
    (c >= 0x2b740 && c <= 0x2b81f) ||
    (c >= 0x2b820 && c <= 0x2ceaf) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0x2f800 && c <= 0x2fa1f)
  );
}

function normalize(text: string, n: Normalizer): string {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (n.clean) {
      if (c === 0 || c === 0xfffd) continue;
      if (SPACE.test(ch)) {
        out += ' ';
        continue;
      }
      if (CONTROL.test(ch)) continue;
    }
    out += n.chinese && isChinese(c) ? ` ${ch} ` : ch;
  }
  if (n.lowercase) out = out.toLowerCase();
  if (n.stripAccents) out = out.normalize('NFD').replace(MARKS, '');
  return out;
}

/** Words as BertPreTokenizer splits them: at white space, each punctuation character a word of its own. */
function words(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (const ch of text) {
    if (SPACE.test(ch)) {
      if (cur) out.push(cur);
      cur = '';
    } else if (isPunctuation(ch)) {
      if (cur) out.push(cur);
      out.push(ch);
      cur = '';
    } else cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}

/** Throws an Error naming what of `tokenizer.json` this tokenizer cannot read. */
export function wordPieceFrom(json: unknown): WordPiece {
  const doc = (json ?? {}) as Record<string, unknown>;
  const model = (doc.model ?? {}) as Record<string, unknown>;
  if (model.type !== undefined && model.type !== 'WordPiece') throw new Error(`tokenizer.json: a ${String(model.type)} tokenizer; axme reads WordPiece ones`);
  if (!model.vocab || typeof model.vocab !== 'object') throw new Error('tokenizer.json: no model.vocab');
  // the parsed object is the table: copying 30,000 entries into a Map costs more than the parse
  const table = model.vocab as Record<string, unknown>;
  const vocab = {
    get(token: string): number | undefined {
      const id = Object.hasOwn(table, token) ? table[token] : undefined;
      return typeof id === 'number' && Number.isInteger(id) && id >= 0 ? id : undefined;
    },
  };
  const unkToken = typeof model.unk_token === 'string' ? model.unk_token : '[UNK]';
  const unk = vocab.get(unkToken);
  const prefix = typeof model.continuing_subword_prefix === 'string' ? model.continuing_subword_prefix : '##';
  const maxChars = typeof model.max_input_chars_per_word === 'number' ? model.max_input_chars_per_word : 100;
  const special = new Set<number>();
  if (unk !== undefined) special.add(unk);
  for (const t of Array.isArray(doc.added_tokens) ? doc.added_tokens : []) {
    const a = t as { id?: unknown; special?: unknown };
    if (a.special === true && typeof a.id === 'number') special.add(a.id);
  }
  const norm = (doc.normalizer ?? null) as Record<string, unknown> | null;
  if (norm && norm.type !== 'BertNormalizer') throw new Error(`tokenizer.json: a ${String(norm.type)} normalizer; axme reads BertNormalizer`);
  const lowercase = norm?.lowercase !== false;
  const n: Normalizer = {
    clean: norm?.clean_text !== false,
    chinese: norm?.handle_chinese_chars !== false,
    lowercase,
    stripAccents: typeof norm?.strip_accents === 'boolean' ? norm.strip_accents : lowercase,
  };

  /** One word's pieces, longest match first; the whole word unknown when a piece is missing. */
  const pieces = (word: string, out: number[]) => {
    const chars = [...word];
    if (chars.length > maxChars) return;
    const ids: number[] = [];
    let start = 0;
    while (start < chars.length) {
      let end = chars.length;
      let found: number | undefined;
      while (start < end) {
        const sub = (start > 0 ? prefix : '') + chars.slice(start, end).join('');
        found = vocab.get(sub);
        if (found !== undefined) break;
        end--;
      }
      if (found === undefined) return;
      ids.push(found);
      start = end;
    }
    for (const id of ids) if (!special.has(id)) out.push(id);
  };

  return {
    get size() {
      return Object.keys(table).length;
    },
    encode(text, max = Infinity) {
      const out: number[] = [];
      for (const w of words(normalize(text, n))) {
        pieces(w, out);
        if (out.length >= max) return out.slice(0, max);
      }
      return out;
    },
  };
}

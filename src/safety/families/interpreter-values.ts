import { namedDecoding } from '../decoders.ts';
import type { Lang } from './interpreter-argv.ts';
import { ATOMS, BARE, CLOSER, CONCAT, ESCAPES, type How, LISTS, PLAIN_SINGLE, POSTFIX, STRING_OPEN, STRING_START } from './interpreter-syntax.ts';

/**
 * The literal values in interpreter code (families/interpreter.ts): string literals in each
 * language's quoting, their concatenations, list literals of strings, and the few expressions that
 * name the home folder. Anything else — a variable, a call, an interpolation — is not a literal:
 * its value is null and the call that takes it is not seen.
 */

/** Stands for the home folder inside a value: `os.path.expanduser('~')`, `$ENV{HOME}`, `Dir.home`. */
export const HOME = '\uE001';

/** A string, a list of strings, the raw text of an object literal (`{recursive: true}`), or null: not a literal. */
export type Value = { str: string } | { list: string[] } | { raw: string } | null;

interface Read<T> {
  value: T;
  end: number;
}

const OPEN_AT = Object.fromEntries(Object.entries(STRING_OPEN).map(([k, v]) => [k, new RegExp(v, 'y')])) as Record<Lang, RegExp>;

/** A string literal starting at `i` (null when none opens there); its value is null when it interpolates something unknown. */
export function readString(src: string, i: number, lang: Lang): Read<string | null> | null {
  const open = OPEN_AT[lang];
  open.lastIndex = i;
  if (!open.test(src)) return null;
  // perl `q(…)` and ruby `%q(…)` take no interpolation, `qq(…)` and `%Q(…)` do
  if (src[i] === 'q') return src[i + 1] === 'q' ? readDelimited(src, i + 2, lang, true) : readDelimited(src, i + 1, lang, false);
  if (src[i] === '%') return readDelimited(src, i + 2, lang, src[i + 1] === 'Q');
  let k = i;
  let raw = false;
  let format = false;
  while (/[rRbBuUfF]/.test(src[k]!)) {
    raw ||= /[rR]/.test(src[k]!);
    format ||= /[fF]/.test(src[k]!);
    k++;
  }
  const q = src[k]!;
  if (lang === 'python' && src.startsWith(q.repeat(3), k)) return quoted(src, k + 3, q.repeat(3), lang, raw ? 'none' : 'python', format, true);
  if (lang === 'python') return quoted(src, k + 1, q, lang, raw ? 'none' : 'python', format, false);
  if (q === "'") return quoted(src, k + 1, q, lang, PLAIN_SINGLE.has(lang) ? 'quote' : 'all', false, lang !== 'js');
  // a JS template is a string; a perl, ruby or php backtick is a command (the caller knows which)
  const interpolates = lang === 'js' ? q === '`' : PLAIN_SINGLE.has(lang) || lang === 'julia';
  return quoted(src, k + 1, q, lang, 'all', interpolates, lang !== 'js' || q === '`');
}

/**
 * A string between delimiters at `at` (maybe after spaces): perl `q{…}`, `qq(…)`, `qx{…}`, ruby
 * `%q(…)`, `%x(…)`. Brackets pair and nest; a backslash escapes the delimiters and itself. When it
 * `interpolates` (and the delimiter is no `'`), the home folder is read and any other variable
 * makes the value null.
 */
export function readDelimited(src: string, at: number, lang: Lang, interpolates: boolean): Read<string | null> {
  let k = at;
  while (/\s/.test(src[k] ?? '')) k++;
  const open = src[k];
  if (open === undefined) return { value: null, end: k };
  const close = CLOSER[open] ?? open;
  let depth = 0;
  let body = '';
  let closed = false;
  for (k++; k < src.length; k++) {
    const c = src[k]!;
    if (c === '\\' && k + 1 < src.length) {
      body += src[k + 1] === close || src[k + 1] === open || src[k + 1] === '\\' ? src[k + 1] : c + src[k + 1];
      k++;
      continue;
    }
    if (c === close && depth === 0) {
      closed = true;
      break;
    }
    if (c === open && close !== open) depth++;
    else if (c === close) depth--;
    body += c;
  }
  const end = closed ? k + 1 : k;
  // unterminated: the rest is not code we can read
  if (!closed) return { value: null, end };
  if (!interpolates || open === "'") return { value: body, end };
  if (lang === 'perl') body = body.replace(/\$ENV\{\s*['"]?HOME['"]?\s*\}/g, HOME);
  if (lang === 'ruby') body = body.replace(/#\{\s*(?:Dir\.home|ENV\[\s*['"]HOME['"]\s*\])\s*\}/g, HOME);
  const unknown = lang === 'perl' ? /[$@][\w{:]/ : /#[{$@]/;
  return { value: unknown.test(body) ? null : body, end };
}

type Escapes = 'all' | 'python' | 'quote' | 'none';

/** The body of a quoted string up to `close`; `interpolates`: `${}`, `#{}`, `$var` are read (known) or make it unknown. */
function quoted(src: string, start: number, close: string, lang: Lang, escapes: Escapes, interpolates: boolean, multiline: boolean): Read<string | null> {
  let out = '';
  let known = true;
  let k = start;
  while (k < src.length) {
    if (src.startsWith(close, k)) return { value: known ? out : null, end: k + close.length };
    const c = src[k]!;
    if (c === '\n' && !multiline) break;
    if (c === '\\' && k + 1 < src.length && escapes !== 'none') {
      const e = escape(src, k, escapes, close);
      out += e.value;
      k = e.end;
      continue;
    }
    if (interpolates) {
      const part = interpolation(src, k, lang);
      if (part) {
        if (part.value === null) known = false;
        else out += part.value;
        k = part.end;
        continue;
      }
    }
    out += c;
    k++;
  }
  // unterminated: the rest is not code we can read
  return { value: null, end: k };
}

function escape(src: string, k: number, escapes: Escapes, close: string): Read<string> {
  const c = src[k + 1]!;
  if (escapes === 'quote') return c === '\\' || c === close ? { value: c, end: k + 2 } : { value: `\\${c}`, end: k + 2 };
  const hex = /^x([0-9a-fA-F]{2})|^u([0-9a-fA-F]{4})|^u\{([0-9a-fA-F]{1,6})\}/.exec(src.slice(k + 1, k + 10));
  if (hex) return { value: String.fromCodePoint(parseInt(hex[1] ?? hex[2] ?? hex[3]!, 16)), end: k + 1 + hex[0].length };
  if (c === '\n') return { value: '', end: k + 2 };
  if (ESCAPES[c] !== undefined) return { value: ESCAPES[c], end: k + 2 };
  if (escapes === 'python' && !`'"\\`.includes(c)) return { value: `\\${c}`, end: k + 2 };
  return { value: c, end: k + 2 };
}

/** An interpolation at `k`: its text (null when unknown), or null when none starts there. */
function interpolation(src: string, k: number, lang: Lang): Read<string | null> | null {
  const c = src[k];
  const next = src[k + 1] ?? '';
  if (lang === 'js' && c === '$' && next === '{') return embedded(src, k + 2, lang);
  // a Python f-string: `{{` is a brace, `{expr}` an expression
  if (lang === 'python' && (c === '{' || c === '}')) return next === c ? { value: c, end: k + 2 } : c === '{' ? embedded(src, k + 1, lang) : null;
  if (lang === 'ruby' && c === '#' && next === '{') return embedded(src, k + 2, lang);
  if (lang === 'ruby' && c === '#' && (next === '$' || next === '@')) return { value: null, end: k + 2 };
  if (lang === 'perl' && c === '$') {
    const env = /^\$ENV\{\s*['"]?HOME['"]?\s*\}/.exec(src.slice(k, k + 20));
    if (env) return { value: HOME, end: k + env[0].length };
    return /[\w{:]/.test(next) ? { value: null, end: k + 1 } : null;
  }
  if (lang === 'perl' && c === '@' && /[\w{]/.test(next)) return { value: null, end: k + 1 };
  if (lang === 'julia' && c === '$' && /[\w(]/.test(next)) return { value: null, end: k + 1 };
  if (lang === 'php' && (c === '$' || (c === '{' && next === '$')) && /[\w{$]/.test(next)) return { value: null, end: k + 1 };
  return null;
}

/** `${expr}` / `#{expr}`: the expression's value when it is a literal we read (`${os.homedir()}`). */
function embedded(src: string, start: number, lang: Lang): Read<string | null> {
  const close = src.indexOf('}', start);
  if (close < 0) return { value: null, end: src.length };
  const inner = src.slice(start, close).trim();
  const e = readExpr(inner, 0, lang);
  return { value: e.end >= inner.length ? e.value : null, end: close + 1 };
}

/** A path with a leading `~` expanded to the home folder. */
export function expandTilde(p: string): string {
  return p === '~' || p.startsWith('~/') ? HOME + p.slice(1) : p;
}

/** Paths joined as POSIX does: an absolute part starts over. */
export function joinPaths(parts: string[]): string {
  let out = '';
  for (const p of parts) out = p.startsWith('/') || p.startsWith(HOME) || out === '' ? p : `${out.replace(/\/+$/, '')}/${p}`;
  return out;
}

/** One literal, or a known expression, at `i`; null when none starts there. */
function readAtom(src: string, i: number, lang: Lang, nest: number): Read<string | null> | null {
  let r: Read<string | null> | null = readString(src, i, lang);
  // a perl, ruby or php backtick is a command, not a string
  if (r && src[i] === '`' && lang !== 'js') return { value: null, end: r.end };
  if (!r) {
    for (const [re, how] of ATOMS[lang]) {
      re.lastIndex = i;
      if (!re.test(src)) continue;
      if (how === 'home') {
        r = { value: HOME, end: re.lastIndex };
        break;
      }
      const args = readArgs(src, re.lastIndex, lang, undefined, nest + 1);
      if (!args.paren) return null;
      const strs = args.values.map((v) => (v && 'str' in v ? v.str : null));
      const ok = strs.length > 0 && strs.every((s) => s !== null);
      r = { value: ok ? valueOf(how, strs as string[]) : null, end: args.end };
      break;
    }
  }
  if (!r) return null;
  const post = POSTFIX[lang];
  if (post && r.value !== null) {
    for (;;) {
      post.lastIndex = r.end;
      const m = post.exec(src);
      if (!m) break;
      const before: string = r.value!;
      const value: string | null = m[4]
        ? (namedDecoding(m[4] === 'H*' ? 'hex' : 'base64')?.(before) ?? null)
        : m[1] === 'expanduser' || m[1] === 'expand_path'
          ? expandTilde(before)
          : before;
      r = { value, end: post.lastIndex };
      if (value === null) break;
    }
  }
  return r;
}

/** The value of a call of literal arguments (interpreter-syntax.ts ATOMS); null when a decoding fails or is not one the guard reads. */
function valueOf(how: Exclude<How, 'home'>, parts: string[]): string | null {
  const [first, second] = parts as [string, string | undefined];
  if (how === 'expand') return expandTilde(first);
  if (how === 'join') return joinPaths(parts);
  if (how === 'same') return first;
  // `Buffer.from(s)`, `codecs.decode(s)`: a text encoding; `Buffer.from(s, "hex")`: a decoding
  if (how === 'codec') return second === undefined ? first : (namedDecoding(second)?.(first) ?? null);
  // perl `pack("H*", "726d…")`: hex digits, high nybble first
  if (how === 'pack') return first === 'H*' && second !== undefined ? (namedDecoding('hex')!(second) ?? null) : null;
  return how(first);
}

/** An expression at `i`: literals joined by the language's concatenation; null value when any part is unknown. */
export function readExpr(src: string, i: number, lang: Lang, nest = 0): Read<string | null> {
  let out: string | null = null;
  let op = '';
  let k = skipSpace(src, i);
  for (;;) {
    const a = readAtom(src, k, lang, nest);
    if (!a || a.value === null) return { value: null, end: a ? a.end : k };
    out = out === null ? a.value : op === '/' ? joinPaths([out, a.value]) : out + a.value;
    const j = skipSpace(src, a.end);
    const concat = CONCAT[lang];
    concat.lastIndex = j;
    const m = concat.exec(src);
    if (!m) return { value: out, end: a.end };
    op = m[0];
    k = skipSpace(src, concat.lastIndex);
  }
}

const MAX_NEST = 16;

/** A value at `i`: a list literal, an object literal (raw), or an expression. */
export function readValue(src: string, i: number, lang: Lang, nest = 0): Read<Value> {
  const k = skipSpace(src, i);
  // brackets nested deeper than any real call: not read (and no deep recursion)
  if (nest > MAX_NEST) return { value: null, end: k };
  const list = LISTS[lang];
  list.lastIndex = k;
  const m = list.exec(src);
  if (m) {
    const open = m[1] ?? m[0].at(-1)!;
    const close = CLOSER[open] ?? open;
    // `qw(a b c)`, `%w[a b c]`: words
    if (m[1]) {
      const end = src.indexOf(close, list.lastIndex);
      if (end < 0) return { value: null, end: src.length };
      return { value: { list: src.slice(list.lastIndex, end).split(/\s+/).filter(Boolean) }, end: end + 1 };
    }
    const r = readArgs(src, list.lastIndex - 1, lang, close, nest + 1);
    // a list is read up to its first item that is not a literal: `['git', 'push', '-f', remote]` runs `git push -f ...`
    const known = r.values.findIndex((v) => !v || !('str' in v));
    const items = r.values.slice(0, known < 0 ? undefined : known).map((v) => (v as { str: string }).str);
    // Python `('x')` is a string in parentheses, not a tuple
    if (open === '(' && !r.comma && items.length === 1 && known < 0) return { value: { str: items[0]! }, end: r.end };
    return { value: items.length ? { list: items } : null, end: r.end };
  }
  if (src[k] === '{') {
    const end = skipBalanced(src, k, lang);
    return { value: { raw: src.slice(k, end) }, end };
  }
  const e = readExpr(src, k, lang, nest);
  return { value: e.value === null ? null : { str: e.value }, end: e.end };
}

export interface Args {
  values: Value[];
  end: number;
  /** the arguments were in brackets */
  paren: boolean;
  /** a comma separated two of them (or trailed the one) */
  comma: boolean;
}

/**
 * The arguments of a call at `i` (just past its name): in parentheses (or the brackets `open`
 * names when reading a list), or bare up to the end of the statement where the language allows.
 */
export function readArgs(src: string, i: number, lang: Lang, close?: string, nest = 0): Args {
  let k = i;
  while (src[k] === ' ' || src[k] === '\t') k++;
  let closer: string | null = null;
  if (close !== undefined) {
    closer = close;
    k++;
  } else if (src[k] === '(' && lang !== 'lisp') {
    // a Lisp's `(` after a form's head opens a form among its arguments, not their list
    closer = ')';
    k++;
  } else if (!BARE.has(lang)) return { values: [], end: k, paren: false, comma: false };
  const values: Value[] = [];
  let comma = false;
  // Julia's `;` in a call starts its keyword arguments (`rm(homedir(); recursive=true)`): a separator as `,` is
  const separates = (c: string | undefined) => c === ',' || (c === ';' && lang === 'julia' && closer === ')');
  for (let n = 0; n < 64; n++) {
    k = skipSpace(src, k);
    if (k >= src.length || src[k] === closer || (closer === null && /[;\n})\]]/.test(src[k]!))) break;
    const v = readValue(src, k, lang, nest);
    let value = v.value;
    k = skipSpace(src, v.end);
    if (closer !== null && !separates(src[k]) && src[k] !== closer) {
      // `'x' % y`, `'a'.format(b)`: the literal is only part of the argument
      value = null;
      k = skipTo(src, k, lang, closer);
    } else if (closer === null && value === null) k = skipTo(src, k, lang, null);
    values.push(value);
    // a Lisp's arguments stand side by side to the form's `)`: `(sh "rm" "-rf" x)`
    if (lang === 'lisp' && closer === null) {
      if (k >= src.length || src[k] === ')' || k === v.end) break;
      comma = true;
      continue;
    }
    if (!separates(src[k])) break;
    comma = true;
    k++;
  }
  if (closer !== null && src[k] === closer) k++;
  return { values, end: k, paren: closer !== null, comma };
}

function skipSpace(src: string, k: number): number {
  while (k < src.length && /\s/.test(src[k]!)) k++;
  return k;
}

/** Past the bracketed text opening at `k` (strings inside skipped). */
function skipBalanced(src: string, k: number, lang: Lang): number {
  const end = skipTo(src, k + 1, lang, CLOSER[src[k]!]!, false);
  return end < src.length ? end + 1 : end;
}

/**
 * The next `closer` at this depth from `k` — or, with `commas`, the next `,` (for a bare call,
 * `closer` null: the end of the statement) — skipping strings and bracketed text.
 */
function skipTo(src: string, k: number, lang: Lang, closer: string | null, commas = true): number {
  let depth = 0;
  while (k < src.length) {
    const c = src[k]!;
    if (depth === 0 && (c === closer || (commas && (c === ',' || (closer === null && (c === ';' || c === '\n')))))) return k;
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) return k;
      depth--;
    } else if (STRING_START[lang].includes(c)) {
      const s = readString(src, k, lang);
      if (s) {
        k = Math.max(s.end, k + 1);
        continue;
      }
    }
    k++;
  }
  return k;
}

import { type BraceMarks, braceAlternatives } from '../model/glob.ts';
import type { Redirect, Script, SimpleCommand, Word } from './syntax.ts';

/**
 * The expansions the shell applies to a parsed word that the parser leaves marked: brace
 * expansion and word splitting; ANSI-C quoting (`$'...'`); and the text of a command substitution
 * the command line already tells (`$(echo …)`). Pure string work.
 */

/** Stands for text only known when the command runs (`$VAR`, `$(...)`): it matches no literal. */
export const UNKNOWN = '\uE000';

/** Marks where an unquoted `$IFS` (or a variable's whitespace) splits a word. */
export const SPLIT = '\u0001';
/** Unquoted `{`, `,`, `}`: a brace expansion when they form `{a,b}`, else themselves. */
export const B_OPEN = '\u0002';
export const B_COMMA = '\u0003';
export const B_CLOSE = '\u0004';
/**
 * A loop variable's values where it stands in a word (`for d in a /; do bash -c "rm -rf $d"`):
 * the body runs once per value, so the command is read once per value (pinLoop), each use of the
 * variable in it taking that value — not its values side by side as `"$@"` gives them. The group
 * names its loop first (`L_OPEN id L_SEP value L_SEP value … L_CLOSE`): the variables of nested
 * loops are each their own dimension, their runs crossed (loopRunPins).
 */
export const L_OPEN = '\u0005';
export const L_SEP = '\u0006';
export const L_CLOSE = '\u0007';
const LOOP_GROUP = /\u0005([^\u0005\u0007]*)\u0007/g;
/**
 * The most words one word's brace expansion may become (`mkdir -p {a,b,c,d}/{e,f,g,h}/{i,j,k,l}`
 * is 64): past it the command line is too large to check and denied (expandWord), never read as
 * its first words only.
 */
const MAX_EXPANSIONS = 1_024;
const MARKED_BRACES: BraceMarks = { open: B_OPEN, comma: B_COMMA, close: B_CLOSE };
/** The most values of one loop variable a command of its body is read with (one run each); past it the variable is unknown. */
export const MAX_LOOP_RUNS = 64;
/**
 * The most runs a command of nested loops' bodies is read as: its loop variables' values crossed
 * (loopRunPins). About 0.1 ms a run: 1,024 keep one command near 0.1 s of CPU (two loops of 30
 * values, 900 runs: `bench/guard-loops.bench.ts`), and the work budget bounds a line of many.
 */
export const MAX_LOOP_COMBINATIONS = 1_024;
/** Any of the marks expandWord acts on: SPLIT, B_OPEN, B_COMMA, B_CLOSE. */
const MARKS = /[\u0001-\u0004]/;

/**
 * The words one parsed word becomes: brace expansion (`{rm,-rf,~}`, `.e{n,}v`), then splitting.
 * A word that expands to more than MAX_EXPANSIONS words calls `tooMany` (the parser then holds
 * its line too large to check) and stands as one unknown word.
 */
export function expandWord(w: Word, home: string, tooMany: () => void): Word[] {
  // most words have no brace, comma or split mark: they stay as they are
  if (!MARKS.test(w.value)) return [w];
  let values = [w.value];
  if (w.value.includes(B_OPEN)) {
    const expanded = expandBraces(w.value);
    if (!expanded) tooMany();
    values = expanded ?? [UNKNOWN];
    // tilde expansion comes after brace expansion
    values = values.map((v) => (v === '~' || v.startsWith('~/') ? home + v.slice(1) : v));
  }
  const out: Word[] = [];
  for (const v of values) {
    const plain = v.replace(/[\u0002-\u0004]/g, (m) => (m === B_OPEN ? '{' : m === B_CLOSE ? '}' : ','));
    const parts = plain.includes(SPLIT) ? plain.split(SPLIT).filter(Boolean) : [plain];
    for (const value of parts)
      out.push(values.length > 1 || parts.length > 1 ? { ...w, value, leadingVar: value.startsWith(UNKNOWN) ? w.leadingVar : null } : { ...w, value });
  }
  return out.length ? out : [{ ...w, value: '' }];
}

/** Loop `id`'s values as they stand in a word: one of them in each run of the body (pinLoop). */
export function loopValue(id: number, values: readonly string[]): string {
  return values.length === 1 ? values[0]! : L_OPEN + [String(id), ...values].join(L_SEP) + L_CLOSE;
}

/**
 * The loops whose values `value` holds, each with its number of values: the most of any group
 * naming it, and at least 1 (the marks can also come from the command line itself, `$'\005'`:
 * every group still takes each of its values in some run, and no command reads as none).
 */
export function loopsIn(value: string, into = new Map<string, number>()): Map<string, number> {
  if (!value.includes(L_OPEN)) return into;
  for (const m of value.matchAll(LOOP_GROUP)) {
    const [id, ...values] = m[1]!.split(L_SEP);
    into.set(id!, Math.max(1, values.length, into.get(id!) ?? 0));
  }
  return into;
}

/** Which value each loop takes in a run: loop id to the index of its value (past its count, its last). */
export type LoopPins = ReadonlyMap<string, number>;

/**
 * The runs of a loop body that `loops` (loopsIn) make: every combination of their values, or
 * null when there are more than MAX_LOOP_COMBINATIONS of them.
 */
export function loopRunPins(loops: ReadonlyMap<string, number>): LoopPins[] | null {
  let runs: Array<Map<string, number>> = [new Map()];
  for (const [id, count] of loops) {
    if (runs.length * count > MAX_LOOP_COMBINATIONS) return null;
    runs = runs.flatMap((pins) => Array.from({ length: count }, (_, i) => new Map(pins).set(id, i)));
  }
  return runs;
}

/** `value` in one run of the loop body: each loop's values give way to the one `pins` names for it. */
export function pinLoop(value: string, pins: LoopPins | number): string {
  return value.replace(LOOP_GROUP, (_, group: string) => {
    const [id, ...values] = group.split(L_SEP);
    const run = typeof pins === 'number' ? pins : (pins.get(id!) ?? 0);
    return values[Math.min(run, values.length - 1)] ?? '';
  });
}

/** Every value `value` takes over the runs of the loops it is in (their values crossed); UNKNOWN alone past MAX_LOOP_COMBINATIONS. */
export function loopAlternatives(value: string): string[] {
  const loops = loopsIn(value);
  if (!loops.size) return [value];
  const runs = loopRunPins(loops);
  return runs ? runs.map((pins) => pinLoop(value, pins)) : [UNKNOWN];
}

/** An assignment's value (`x=$(echo a b)`, `x={a,b}`): neither split nor brace-expanded, the marks are the characters again. */
export function unsplit(w: Word): Word {
  if (!MARKS.test(w.value)) return w;
  return { ...w, value: w.value.replace(/[\u0001-\u0004]/g, (m) => (m === SPLIT ? ' ' : m === B_OPEN ? '{' : m === B_CLOSE ? '}' : ',')) };
}

/** Bash brace expansion of a marked value (nested groups included); null past MAX_EXPANSIONS words. */
export function expandBraces(v: string): string[] | null {
  return braceAlternatives(v, MAX_EXPANSIONS, MARKED_BRACES);
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** Decodes `$'...'` whose body starts at `from`; returns the text and the index after the closing quote. */
export function decodeAnsiC(src: string, from: number): [string, number] {
  let out = '';
  let pos = from;
  while (pos < src.length && src[pos] !== "'") {
    const c = src[pos]!;
    if (c !== '\\') {
      out += c;
      pos++;
      continue;
    }
    const escape = escapeAt(src.slice(pos + 1, pos + 10), SIMPLE_ESCAPES, OCTAL);
    if (escape) {
      out += escape[0];
      pos += 1 + escape[1];
    } else {
      out += '\\';
      pos++;
    }
  }
  return [out, pos + 1];
}

/**
 * What a command substitution stands for in its word: the text it prints when that is known from
 * the command line alone — one `echo` or `printf` of literal words (`$(echo rm -rf ~)`,
 * `"$(printf '%s\n' a b)"`) — split into words where it is unquoted; else UNKNOWN.
 */
export function substituted(sub: Script, inDouble: boolean): string {
  const text = staticOutput(sub);
  if (text === null) return UNKNOWN;
  const out = text.replace(/\n+$/, '');
  return inDouble ? out : out.replace(/[ \t\n]+/g, SPLIT);
}

/** What a substitution's script prints when it is one `echo` or `printf` of literal words; else null. */
export function staticOutput(sub: Script): string | null {
  return sub.commands.length === 1 && !sub.tooDeep ? printedText(sub.commands[0]!) : null;
}

/**
 * The text `echo` or `printf` with literal words prints (escapes of `echo -e` and printf's format
 * read, `%s` filled), or `cat` given only a heredoc or a here-string (`$(cat <<'EOF' … EOF)`, the
 * shape agents write commit messages in); null otherwise.
 */
function printedText(cmd: SimpleCommand): string | null {
  const [program, ...args] = cmd.words.map((x) => x.value);
  if (cmd.words.some((x) => x.value.includes(UNKNOWN) || x.value.includes(SPLIT))) return null;
  if (program === 'cat' && cmd.redirects.length === 1 && (args.length === 0 || (args.length === 1 && args[0] === '-'))) return fedByItself(cmd.redirects[0]!);
  if (cmd.redirects.length) return null;
  return program === undefined ? null : printedBy(program, args);
}

/**
 * The text a heredoc or here-string gives its program, when the command line alone says it: a
 * here-string's word (its newline added), a quoted heredoc's body, an unquoted one's when it holds
 * nothing the shell would expand (`$`, a backtick, a backslash); null otherwise.
 */
export function fedByItself(r: Redirect): string | null {
  if (r.input === null || r.input.includes(UNKNOWN) || r.input.includes(SPLIT)) return null;
  if (r.op === '<<<') return r.subs?.length ? null : `${r.input}\n`;
  if (r.op !== '<<' && r.op !== '<<-') return null;
  // an unquoted heredoc's body is expanded (its `subs` are the substitutions found in it)
  if (r.subs !== undefined && /[$`\\]/.test(r.input)) return null;
  return `${r.input}\n`;
}

/**
 * The text `program` (`echo` or `printf`) prints given `args` (`echo -e`'s escapes and printf's
 * format read, `%s` and `%b` filled); null for another program, printf with another directive
 * (`%d`) or an option (`-v`), and arguments past 64 KiB.
 */
export function printedBy(program: string, argValues: readonly string[]): string | null {
  const args = [...argValues];
  if (args.join('').length > 65536) return null;
  if (program === 'echo') {
    let escapes = false;
    let newline = true;
    while (args[0] && /^-[neE]+$/.test(args[0])) {
      const flags = args.shift()!;
      if (flags.includes('n')) newline = false;
      if (flags.includes('e')) escapes = true;
    }
    const line = args.join(' ');
    if (!escapes) return line + (newline ? '\n' : '');
    const [text, stopped] = decodeEscapes(line, true);
    return text + (newline && !stopped ? '\n' : '');
  }
  if (program !== 'printf') return null;
  if (args[0] === '--') args.shift();
  if (args[0] === undefined || args[0].startsWith('-')) return null;
  const format = args.shift()!;
  // only `%s`, `%b` (and `%%`): other directives format numbers, widths and the like
  if (/%(?![sb%])/.test(format)) return null;
  let out = '';
  do {
    // the format's escapes are read before its directives are filled: an argument's `\` is its own (but `%b`'s)
    for (const piece of format.split(/(%[sb%])/)) {
      const [text, stopped] =
        piece === '%%'
          ? ['%', false]
          : piece === '%s'
            ? [args.shift() ?? '', false]
            : piece === '%b'
              ? decodeEscapes(args.shift() ?? '', true)
              : decodeEscapes(piece, false);
      out += text;
      // `\c` ends all output
      if (stopped) return out;
    }
  } while (args.length && /%[sb]/.test(format) && out.length <= 65536);
  return out;
}

const PRINTF_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  e: '\x1b',
  E: '\x1b',
  '"': '"',
  "'": "'",
};

/** `echo -e`'s and `%b`'s escapes: printf's, but a quote after a backslash is the two characters. */
const ECHO_ESCAPES: Record<string, string> = Object.fromEntries(Object.entries(PRINTF_ESCAPES).filter(([k]) => k !== '"' && k !== "'"));
/** An octal escape: `\NNN` ($'…' and printf's format), `\0NNN` (echo -e and %b). */
const OCTAL = /^([0-7]{1,3})/;
const ECHO_OCTAL = /^0([0-7]{0,3})/;

/**
 * One backslash escape at the start of `rest` (what follows the backslash) — one of `simple`'s
 * letters, `xHH`, `uHHHH`, `UHHHHHHHH` or an `octal` one — as its text and how many characters of
 * `rest` it took; null for an escape the shell leaves as written. The escapes of `$'…'`, printf
 * and `echo -e` differ only in `simple` and `octal`.
 */
function escapeAt(rest: string, simple: Record<string, string>, octal: RegExp): [string, number] | null {
  const letter = rest[0] === undefined ? undefined : simple[rest[0]];
  if (letter !== undefined) return [letter, 1];
  let m: RegExpExecArray | null;
  if ((m = /^x([0-9a-fA-F]{1,2})/.exec(rest)) || (m = /^u([0-9a-fA-F]{1,4})/.exec(rest)) || (m = /^U([0-9a-fA-F]{1,8})/.exec(rest))) {
    const cp = parseInt(m[1]!, 16);
    return [cp <= 0x10ffff ? String.fromCodePoint(cp) : '', m[0].length];
  }
  if ((m = octal.exec(rest))) return [String.fromCharCode(parseInt(m[1] || '0', 8) & 0xff), m[0].length];
  return null;
}

/**
 * The escapes of a printf format (`\NNN` octal) or of `echo -e` and `%b` (`echoStyle`: `\0NNN`):
 * `\n`, `\xHH`, `\uHHHH` …; an unknown one stays as written, as the shell leaves it. Returns the
 * text and whether a `\c` ended the output there.
 */
function decodeEscapes(s: string, echoStyle: boolean): [string, boolean] {
  if (!s.includes('\\')) return [s, false];
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\' || i + 1 >= s.length) {
      out += c;
      continue;
    }
    const rest = s.slice(i + 1, i + 11);
    if (rest[0] === 'c') return [out, true];
    const escape = echoStyle ? escapeAt(rest, ECHO_ESCAPES, ECHO_OCTAL) : escapeAt(rest, PRINTF_ESCAPES, OCTAL);
    if (escape) {
      out += escape[0];
      i += escape[1];
    } else out += c;
  }
  return [out, false];
}

import { type Invocation, programName } from './command.ts';
import { stdinDecoding } from './decoders.ts';
import { printedBy } from './expand.ts';
import { sedLine } from './sed-script.ts';
import type { Word } from './syntax.ts';

/**
 * What a pipeline stage writes of the text it reads on stdin, where its words tell it: the one
 * table of the programs that pass text on (`| grep x | sh`, `| sed 's/a/b/' | bash`, `| awk
 * '{print}' | sh`). A program passes the lines it reads unchanged, some of them at least (`kept`:
 * read whole, the safe side — so are the names a listing prints, for what xargs hands on), or a
 * transform of them its words tell; with words it does not read (`sed "$S"`, `awk '{print $2}'`,
 * a file operand) what it writes is unknown, as the text of any other program.
 */
export type Passing = 'kept' | ((text: string) => string | null) | null;

const kept = (): Passing => 'kept';

/** The operands of a command line whose options are `valued` (take the next word) or flags: what is left once they are skipped. */
function operands(args: readonly string[], valued: RegExp): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!;
    if (v === '--') return [...out, ...args.slice(i + 1)];
    if (v.startsWith('-') && v !== '-') {
      if (valued.test(v)) i++;
      continue;
    }
    out.push(v);
  }
  return out;
}

/** Regular-expression characters: a sed pattern without them is its literal text. */
const REGEX_CHARS = /[.[\]*^$\\+?(){}|]/;

/**
 * `sed` reading stdin: `p` (with `-n` or without), `-n '1,5p'`, an empty script, `s/^//` keep the
 * lines; `s/LIT/TEXT/` and `s/LIT/TEXT/g` with a literal pattern and replacement (no `&`, no
 * escape) replace it in each line; anything else (another command, a regular expression, a
 * script only the shell knows, `e`: sed-script.ts) is unknown.
 */
function sedPasses(args: readonly Word[]): Passing {
  const line = sedLine(args);
  if (line.inputs.length || line.scriptFiles.length || line.inPlace || line.scripts.length !== 1) return null;
  const script = line.scripts[0]!.value.trim();
  if (/^(([0-9]+|\$)(,([0-9]+|\$))?)?p?$/.test(script)) return 'kept';
  if (/^s(.)\^?\1\1g?$/.test(script)) return 'kept';
  // `s/^/TEXT/`, `s/$/TEXT/`: a literal text put before or after each line (`echo ~ | sed 's/^/rm -rf /' | sh`)
  const anchored = /^s([/|#,:@])([\^$])\1([^/|#,:@\n]*)\1g?$/.exec(script);
  if (anchored) {
    const [, , at, text] = anchored as unknown as [string, string, string, string];
    if (/[&\\]/.test(text)) return null;
    return (input) =>
      input
        .split('\n')
        .map((l, i, all) => (i === all.length - 1 && l === '' ? l : at === '^' ? text + l : l + text))
        .join('\n');
  }
  const m = /^s([/|#,:@])([^/|#,:@\n]*)\1([^/|#,:@\n]*)\1(g?)$/.exec(script);
  if (!m || m[1] === undefined) return null;
  const [, , from, to, global] = m as unknown as [string, string, string, string, string];
  if (!from || REGEX_CHARS.test(from) || /[&\\]/.test(to)) return null;
  return (text) =>
    text
      .split('\n')
      .map((l) => (global ? l.split(from).join(to) : l.replace(from, () => to)))
      .join('\n');
}

/**
 * `awk` reading stdin with a program that prints each line as read (`{print}`, `{print $0}`,
 * `1`), or a line made of literal strings and its fields (`{print "rm -rf " $0}`, `{print "x", $2}`:
 * joined, or by a space at a comma), fields split at blanks or at a `-F` of one character.
 */
function awkPasses(args: readonly Word[]): Passing {
  const values = args.map((a) => a.value);
  const rest = operands(values, /^(-F|-v|-f|--field-separator|--assign|--file)$/);
  if (rest.length !== 1 || values.some((v) => /^(-v|-f|--assign|--file)/.test(v))) return null;
  if (/^\s*(1|\{\s*print(\s+\$0)?\s*;?\s*\})\s*$/.test(rest[0]!)) return 'kept';
  const items = awkPrintItems(rest[0]!);
  const fs = awkSeparator(values);
  if (!items || fs === undefined) return null;
  return (text) =>
    text
      .split('\n')
      .map((line, i, all) => {
        if (i === all.length - 1 && line === '') return line;
        const fields = fs === null ? line.trim().split(/[ \t]+/) : line.split(fs);
        return items.map((it) => (typeof it === 'string' ? it : it === 0 ? line : it === -1 ? (fields.at(-1) ?? '') : (fields[it - 1] ?? ''))).join('');
      })
      .join('\n');
}

/** The items of `{ print ITEM… }`: a literal string (no escape), or a field (0 the line, -1 `$NF`); a comma as a space. Null for any other program. */
function awkPrintItems(program: string): Array<string | number> | null {
  const body = /^\s*\{\s*print\s+(.*?)\s*;?\s*\}\s*$/s.exec(program)?.[1];
  if (!body) return null;
  const items: Array<string | number> = [];
  const token = /\s*(?:"([^"\\]*)"|\$(\d+|NF)|(,))/y;
  let at = 0;
  while (at < body.length) {
    token.lastIndex = at;
    const m = token.exec(body);
    if (!m) return body.slice(at).trim() === '' ? items : null;
    if (m[1] !== undefined) items.push(m[1]);
    else if (m[2] !== undefined) items.push(m[2] === 'NF' ? -1 : Number(m[2]));
    else items.push(' ');
    at = token.lastIndex;
  }
  return items.length ? items : null;
}

/** awk's field separator: null for the default (blanks), the one character `-F` gives, undefined for one it cannot tell (a pattern). */
function awkSeparator(values: readonly string[]): string | null | undefined {
  const at = values.findIndex((v) => v.startsWith('-F') || v.startsWith('--field-separator'));
  if (at < 0) return null;
  const v = values[at]!;
  const sep = v === '-F' || v === '--field-separator' ? values[at + 1] : v.startsWith('-F') ? v.slice(2) : v.slice(v.indexOf('=') + 1);
  return sep !== undefined && sep.length === 1 && sep !== ' ' ? sep : undefined;
}

/**
 * `cut -c LIST`, `cut -b LIST` (characters), `cut -f LIST [-d X]` (fields, at a tab or X; a line
 * without the delimiter whole): what each line keeps of LIST's ranges (`3-`, `1,4`, `2-5`, `-3`).
 * `cut -c1-` keeps every line. Null with a file operand or another option.
 */
function cutPasses(args: readonly Word[]): Passing {
  const values = args.map((a) => a.value);
  const files = operands(values, /^-[bcfd]$/);
  const picked = values.flatMap((v, i) => (/^-[bcf]$/.test(v) ? [[v[1]!, values[i + 1] ?? '']] : /^-[bcf]./.test(v) ? [[v[1]!, v.slice(2)]] : []));
  if (files.length || picked.length !== 1) return null;
  const [kind, list] = picked[0]! as [string, string];
  if (list === '1-') return 'kept';
  const ranges = cutRanges(list);
  const d = values.findIndex((v) => v.startsWith('-d'));
  const delimiter = d < 0 ? '\t' : values[d] === '-d' ? values[d + 1] : values[d]!.slice(2);
  if (
    !ranges ||
    values.some((v, i) => v.startsWith('-') && !/^-[bcfd]/.test(v) && !/^-[bcfd]$/.test(values[i - 1] ?? '')) ||
    (kind === 'f' && delimiter?.length !== 1)
  )
    return null;
  const keeps = (n: number) => ranges.some(([a, b]) => n >= a && n <= b);
  return (text) =>
    text
      .split('\n')
      .map((line) => {
        if (kind !== 'f') return [...line].filter((_, i) => keeps(i + 1)).join('');
        if (!line.includes(delimiter!)) return line;
        return line
          .split(delimiter!)
          .filter((_, i) => keeps(i + 1))
          .join(delimiter!);
      })
      .join('\n');
}

/** cut's LIST as ranges from 1 (`3-`: 3 to the end, `-2`: 1 to 2); null for one it cannot read. */
function cutRanges(list: string): Array<[number, number]> | null {
  const out: Array<[number, number]> = [];
  for (const part of list.split(',')) {
    const m = /^(\d*)(-?)(\d*)$/.exec(part);
    if (!m || part === '' || part === '-') return null;
    const from = m[1] ? Number(m[1]) : 1;
    const to = m[2] ? (m[3] ? Number(m[3]) : Number.POSITIVE_INFINITY) : from;
    if (from < 1 || to < from) return null;
    out.push([from, to]);
  }
  return out;
}

/** The classes a `tr` set may name (`[:upper:]`), spelled out in tr's order. */
const TR_CLASSES: Record<string, string> = {
  lower: 'abcdefghijklmnopqrstuvwxyz',
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  digit: '0123456789',
  blank: ' \t',
  space: ' \t\n\v\f\r',
};
TR_CLASSES.alpha = TR_CLASSES.upper! + TR_CLASSES.lower;
TR_CLASSES.alnum = TR_CLASSES.digit! + TR_CLASSES.alpha;
const TR_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', v: '\v', f: '\f', '\\': '\\' };

/**
 * A `tr` set spelled out: literal characters, ranges (`a-z`), the classes above (`[:lower:]`),
 * the escapes `\n`, `\t`, `\\`, `\NNN`; a bracket is itself (`[a-z]` maps `[` to what stands
 * there in the other set, as GNU tr does). Null for `[=c=]`, `[c*n]`, another class or escape, or
 * a range backwards.
 */
function trSet(set: string): string | null {
  if (/\[[=.]|\[[^\]]\*/.test(set)) return null;
  const chars: string[] = [];
  for (let i = 0; i < set.length; ) {
    const cls = /^\[:(\w+):\]/.exec(set.slice(i));
    if (cls) {
      const spelled = TR_CLASSES[cls[1]!];
      if (spelled === undefined) return null;
      chars.push(...spelled);
      i += cls[0].length;
      continue;
    }
    if (set[i] === '\\' && i + 1 < set.length) {
      const octal = /^[0-7]{1,3}/.exec(set.slice(i + 1));
      const c = octal ? String.fromCharCode(parseInt(octal[0], 8)) : TR_ESCAPES[set[i + 1]!];
      if (c === undefined) return null;
      chars.push(c);
      i += 1 + (octal ? octal[0].length : 1);
      continue;
    }
    chars.push(String.fromCodePoint(set.codePointAt(i)!));
    i += chars.at(-1)!.length;
  }
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const from = chars[i]!;
    const to = chars[i + 2];
    if (chars[i + 1] === '-' && to !== undefined) {
      if (to < from) return null;
      for (let c = from.codePointAt(0)!; c <= to.codePointAt(0)!; c++) out += String.fromCodePoint(c);
      i += 2;
    } else out += from;
  }
  return out;
}

/**
 * `tr SET1 SET2` (`tr A-Za-z N-ZA-Mn-za-m`, `tr '[:upper:]' '[:lower:]'`): each character mapped,
 * SET2 stretched by its last character where it is shorter (GNU tr); `tr a a` keeps the text;
 * `tr -d SET` deletes its characters, `tr -s SET` squeezes their runs. Null for `-c` and for
 * sets it does not spell out.
 */
function trPasses(args: readonly Word[]): Passing {
  const values = args.map((a) => a.value);
  const flag = values.length === 2 && /^-[ds]$/.test(values[0]!) ? values[0]! : null;
  if (flag) {
    const set = trSet(values[1]!);
    if (set === null) return null;
    const chars = new Set(set);
    if (flag === '-d') return (text) => [...text].filter((c) => !chars.has(c)).join('');
    return (text) => [...text].filter((c, i, all) => !(chars.has(c) && all[i - 1] === c)).join('');
  }
  if (values.length !== 2 || values.some((v) => v.startsWith('-'))) return null;
  const [from, to] = values.map(trSet) as [string | null, string | null];
  if (from === null || to === null || !to.length) return null;
  if (from === to) return 'kept';
  const map = new Map<string, string>();
  const target = [...to];
  [...from].forEach((c, i) => map.set(c, target[Math.min(i, target.length - 1)]!));
  return (text) => [...text].map((c) => map.get(c) ?? c).join('');
}

/** `rev`: each line reversed. */
function revPasses(args: readonly Word[]): Passing {
  if (args.length) return null;
  return (text) =>
    text
      .split('\n')
      .map((l) => [...l].reverse().join(''))
      .join('\n');
}

/** `paste -s -d X` (`-sd X`): the lines joined by X (a tab without `-d`); `paste` or `paste -` of stdin alone keeps them. */
function pastePasses(args: readonly Word[]): Passing {
  const values = args.map((a) => a.value);
  let serial = false;
  let delimiter = '\t';
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v === '-') continue;
    const m = /^-(s?)(d?)(s?)(.*)$/s.exec(v);
    if (!m || !v.startsWith('-')) return null;
    if (m[1] || m[3]) serial = true;
    if (m[2]) delimiter = (m[4] || values[++i]) ?? '';
    else if (m[4]) return null;
  }
  if (!serial) return 'kept';
  if (delimiter.length > 1 || delimiter.includes('\\')) return null;
  return (text) => `${text.replace(/\n$/, '').split('\n').join(delimiter)}\n`;
}

/**
 * `xargs [-0] echo ARGS`: echo (or printf) run with the words read appended — split at blanks, or
 * at NUL with `-0` (a text with none is one word) — as it prints them.
 */
function xargsPrints(inv: Invocation): Passing {
  const nul = inv.command.words.some((w) => w.value === '-0' || w.value === '--null');
  const args = inv.args.map((a) => a.value);
  return (text) => {
    const words = (nul ? text.split('\0') : text.split(/[ \t\n]+/)).filter(Boolean);
    return printedBy(inv.program, [...args, ...words]) ?? '';
  };
}

/** The one table: each program that passes text on, and what it writes of it given its words. */
const TEXT_FILTERS: Record<string, (args: readonly Word[]) => Passing> = {
  grep: kept,
  egrep: kept,
  fgrep: kept,
  sort: kept,
  head: kept,
  tail: kept,
  uniq: kept,
  shuf: kept,
  tac: kept,
  cat: kept,
  tee: kept,
  // `column -t` only moves the words apart; plain `column` puts lines side by side
  column: (args) => (args.length === 1 && args[0]!.value === '-t' ? 'kept' : null),
  sed: sedPasses,
  awk: awkPasses,
  gawk: awkPasses,
  mawk: awkPasses,
  cut: cutPasses,
  tr: trPasses,
  rev: revPasses,
  paste: pastePasses,
};

/** An awk program that prints only fields of each line (`{print $NF}`, `{print $2, $1}`): the words it reads, some of them. */
const AWK_FIELDS = /^\s*\{\s*print\s+\$(\d+|NF|\(NF-\d+\))(\s*,?\s*\$(\d+|NF|\(NF-\d+\)))*\s*;?\s*\}\s*$/;

/**
 * Whether `inv` selects or reorders fields of the lines it reads on stdin: `cut -f2` (no file
 * operand), awk printing only fields (`awk '{print $NF}'`). A name a listing printed in a field
 * (`du .env`, `ls -l .env`) reaches the next stage as itself (fed-input.ts PipeReading nameSource).
 */
export function selectsFields(inv: Invocation): boolean {
  if (inv.via.includes('xargs')) return false;
  const name = programName(inv.program);
  const values = inv.args.map((a) => a.value);
  if (name === 'cut') return values.some((v) => v.startsWith('-f') || v.startsWith('--fields')) && !operands(values, /^(-[bcfd]|--fields|--delimiter)$/).length;
  if (name !== 'awk' && name !== 'gawk' && name !== 'mawk') return false;
  const rest = operands(values, /^(-F|-v|--field-separator|--assign)$/);
  return rest.length === 1 && AWK_FIELDS.test(rest[0]!);
}

/** What `inv` writes of the text it reads on stdin (see the module comment); null for a program that passes nothing the command line tells. */
export function passing(inv: Invocation): Passing {
  if (inv.via.includes('xargs')) return inv.program === 'echo' || inv.program === 'printf' ? xargsPrints(inv) : null;
  const name = programName(inv.program);
  // the decoders (decoders.ts): what they write is the decoding of a literal they read
  return TEXT_FILTERS[name]?.(inv.args) ?? stdinDecoding(name, inv.args);
}

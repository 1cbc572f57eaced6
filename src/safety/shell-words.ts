/**
 * Reading the words of a command line (shell.ts's parser is built on it): quotes removed, escapes
 * applied, `$NAME`, `${…}` and `~` expanded where the command line tells their value (shell-vars.ts),
 * and the commands of `$( )`, backticks, `<( )` and arithmetic handed to a parser one level deeper.
 */

import { B_CLOSE, B_COMMA, B_OPEN, decodeAnsiC, L_OPEN, SPLIT, substituted, UNKNOWN } from './expand.ts';
import { applyParameterOperator } from './parameter-operators.ts';
import type { ShellVars } from './shell-vars.ts';
import type { Script, SimpleCommand, Word } from './syntax.ts';

/** Nesting deeper than this is denied as too deep to check. */
export const MAX_DEPTH = 40;

/** A parser's cursor over one text, and what it has found so far; shell.ts's Parser reads the rest of the grammar. */
export abstract class WordReader {
  pos = 0;
  out: SimpleCommand[] = [];
  tooDeep = false;
  /** a word's brace expansion is too large to read: the line is too large to check (expand.ts expandWord) */
  protected readonly tooManyWords = (): void => {
    this.tooDeep = true;
  };

  constructor(
    protected readonly src: string,
    protected readonly home: string,
    protected readonly depth: number,
    /** pipeline ids, and what the command line has set of its variables so far (`r=rm; $r -rf /`) */
    protected readonly ids: { next: number; vars: ShellVars },
  ) {}

  /** A parser of `src` one level deeper, sharing the pipeline ids and the variables. */
  protected abstract child(src: string): WordReader & { list(close: ')' | null): void };

  /** The commands of a `$(` or `<(` substitution whose body starts at the cursor, up to its `)`. */
  protected abstract substitution(): Script;

  /** Reads a subshell with `read`: the variables it sets are gone after it. */
  protected abstract subshell<T>(read: () => T): T;

  protected skipBlanks(): void {
    while (this.pos < this.src.length && (this.src[this.pos] === ' ' || this.src[this.pos] === '\t')) this.pos++;
  }

  protected atWordEnd(): boolean {
    const c = this.src[this.pos];
    return c === undefined || c === '(' || c === ')' || WORD_BREAK.includes(c);
  }

  /** Reads one word: quotes removed, escapes applied, expansions resolved where they are known. */
  word(): Word {
    const start = this.pos;
    const w: Word = { value: '', raw: '', glob: false, leadingVar: null, guarded: false, subs: [] };
    const src = this.src;
    // a word starting with a process substitution
    if ((src[this.pos] === '<' || src[this.pos] === '>') && src[this.pos + 1] === '(') {
      this.pos += 2;
      w.subs.push(this.substitution());
      w.value += UNKNOWN;
    }
    if (src[this.pos] === '~') {
      const m = /^~([+-]?)(?=$|[/\s;&|)<>:])/.exec(src.slice(this.pos, this.pos + 3));
      if (m?.[1]) {
        // `~+` is $PWD, `~-` is $OLDPWD
        w.value += UNKNOWN;
        w.leadingVar = m[1] === '+' ? 'PWD' : 'OLDPWD';
        this.pos += 2;
      } else if (m) {
        w.value += this.home;
        this.pos++;
      }
    }
    while (this.pos < src.length) {
      const c = src[this.pos]!;
      if (WORD_BREAK.includes(c)) break;
      if (c === '(' || c === ')') {
        // `$(`-less parentheses end a word, except inside an extglob like `!(x)` / `@(x)`
        if (c === '(' && /[?*+@!]$/.test(w.value)) {
          const close = src.indexOf(')', this.pos);
          const end = close < 0 ? src.length : close + 1;
          w.value += src.slice(this.pos, end);
          w.glob = true;
          this.pos = end;
          continue;
        }
        break;
      }
      if (c === '\\') {
        const n = src[this.pos + 1];
        this.pos += 2;
        if (n !== undefined && n !== '\n') w.value += n;
      } else if (c === "'") {
        const end = src.indexOf("'", this.pos + 1);
        w.value += src.slice(this.pos + 1, end < 0 ? src.length : end);
        this.pos = end < 0 ? src.length : end + 1;
      } else if (c === '"') {
        this.pos++;
        this.doubleQuoted(w);
      } else if (c === '$') {
        this.dollar(w, false);
      } else if (c === '`') {
        this.backtick(w, false);
      } else if (c === '*' || c === '?' || c === '[') {
        w.glob = true;
        w.value += c;
        this.pos++;
      } else if (c === '{' || c === '}' || c === ',') {
        // unquoted braces and commas may be a brace expansion: marked, expanded by the caller
        w.value += c === '{' ? B_OPEN : c === '}' ? B_CLOSE : B_COMMA;
        this.pos++;
      } else {
        // a run of plain characters is taken in one piece
        const end = plainRunEnd(src, this.pos + 1, WORD_SPECIAL);
        w.value += src.slice(this.pos, end);
        this.pos = end;
      }
    }
    w.raw = src.slice(start, this.pos);
    return w;
  }

  private doubleQuoted(w: Word): void {
    const src = this.src;
    while (this.pos < src.length) {
      const c = src[this.pos]!;
      if (c === '"') {
        this.pos++;
        return;
      }
      if (c === '\\') {
        const n = src[this.pos + 1];
        if (n === '$' || n === '`' || n === '"' || n === '\\') w.value += n;
        else if (n !== '\n' && n !== undefined) w.value += `\\${n}`;
        this.pos += 2;
      } else if (c === '$') {
        this.dollar(w, true);
      } else if (c === '`') {
        this.backtick(w, true);
      } else {
        const end = plainRunEnd(src, this.pos + 1, QUOTED_SPECIAL);
        w.value += src.slice(this.pos, end);
        this.pos = end;
      }
    }
  }

  /** `$'...'`, `$(...)`, `$((...))`, `${...}`, `$NAME`, `$1`, `$?`... at the cursor. */
  private dollar(w: Word, inDouble: boolean): void {
    const src = this.src;
    const n = src[this.pos + 1];
    const atStart = w.value === '';
    if (n === "'" && !inDouble) {
      this.pos += 2;
      const [text, end] = decodeAnsiC(src, this.pos);
      w.value += text;
      this.pos = end;
    } else if (n === '"' && !inDouble) {
      this.pos += 2;
      this.doubleQuoted(w);
    } else if (n === '(' && src[this.pos + 2] === '(') {
      w.subs.push(...this.skipArithmetic(this.pos + 3));
      w.value += UNKNOWN;
    } else if (n === '(') {
      this.pos += 2;
      const sub = this.substitution();
      w.subs.push(sub);
      this.appendOutput(w, sub, inDouble);
    } else if (n === '{') {
      const end = this.matchBrace(this.pos + 2);
      const body = src.slice(this.pos + 2, end);
      this.pos = Math.min(src.length, end + 1);
      const m = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(.*)$/s.exec(body);
      // `${x:-$(cmd)}`: the default's substitution runs when x is unset
      w.subs.push(...this.scanSubs(body));
      const expanded = m ? this.parameter(m[1]!, m[2]!, inDouble) : null;
      if (expanded !== null) this.ids.vars.append(w, m![1]!, expanded, atStart, inDouble);
      else {
        if (m && /^(\[[^\]]*\])?:?\?/.test(m[2]!)) w.guarded = true;
        if (atStart && m) w.leadingVar = m[1]!;
        w.value += UNKNOWN;
      }
    } else if (n !== undefined && /[A-Za-z_]/.test(n)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(this.pos + 1, this.pos + 257))!;
      this.pos += 1 + m[0].length;
      const known = this.ids.vars.known(m[0], inDouble);
      if (known !== null) this.ids.vars.append(w, m[0], known, atStart, inDouble);
      else {
        if (atStart) w.leadingVar = m[0];
        w.value += UNKNOWN;
      }
    } else if (n !== undefined && /[0-9@*#?$!-]/.test(n)) {
      this.pos += 2;
      // the positional parameters `set --` gave
      const known = /[0-9@*]/.test(n) ? this.ids.vars.known(n, inDouble) : null;
      if (known !== null) this.ids.vars.append(w, n, known, atStart, inDouble);
      else {
        if (atStart) w.leadingVar = n;
        w.value += UNKNOWN;
      }
    } else {
      w.value += '$';
      this.pos++;
    }
  }

  /**
   * What `${name…}` stands for when the command line tells it: the variable (`${a[@]}`, `${a[1]}`
   * of an array) and `rest`, what follows it, read as bash does — `:-`/`-` and `:=`/`=` give a set
   * (`:`: and non-empty) variable's value, else the word after them; `:?`/`?` the value (or stop
   * the command); `:+`/`+` the word when set, else nothing. Null where the value, its emptiness or
   * the word is the shell's (`${x%.*}`, `${x:-$y}`, a variable the command line does not set).
   */
  private parameter(name: string, rest: string, inDouble: boolean): string | null {
    const sub = /^\[([^\]]*)\]/.exec(rest);
    const value = sub ? this.ids.vars.element(name, sub[1]!, inDouble) : this.ids.vars.known(name, inDouble);
    const op = /^(:?)([-=?+])(.*)$/s.exec(sub ? rest.slice(sub[0].length) : rest);
    if (value === null) return null;
    if (!op && rest !== (sub?.[0] ?? '')) return sub ? null : this.operated(name, rest, inDouble);
    if (!op) return value;
    // a value that may be empty (`$1` of `d=$1`, a loop's values) decides no `:` operator
    const certain = !value.includes(L_OPEN) && (value === '' || value.replaceAll(UNKNOWN, '') !== '');
    if (op[1] && !certain) return null;
    const used = op[1] ? value !== '' : true;
    if (op[2] === '?') return used ? value : null;
    if (op[2] === '+' ? !used : used) return op[2] === '+' ? '' : value;
    return this.literalWord(op[3]!, inDouble);
  }

  /**
   * `${x%/}`, `${x//a/b}`, `${x^^}`, `${x:1:3}` of a variable whose whole value the command line
   * tells (parameter-operators.ts), split when unquoted; null for a value that holds what only the
   * shell knows, or an operator not read there.
   */
  private operated(name: string, rest: string, inDouble: boolean): string | null {
    const whole = this.ids.vars.known(name, true);
    if (whole === null || /[\u0001-\u0007\uE000]/.test(whole)) return null;
    const out = applyParameterOperator(whole, rest);
    return out === null || inDouble ? out : out.replace(/[ \t\n]+/g, SPLIT);
  }

  /** The word of `${x:-word}` when it is plain text (a leading `~` expanded, split when unquoted); null when it holds quotes or expansions. */
  private literalWord(text: string, inDouble: boolean): string | null {
    if (/[$`'"\\]/.test(text)) return null;
    const v = !inDouble && (text === '~' || text.startsWith('~/')) ? this.home + text.slice(1) : text;
    return inDouble ? v : v.replace(/[ \t\n]+/g, SPLIT);
  }

  private backtick(w: Word, inDouble: boolean): void {
    const src = this.src;
    let body = '';
    let i = this.pos + 1;
    for (; i < src.length && src[i] !== '`'; i++) {
      if (src[i] === '\\' && (src[i + 1] === '`' || src[i + 1] === '\\' || src[i + 1] === '$')) body += src[++i];
      else body += src[i];
    }
    this.pos = Math.min(src.length, i + 1);
    if (this.depth + 1 > MAX_DEPTH) {
      this.tooDeep = true;
      w.value += UNKNOWN;
      return;
    }
    const child = this.child(body);
    this.subshell(() => child.list(null));
    this.tooDeep ||= child.tooDeep;
    this.out.push(...child.out);
    const sub = { commands: child.out, tooDeep: child.tooDeep };
    w.subs.push(sub);
    this.appendOutput(w, sub, inDouble);
  }

  /** Appends what a command substitution prints (expand.ts substituted): unquoted, its glob characters are a glob (`$(echo '/*')`). */
  private appendOutput(w: Word, sub: Script, inDouble: boolean): void {
    const text = substituted(sub, inDouble);
    if (!inDouble && /[*?[]/.test(text)) w.glob = true;
    w.value += text;
  }

  /** The index of the `}` closing a `${` whose body starts at `from` (quotes and nesting respected). */
  private matchBrace(from: number): number {
    let depth = 1;
    for (let i = from; i < this.src.length; i++) {
      const c = this.src[i];
      if (c === '\\') i++;
      else if (c === "'") {
        const e = this.src.indexOf("'", i + 1);
        if (e < 0) return this.src.length;
        i = e;
      } else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) return i;
    }
    return this.src.length;
  }

  /** Skips `$(( ... ))` / `(( ... ))`; substitutions inside still run, so their commands are kept. */
  protected skipArithmetic(from: number): Script[] {
    let depth = 2;
    let i = from;
    for (; i < this.src.length && depth > 0; i++) {
      if (this.src[i] === '(') depth++;
      else if (this.src[i] === ')') depth--;
    }
    this.pos = i;
    return this.scanSubs(this.src.slice(from, Math.max(from, i - 2)));
  }

  /**
   * The commands that expanding `text` runs (its `$( )`, backticks, `<( )`), parsed by a child
   * parser reading words only: for `${x:-$(cmd)}`, arithmetic, and unquoted heredoc bodies.
   */
  scanSubs(text: string): Script[] {
    if (!/[$`<>]/.test(text)) return [];
    if (this.depth + 1 > MAX_DEPTH) {
      this.tooDeep = true;
      return [];
    }
    const child = this.child(text);
    const subs: Script[] = [];
    while (child.pos < text.length) {
      const c = text[child.pos]!;
      if (' \t\r\n;&|()'.includes(c) || ((c === '<' || c === '>') && text[child.pos + 1] !== '(')) child.pos++;
      else subs.push(...child.word().subs);
    }
    this.tooDeep ||= child.tooDeep;
    this.out.push(...child.out);
    return subs;
  }
}

/** Blanks and operator characters: each ends an unquoted word (so do parentheses, but for an extglob's). */
const WORD_BREAK = ' \t\r\n;&|<>';
/** Characters that end a run of plain characters in an unquoted word: the breaks, and each other with a meaning of its own there. */
const WORD_SPECIAL = charSet(`${WORD_BREAK}()\\'"$\`*?[{},`);
/** Characters with a meaning inside double quotes. */
const QUOTED_SPECIAL = charSet('"\\$`');

function charSet(chars: string): Uint8Array {
  const set = new Uint8Array(128);
  for (const c of chars) set[c.charCodeAt(0)] = 1;
  return set;
}

/** The index of the first character at or after `from` that is in `special` (or the end). */
function plainRunEnd(src: string, from: number, special: Uint8Array): number {
  let i = from;
  for (; i < src.length; i++) {
    const code = src.charCodeAt(i);
    if (code < 128 && special[code] === 1) break;
  }
  return i;
}

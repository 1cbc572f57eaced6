/**
 * A shell parser for policy checks: it finds every simple command a bash command line would run,
 * wherever it hides (lists, pipelines, subshells, `$( )`, backticks, process substitution,
 * heredocs fed to a shell), with quote removal done the way the shell does it. It never throws and
 * runs in linear time: unterminated constructs end at the end of the input.
 */

import { B_CLOSE, B_COMMA, B_OPEN, decodeAnsiC, expandWord, SPLIT, substituted, UNKNOWN, unsplit } from './expand.ts';
import type { Redirect, Script, SimpleCommand, Word } from './syntax.ts';

export type { Redirect, Script, SimpleCommand, Word };
export { UNKNOWN };

export const MAX_DEPTH = 40;
/** The longest value a variable may take in the parser's reading: past it the command is too large to check (`a=$a$a` doubling). */
const MAX_VALUE = 65536;
/** The most values a loop variable stands for at once (`for d in a b …`). */
const MAX_LOOP_VALUES = 64;
/** A word that assigns a variable: `NAME=value`, `NAME+=value`. */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
/** The builtins whose arguments are assignments, not split (`export x=$(echo a b)`). */
const DECLARATIONS = /^(export|local|declare|typeset|readonly)$/;
const RESERVED_START = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'esac']);
const SKIP_COMMAND = new Set(['for', 'select', 'case', '[[', '((']);

interface ParseOptions {
  home: string;
  depth?: number;
}

/** Parses a command line into every simple command it would run, in source order. */
export function parseShell(src: string, opts: ParseOptions): Script {
  const p = new Parser(src, opts.home, opts.depth ?? 0, { next: 0, vars: new Map(), fresh: new Set(), globs: new Set() });
  p.list(null);
  return { commands: p.out, tooDeep: p.tooDeep };
}

class Parser {
  pos = 0;
  out: SimpleCommand[] = [];
  tooDeep = false;
  private pendingHeredocs: Array<{ delim: string; strip: boolean; quoted: boolean; redirect: Redirect }> = [];
  private lineLast: SimpleCommand | null = null;
  /** the list operator before the command being read: what its substitutions run after too */
  private commandAfter: SimpleCommand['after'] = 'other';

  constructor(
    private readonly src: string,
    private readonly home: string,
    private readonly depth: number,
    /**
     * pipeline ids, the variables set by plain assignments so far (`r=rm; $r -rf /`), those that
     * hold a path mktemp has just made (or nothing, when it failed), and loop variables over globs
     */
    private readonly ids: { next: number; vars: Map<string, string>; fresh: Set<string>; globs: Set<string> },
  ) {}

  /** Parses commands until `close` (a `)` of a subshell) or the end of input. */
  list(close: ')' | null): void {
    let pipeline = this.ids.next++;
    let index = 0;
    let after: SimpleCommand['after'] = 'other';
    while (this.pos < this.src.length) {
      const c = this.src[this.pos]!;
      if (c === ' ' || c === '\t' || c === '\r') {
        this.pos++;
      } else if (c === '\\' && this.src[this.pos + 1] === '\n') {
        this.pos += 2;
      } else if (c === '#') {
        this.comment();
      } else if (c === '\n') {
        this.pos++;
        this.lineLast = null;
        this.readHeredocs();
        pipeline = this.ids.next++;
        index = 0;
        after = 'other';
      } else if (c === ')') {
        this.pos++;
        if (close) return;
        // a stray `)` ends a case pattern (`a) cmd;;`): what follows is still a command
      } else if (c === ';' || c === '&' || c === '|') {
        const two = this.src.slice(this.pos, this.pos + 2);
        if (two === '&>') {
          this.command(pipeline, index++, after);
          continue;
        }
        const op = two === '&&' || two === '||' || two === ';;' || two === ';&' || two === '|&' ? two : c;
        this.pos += op.length;
        if (op === '|' || op === '|&') index++;
        else {
          pipeline = this.ids.next++;
          index = 0;
          after = op === '&&' ? '&&' : 'other';
        }
      } else if (c === '(') {
        if (this.src[this.pos + 1] === '(') {
          this.skipArithmetic(this.pos + 2);
          this.lineLast = null;
          continue;
        }
        this.pos++;
        this.nested((p) => p.list(')'), false);
      } else {
        this.command(pipeline, index, after);
      }
    }
  }

  /** Runs `fn` on a child parser over the rest of the input and takes its commands. */
  private nested(fn: (p: Parser) => void, isolated: boolean): Script {
    if (this.depth + 1 > MAX_DEPTH) {
      this.tooDeep = true;
      this.pos = this.src.length;
      return { commands: [], tooDeep: true };
    }
    const child = new Parser(this.src, this.home, this.depth + 1, this.ids);
    child.pos = this.pos;
    fn(child);
    this.pos = child.pos;
    this.tooDeep ||= child.tooDeep;
    // a substitution runs only where its command runs: after `cd x &&`, so does `$(pwd)`
    if (isolated && this.commandAfter === '&&') for (const c of child.out) c.after = '&&';
    this.out.push(...child.out);
    if (!isolated && child.lineLast) this.lineLast = child.lineLast;
    return { commands: child.out, tooDeep: child.tooDeep };
  }

  private comment(): void {
    const end = this.src.indexOf('\n', this.pos);
    const text = this.src.slice(this.pos + 1, end < 0 ? this.src.length : end);
    this.pos = end < 0 ? this.src.length : end;
    if (this.lineLast && this.lineLast.comment === null) this.lineLast.comment = text;
  }

  private command(pipeline: number, index: number, after: SimpleCommand['after']): void {
    const cmd: SimpleCommand = { words: [], redirects: [], comment: null, pipeline, index, after };
    this.commandAfter = after;
    while (this.pos < this.src.length) {
      const c = this.src[this.pos]!;
      if (c === ' ' || c === '\t' || c === '\r') {
        this.pos++;
        continue;
      }
      if (c === '\\' && this.src[this.pos + 1] === '\n') {
        this.pos += 2;
        continue;
      }
      if (c === '\n' || c === ';' || c === ')' || c === '#') break;
      if ((c === '&' || c === '|') && !this.src.startsWith('&>', this.pos)) break;
      if (c === '(') {
        // `name() { ...; }` defines a function: its body follows as ordinary commands
        if (cmd.words.length === 1 && /^\(\s*\)/.test(this.src.slice(this.pos, this.pos + 8))) {
          this.pos = this.src.indexOf(')', this.pos) + 1;
          cmd.words = [];
        }
        break;
      }
      const redirect = this.redirect();
      if (redirect) {
        cmd.redirects.push(redirect);
        continue;
      }
      const word = this.word();
      // an assignment's value is neither split nor brace-expanded: `x=$(echo a b)` is one word
      const assigns = ASSIGNMENT.test(word.raw) && cmd.words.every((x, i) => ASSIGNMENT.test(x.raw) || (i === 0 ? DECLARATIONS : /^-/).test(x.raw));
      cmd.words.push(...(assigns ? [unsplit(word)] : expandWord(word, this.home)));
    }
    // `if`, `then`, `{`, `!` ... start the next command; `for x in ...` runs nothing itself
    for (;;) {
      if (cmd.words.length && RESERVED_START.has(cmd.words[0]!.raw)) cmd.words.shift();
      // `function name { ...`: the body's first command follows on the same line
      else if (cmd.words[0]?.raw === 'function') cmd.words.splice(0, 2);
      // `coproc NAME { cmd; }` and `coproc cmd`
      else if (cmd.words[0]?.raw === 'coproc') cmd.words.splice(0, cmd.words[2]?.raw === '{' ? 3 : 1);
      else break;
    }
    this.assignments(cmd);
    if (cmd.words[0]?.raw === 'for' || cmd.words[0]?.raw === 'select') this.loopVariable(cmd.words);
    if (cmd.words.length && SKIP_COMMAND.has(cmd.words[0]!.raw)) cmd.words = [];
    if (cmd.words.length || cmd.redirects.length) {
      this.out.push(cmd);
      this.lineLast = cmd;
    }
  }

  /** `NAME=value` alone (or after export/local/declare/readonly): later `$NAME` expands to value. */
  private assignments(cmd: SimpleCommand): void {
    const first = cmd.words[0]?.raw;
    if (first === 'set') this.positionals(cmd.words.slice(1));
    if (first === 'shift') this.shift(cmd.words[1]?.value);
    // `read d`, `mapfile -t a`, `printf -v d …`, `getopts o d`: the shell sets them to what only it knows
    if (first === 'read' || first === 'mapfile' || first === 'readarray' || first === 'getopts' || first === 'printf')
      for (const [i, w] of cmd.words.entries()) if (i > 0 && (first !== 'printf' || cmd.words[i - 1]!.value === '-v')) this.forget(w.value);
    const words = DECLARATIONS.test(first ?? '') ? cmd.words.slice(1).filter((w) => !w.raw.startsWith('-')) : cmd.words;
    if (!words.length || !words.every((w) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(w.raw))) return;
    for (const w of words) {
      const eq = w.value.indexOf('=');
      const name = w.value.slice(0, eq);
      const value = w.value.slice(eq + 1);
      this.forget(name);
      // `a=$a$a` doubled on: past MAX_VALUE the command is too large to follow
      if (value.length > MAX_VALUE) this.tooDeep = true;
      else this.ids.vars.set(name, value);
      // `tmp=$(mktemp -d)`: a fresh path mktemp made, or nothing; and a copy of one (`t=$tmp`)
      const sub = value === UNKNOWN && w.subs.length === 1 ? w.subs[0]!.commands : [];
      const copied = /^[A-Za-z_][A-Za-z0-9_]*=("?)\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?\1$/.exec(w.raw)?.[2];
      if ((sub.length === 1 && sub[0]!.words[0]?.value === 'mktemp') || (copied && this.ids.fresh.has(copied))) this.ids.fresh.add(name);
    }
  }

  /** The shell sets `name` to what only it knows. */
  private forget(name: string): void {
    this.ids.vars.delete(name);
    this.ids.fresh.delete(name);
    this.ids.globs.delete(name);
  }

  /** `shift [n]`: the positional parameters move down by n (1 by default); an unknown n forgets them. */
  private shift(by: string | undefined): void {
    const n = by === undefined ? 1 : /^[0-9]+$/.test(by) ? Number(by) : -1;
    const known = this.ids.vars.get('@');
    for (const k of [...this.ids.vars.keys()]) if (/^([0-9]+|[@*])$/.test(k)) this.ids.vars.delete(k);
    if (known === undefined || n < 0) return;
    const words = known.split(SPLIT).filter(Boolean).slice(n);
    if (words.length) this.setPositionals(words);
  }

  /**
   * `set -- a b` (or `set a b`): later `$1`, `$2`, `$*` and `"$@"` (each word apart, even quoted)
   * expand to them. Options alone (`set -e`) leave them; an unknown word forgets them.
   */
  private positionals(args: Word[]): void {
    const first = args[0]?.value;
    if (first === undefined || (first !== '--' && /^[-+]/.test(first))) return;
    const words = (first === '--' ? args.slice(1) : args).map((w) => w.value);
    for (const k of [...this.ids.vars.keys()]) if (/^([0-9]+|[@*])$/.test(k)) this.ids.vars.delete(k);
    if (words.some((v) => v.includes(UNKNOWN))) return;
    this.setPositionals(words);
  }

  private setPositionals(words: string[]): void {
    words.forEach((v, i) => this.ids.vars.set(String(i + 1), v));
    this.ids.vars.set('*', words.join(' '));
    this.ids.vars.set('@', words.join(SPLIT));
  }

  /**
   * `for d in / /tmp; do rm -rf "$d"; done`: in the body `$d` stands for every value at once, as
   * `"$@"` does (each checked as an argument of its own), a glob as the names it matches, quoted
   * or not (`for f in *.ts`); a value only the shell knows leaves it unknown.
   */
  private loopVariable(words: Word[]): void {
    const name = words[1]?.raw;
    if (!name || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return;
    const values = words[2]?.raw === 'in' ? words.slice(3) : null;
    this.forget(name);
    // each use of the variable is checked once per value: past MAX_LOOP_VALUES it stays unknown, as the shell's own would be
    if (!values?.length || values.length > MAX_LOOP_VALUES || values.some((w) => w.value.includes(UNKNOWN))) return;
    this.ids.vars.set(name, values.map((w) => w.value).join(SPLIT));
    if (values.some((w) => w.glob)) this.ids.globs.add(name);
  }

  /** Reads a redirection at the cursor (with an optional fd number), or returns null. */
  private redirect(): Redirect | null {
    // a redirection starts with a descriptor (`2>`, `{fd}>`) or an operator: other words are not read twice
    if (!REDIRECT_START.has(this.src[this.pos]!)) return null;
    const m = /^(?:\d+|\{[A-Za-z_][A-Za-z0-9_]*\})?(<<<|<<-|<<|&>>|&>|>>|>\||>&|<&|<>|<|>)/.exec(this.src.slice(this.pos, this.pos + 24));
    if (!m) return null;
    const op = m[1]!;
    // `<(cmd)` and `>(cmd)` are process substitutions, i.e. words
    if ((op === '<' || op === '>') && this.src[this.pos + m[0].length] === '(') return null;
    this.pos += m[0].length;
    this.skipBlanks();
    if (this.atWordEnd()) return { op, target: null, input: null };
    const target = expandWord(this.word(), this.home)[0]!;
    if (op === '<<<') return { op, target, input: target.value, subs: target.subs };
    if (op === '<<' || op === '<<-') {
      const r: Redirect = { op, target, input: '' };
      this.pendingHeredocs.push({ delim: target.value, strip: op === '<<-', quoted: /['"\\]/.test(target.raw), redirect: r });
      return r;
    }
    return { op, target, input: null };
  }

  private readHeredocs(): void {
    for (const h of this.pendingHeredocs.splice(0)) {
      const lines: string[] = [];
      while (this.pos < this.src.length) {
        const end = this.src.indexOf('\n', this.pos);
        const raw = this.src.slice(this.pos, end < 0 ? this.src.length : end);
        this.pos = end < 0 ? this.src.length : end + 1;
        const line = h.strip ? raw.replace(/^\t+/, '') : raw;
        if (line === h.delim) break;
        lines.push(line);
      }
      h.redirect.input = lines.join('\n');
      // an unquoted delimiter: `$( )` and backticks in the body run when the heredoc is read
      if (!h.quoted) h.redirect.subs = this.scanSubs(h.redirect.input);
    }
  }

  private skipBlanks(): void {
    while (this.pos < this.src.length && (this.src[this.pos] === ' ' || this.src[this.pos] === '\t')) this.pos++;
  }

  private atWordEnd(): boolean {
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
      w.subs.push(this.nested((p) => p.list(')'), true));
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
      const sub = this.nested((p) => p.list(')'), true);
      w.subs.push(sub);
      this.appendOutput(w, sub, inDouble);
    } else if (n === '{') {
      const end = this.matchBrace(this.pos + 2);
      const body = src.slice(this.pos + 2, end);
      this.pos = Math.min(src.length, end + 1);
      const m = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(.*)$/s.exec(body);
      // `${x:-$(cmd)}`: the default's substitution runs when x is unset
      w.subs.push(...this.scanSubs(body));
      const known = m && m[2] === '' ? this.known(m[1]!, inDouble) : null;
      if (known !== null) this.append(w, m![1]!, known, atStart, inDouble);
      else {
        if (m && /^:?\?/.test(m[2]!)) w.guarded = true;
        if (atStart && m) w.leadingVar = m[1]!;
        w.value += UNKNOWN;
      }
    } else if (n !== undefined && /[A-Za-z_]/.test(n)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(this.pos + 1, this.pos + 257))!;
      this.pos += 1 + m[0].length;
      const known = this.known(m[0], inDouble);
      if (known !== null) this.append(w, m[0], known, atStart, inDouble);
      else {
        if (atStart) w.leadingVar = m[0];
        w.value += UNKNOWN;
      }
    } else if (n !== undefined && /[0-9@*#?$!-]/.test(n)) {
      this.pos += 2;
      // the positional parameters `set --` gave
      const known = /[0-9@*]/.test(n) ? this.known(n, inDouble) : null;
      if (known !== null) this.append(w, n, known, atStart, inDouble);
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
   * Appends a variable's known value: one that starts with what only the shell knows (`d=$1`,
   * `here=$(pwd)`) leads the word with that variable; unquoted, its glob characters are a glob.
   */
  private append(w: Word, name: string, value: string, atStart: boolean, inDouble: boolean): void {
    if (atStart && value.startsWith(UNKNOWN)) {
      w.leadingVar = name;
      if (this.ids.fresh.has(name)) w.fresh = true;
    }
    if ((!inDouble || this.ids.globs.has(name)) && /[*?[]/.test(value)) w.glob = true;
    w.value += value;
  }

  /** The value of `$name` when the command line itself tells it: HOME, IFS, an earlier assignment. */
  private known(name: string, inDouble: boolean): string | null {
    if (name === 'HOME') return this.home;
    // unquoted $IFS splits words: `rm$IFS-rf$IFS/` is `rm -rf /`
    if (name === 'IFS') return inDouble ? ' ' : SPLIT;
    const v = this.ids.vars.get(name);
    if (v === undefined) return null;
    // unquoted, a value splits into words: `c="npm publish"; $c` runs npm
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
    const child = new Parser(body, this.home, this.depth + 1, this.ids);
    child.list(null);
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
  private skipArithmetic(from: number): Script[] {
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
    const child = new Parser(text, this.home, this.depth + 1, this.ids);
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
/** The characters a redirection can start with: a digit of a descriptor, `{` of a named one, an operator. */
const REDIRECT_START = new Set([...'0123456789{<>&']);

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

/** Whether a word is data only the running shell knows (a variable, a substitution). */
export function isDynamic(w: Word): boolean {
  return w.value.includes(UNKNOWN);
}

/**
 * A shell parser for policy checks: it finds every simple command a bash command line would run,
 * wherever it hides (lists, pipelines, subshells, `$( )`, backticks, process substitution,
 * heredocs fed to a shell), with quote removal done the way the shell does it. It never throws and
 * runs in linear time: unterminated constructs end at the end of the input. This file reads lists
 * and commands; redirections and heredocs are read by shell-redirects.ts, words by shell-words.ts, what the command line
 * sets of its own variables is kept by shell-vars.ts, a command's runs per loop value are made by
 * loop-runs.ts, and where each run stands among the pipelines (loops' fans, compounds piped on)
 * is kept by pipeline-lanes.ts.
 */

import { expandWord, L_OPEN, UNKNOWN, unsplit } from './expand.ts';
import { argumentRuns } from './function-calls.ts';
import { loopRunsOf } from './loop-runs.ts';
import { type CompoundOutput, PipelineLanes } from './pipeline-lanes.ts';
import { RedirectReader } from './shell-redirects.ts';
import { DECLARATIONS, ShellVars } from './shell-vars.ts';
import { MAX_DEPTH } from './shell-words.ts';
import { ASSIGNMENT, type Redirect, type Script, type SimpleCommand, type Word } from './syntax.ts';

export type { Redirect, Script, SimpleCommand, Word };
export { MAX_DEPTH, UNKNOWN };

/** A word that assigns a variable: `NAME=value`, `NAME+=value`. */
const RESERVED_START = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'esac']);
const SKIP_COMMAND = new Set(['for', 'select', 'case', '[[', '((']);
/** The words that open a compound whose output a `|` after it pipes on, and the word that closes each. */
const OPENERS: ReadonlyMap<string, string> = new Map([
  ['{', '}'],
  ['while', 'done'],
  ['until', 'done'],
  ['for', 'done'],
  ['select', 'done'],
  ['if', 'fi'],
  ['case', 'esac'],
]);

interface ParseOptions {
  home: string;
  depth?: number;
}

/** Parses a command line into every simple command it would run, in source order. */
export function parseShell(src: string, opts: ParseOptions): Script {
  const p = new Parser(src, opts.home, opts.depth ?? 0, { next: 0, vars: new ShellVars(opts.home) });
  p.list(null);
  return { commands: p.out, tooDeep: p.tooDeep };
}

class Parser extends RedirectReader {
  private lineLast: SimpleCommand | null = null;
  /** the list operator before the command being read: what its substitutions run after too */
  private commandAfter: SimpleCommand['after'] = 'other';
  /** the compound just read — a group, subshell, loop, `if`, `case` or function call: what a `|` after it pipes on from (pipeline-lanes.ts) */
  private compound: CompoundOutput | null = null;
  /** where each compound still open began in `out`, the word that closes it, and the function it is the body of */
  private readonly compounds: Array<{ start: number; closer: string; name: string | null }> = [];
  /** a function name whose body (`f() {`) comes next */
  private defining: string | null = null;
  /** the line's pipelines (fans, compounds piped on) and the functions it defines, shared by every parser of the line */
  private lanes = new PipelineLanes();

  protected child(src: string): Parser {
    const child = new Parser(src, this.home, this.depth + 1, this.ids);
    child.lanes = this.lanes;
    return child;
  }

  protected substitution(): Script {
    // a cd in `$( )` is left to move the commands after it: `DIR="$(cd ~ && pwd)"; rm -rf "$DIR/.ssh"` reads `$DIR/…` where that cd went
    return this.subshell(() => this.nested((p) => p.list(')'), true));
  }

  /** Reads a subshell with `read` (`( )`, `$( )`, backticks, `<( )`): the variables it sets are gone after it. */
  protected subshell<T>(read: () => T): T {
    const at = this.ids.vars.startSubshell();
    const out = read();
    if (!this.ids.vars.endSubshell(at)) this.tooDeep = true;
    return out;
  }

  /** Parses commands until `close` (a `)` of a subshell) or the end of input. */
  list(close: ')' | null): void {
    let pipeline = this.ids.next++;
    let index = 0;
    let after: SimpleCommand['after'] = 'other';
    // a stage after a `|` runs in a subshell (bash's default, without lastpipe): what it sets is gone
    // when its pipeline ends; a stage that opens a compound (`true | { v=x; }`) ends at the depth it began
    let laterStage: { at: number; depth: number } | null = null;
    let afterPipe = false;
    const endStage = () => {
      if (!laterStage || this.compounds.length > laterStage.depth) return;
      if (!this.ids.vars.endSubshell(laterStage.at)) this.tooDeep = true;
      laterStage = null;
    };
    const startStage = () => {
      if (afterPipe && !laterStage) laterStage = { at: this.ids.vars.startSubshell(), depth: this.compounds.length };
      afterPipe = false;
    };
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
        endStage();
        afterPipe = false;
        this.lineLast = null;
        this.readHeredocs();
        pipeline = this.ids.next++;
        index = 0;
        after = 'other';
      } else if (c === ')') {
        this.pos++;
        // a `)` inside an open `case` ends a pattern (`a) cmd;;`), as a stray one does: what follows is still a command
        if (close && this.compounds.at(-1)?.closer !== 'esac') return endStage();
      } else if (c === ';' || c === '&' || c === '|') {
        const two = this.src.slice(this.pos, this.pos + 2);
        if (two === '&>') {
          this.command(pipeline, index++, after);
          continue;
        }
        const op = two === '&&' || two === '||' || two === ';;' || two === ';&' || two === '|&' ? two : c;
        this.pos += op.length;
        endStage();
        afterPipe = op === '|' || op === '|&';
        if (op === '|' || op === '|&') {
          // `{ echo a; echo b; } | sh`, `(echo a) | sh`, `f | sh`, `done | sh`: what each of the compound's pipelines writes goes on into the pipe
          const at = this.compound && this.lanes.pipeOn(this.compound);
          this.tooDeep ||= this.lanes.tooLarge;
          if (at) ({ pipeline, index } = at);
          else index++;
        } else {
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
        startStage();
        // `f() ( env )`: a function whose body is a subshell
        const fn = this.defining;
        this.defining = null;
        const from = this.out.length;
        this.subshell(() => this.nested((p) => p.list(')'), false));
        inSubshell(this.out.slice(from), this.ids.next++);
        this.compound = { out: this.out, from, to: this.out.length };
        if (fn) this.lanes.functions.set(fn, this.compound);
      } else {
        startStage();
        this.command(pipeline, index, after);
      }
    }
    endStage();
  }

  /** Runs `fn` on a child parser over the rest of the input and takes its commands. */
  private nested(fn: (p: Parser) => void, isolated: boolean): Script {
    if (this.depth + 1 > MAX_DEPTH) {
      this.tooDeep = true;
      this.pos = this.src.length;
      return { commands: [], tooDeep: true };
    }
    const child = new Parser(this.src, this.home, this.depth + 1, this.ids);
    child.lanes = this.lanes;
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
    const unexpanded = new Set<Word>();
    const start = this.out.length;
    // `f() {`: the function whose body this command's `{` opens
    let defining = this.defining;
    this.defining = null;
    this.commandAfter = after;
    this.compound = null;
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
      // inside `[[ … ]]`, `||`, `&&` and parentheses join tests (`[[ $f == a || $f =~ .*\.rs ]]`): the command ends at `]]`
      if (
        (c === '(' || c === ')' || ((c === '&' || c === '|') && this.src[this.pos + 1] === c)) &&
        cmd.words.at(-1)?.raw !== ']]' &&
        cmd.words.find((w) => !RESERVED_START.has(w.raw))?.raw === '[['
      ) {
        this.pos += c === '(' || c === ')' ? 1 : 2;
        continue;
      }
      if (c === '\n' || c === ';' || c === ')' || c === '#') break;
      if ((c === '&' || c === '|') && !this.src.startsWith('&>', this.pos)) break;
      if (c === '(') {
        // `name() { ...; }` defines a function: its body follows as ordinary commands
        if (cmd.words.length === 1 && /^\(\s*\)/.test(this.src.slice(this.pos, this.pos + 8))) {
          this.pos = this.src.indexOf(')', this.pos) + 1;
          this.defining = cmd.words[0]!.value;
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
      // (after `then`, `do`, `{`… as well: `then x=$(echo a b)`, `do a=(x y)`)
      const assigns = ASSIGNMENT.test(word.raw) && assignmentsSoFar(cmd.words);
      // `a=(-rf /etc)`, `a+=(x)`: an array's elements, words like a command's (shell-vars.ts records them)
      if (assigns && this.src[this.pos] === '(' && /^[A-Za-z_][A-Za-z0-9_]*\+?=$/.test(word.raw)) {
        cmd.words.push(this.arrayAssignment(word));
        continue;
      }
      // a word holding a loop variable's values is expanded once per run of the loop (loopRunsOf below)
      if (!assigns && word.value.includes(L_OPEN)) {
        unexpanded.add(word);
        cmd.words.push(word);
      } else cmd.words.push(...(assigns ? [unsplit(word)] : expandWord(word, this.home, this.tooManyWords)));
    }
    // `if`, `then`, `{`, `!` ... start the next command; `for x in ...` runs nothing itself
    const reserved: string[] = [];
    for (;;) {
      if (cmd.words.length && RESERVED_START.has(cmd.words[0]!.raw)) {
        const word = cmd.words.shift()!.raw;
        reserved.push(word);
        // a `while` or `until` loop's condition writes into its output too, as does an `if`'s
        const closer = OPENERS.get(word);
        if (closer) this.compounds.push({ start, closer, name: word === '{' ? defining : null });
        defining = null;
        // the compound's commands are read: what its pipelines write is what it writes
        const closed = this.close(word);
        if (closed) this.compound = { out: this.out, from: closed.start, to: this.out.length };
        if (closed?.name) this.lanes.functions.set(closed.name, this.compound!);
      }
      // `function name { ...`: the body's first command follows on the same line
      else if (cmd.words[0]?.raw === 'function') defining = cmd.words.splice(0, 2)[1]?.value ?? null;
      // `coproc NAME { cmd; }` and `coproc cmd`
      else if (cmd.words[0]?.raw === 'coproc') cmd.words.splice(0, cmd.words[2]?.raw === '{' ? 3 : 1);
      else break;
    }
    this.expandAlias(cmd);
    // `v=x | cat`, `read v <<< x | cat`, `v=x &`: the first stage of a pipeline, and a command run in the background, run in a subshell
    const apart = /^(\|(?!\|)|&(?![&>]))/.test(this.src.slice(this.pos, this.pos + 2));
    const scope = apart ? this.ids.vars.startSubshell() : -1;
    if (!this.ids.vars.record(cmd, this.out, reserved)) this.tooDeep = true;
    if (apart && !this.ids.vars.endSubshell(scope)) this.tooDeep = true;
    if (cmd.words[0]?.raw === 'for' || cmd.words[0]?.raw === 'select') this.ids.vars.loopVariable(cmd.words);
    if (cmd.words.length && SKIP_COMMAND.has(cmd.words[0]!.raw)) {
      // `for x in $(ls)`, `case $x in`: what the loop's body or the case's branches write is the compound's output, not what its words' substitutions do
      const closer = OPENERS.get(cmd.words[0]!.raw);
      if (closer) this.compounds.push({ start: this.out.length, closer, name: null });
      cmd.words = [];
    }
    if (cmd.words.length || cmd.redirects.length) {
      const runs = loopRunsOf(cmd, unexpanded, this.home);
      // a word crossing loops into more runs than can be read: too large to check
      if (!runs) this.tooDeep = true;
      // each run at its stage, and on each pipeline read beside it (a loop's runs, a compound's output ends)
      const placed = this.lanes.place(runs ?? [], { pipeline, index }, this.out, () => this.ids.next++);
      this.tooDeep ||= this.lanes.tooLarge;
      this.lineLast = placed.at(-1) ?? this.lineLast;
      // `f | sh` of a function defined on the line: what its body writes
      const called = this.lanes.functions.get(cmd.words[0]?.value ?? '');
      if (called && !this.compound) this.compound = called;
      // `run(){ "$@"; }; run rm -rf ~`: the body's commands that use the call's words, with them
      const at = cmd.words.findIndex((w) => !ASSIGNMENT.test(w.raw));
      const runsArgs = at >= 0 ? this.lanes.functions.get(cmd.words[at]!.value) : undefined;
      const users = runsArgs ? this.lanes.argumentUsers(runsArgs, placed.length) : [];
      for (const run of users.length ? placed : []) this.out.push(...argumentRuns(users, run, at + 1));
      this.tooDeep ||= this.lanes.tooLarge;
    }
  }

  /** The compound `word` closes (`}`, `done`, `fi`, `esac`): the innermost open one it closes, and those open inside it. */
  private close(word: string): { start: number; name: string | null } | undefined {
    const at = this.compounds.findLastIndex((c) => c.closer === word);
    return at < 0 ? undefined : this.compounds.splice(at)[0];
  }

  /**
   * `alias nuke='rm -rf ~'; nuke /tmp`: a command whose program word, unquoted, names an alias is
   * the alias's text with the rest of its words after it — the text's commands before its last
   * run first, its last takes the words (`alias go='cd / && rm -rf'`). A text that ends in a blank
   * has the word after it read as an alias too (`alias s='sudo '; s ll`).
   */
  private expandAlias(cmd: SimpleCommand): void {
    if (!this.ids.vars.aliases.count) return;
    let at = cmd.words.findIndex((w) => !ASSIGNMENT.test(w.raw));
    while (at >= 0 && at < cmd.words.length) {
      const name = cmd.words[at]!.raw;
      const text = /^[^\s=/$`'"\\]+$/.test(name) ? this.ids.vars.aliases.text(name) : null;
      if (text === null) return;
      if (this.depth + 1 > MAX_DEPTH) {
        this.tooDeep = true;
        return;
      }
      const child = this.child(text);
      // too much alias text read on one line: too large to check
      if (!this.ids.vars.aliases.expand(name, () => child.list(null))) this.tooDeep = true;
      this.tooDeep ||= child.tooDeep;
      const last = child.out.pop();
      this.out.push(...child.out);
      if (child.out.length && last) cmd.after = last.after;
      const words = last?.words ?? [];
      cmd.words = [...cmd.words.slice(0, at), ...words, ...cmd.words.slice(at + 1)];
      cmd.redirects = [...(last?.redirects ?? []), ...cmd.redirects];
      if (!/[ \t]$/.test(text)) return;
      at += words.length;
    }
  }

  /**
   * The array assignment `name=(…)` whose `(` is at the cursor (`name=` read as `word`): its
   * elements each expanded as a command's words are (split, braces), its substitutions run; an
   * element `[k]=v` is its value. Nothing runs the elements themselves.
   */
  private arrayAssignment(word: Word): Word {
    const start = this.pos - word.raw.length;
    const elements: Word[] = [];
    this.pos++;
    while (this.pos < this.src.length) {
      const c = this.src[this.pos]!;
      if (c === ')') {
        this.pos++;
        break;
      }
      if (c === '#') this.pos = this.src.indexOf('\n', this.pos) < 0 ? this.src.length : this.src.indexOf('\n', this.pos);
      else if (' \t\r\n;&|<>('.includes(c)) this.pos++;
      else elements.push(...expandWord(this.word(), this.home, this.tooManyWords));
    }
    const values = elements.map((e) => e.value.replace(/^\[[^\]]*\]=/, ''));
    return {
      ...word,
      value: word.value + values.join(' '),
      raw: this.src.slice(start, this.pos),
      subs: elements.flatMap((e) => e.subs),
      glob: elements.some((e) => e.glob),
      array: values,
    };
  }
}

/**
 * Whether a command's words so far leave room for an assignment: each an assignment, or a
 * declaration builtin (`export`, `local -a`) and its options, after any reserved words (`then`, `do`, `{`).
 */
function assignmentsSoFar(words: readonly Word[]): boolean {
  let i = 0;
  while (i < words.length && RESERVED_START.has(words[i]!.raw)) i++;
  for (let first = i; i < words.length; i++) if (!ASSIGNMENT.test(words[i]!.raw) && !(i === first ? DECLARATIONS : /^-/).test(words[i]!.raw)) return false;
  return true;
}

/** Marks `commands` as run in the `( )` subshell `id`, around the subshells they already run in (SimpleCommand.subshells). */
function inSubshell(commands: readonly SimpleCommand[], id: number): void {
  for (const c of commands) c.subshells = c.subshells ? [id, ...c.subshells] : [id];
}

/** Whether a word is data only the running shell knows (a variable, a substitution). */
export function isDynamic(w: Word): boolean {
  return w.value.includes(UNKNOWN);
}

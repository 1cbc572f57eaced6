/**
 * A shell parser for policy checks: it finds every simple command a bash command line would run,
 * wherever it hides (lists, pipelines, subshells, `$( )`, backticks, process substitution,
 * heredocs fed to a shell), with quote removal done the way the shell does it. It never throws and
 * runs in linear time: unterminated constructs end at the end of the input. This file reads lists,
 * commands, redirections and heredocs; words are read by shell-words.ts, and what the command line
 * sets of its own variables is kept by shell-vars.ts.
 */

import { expandWord, L_OPEN, type LoopPins, loopRunPins, loopsIn, pinLoop, staticOutput, UNKNOWN, unsplit } from './expand.ts';
import { GroupFeeds, type GroupOutput, type Stage } from './group-output.ts';
import { DECLARATIONS, ShellVars } from './shell-vars.ts';
import { MAX_DEPTH, WordReader } from './shell-words.ts';
import { ASSIGNMENT, type Redirect, type Script, type SimpleCommand, type Word } from './syntax.ts';

export type { Redirect, Script, SimpleCommand, Word };
export { MAX_DEPTH, UNKNOWN };

/** A word that assigns a variable: `NAME=value`, `NAME+=value`. */
const RESERVED_START = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'esac']);
const SKIP_COMMAND = new Set(['for', 'select', 'case', '[[', '((']);

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

class Parser extends WordReader {
  private pendingHeredocs: Array<{ delim: string; strip: boolean; quoted: boolean; redirect: Redirect }> = [];
  private lineLast: SimpleCommand | null = null;
  /** the list operator before the command being read: what its substitutions run after too */
  private commandAfter: SimpleCommand['after'] = 'other';
  /** a pipeline whose stage ran once per loop value: the pipeline each run went on in (stagesOf) */
  private readonly fans = new Map<number, number[]>();
  /** where the last command that ran something stood: what a loop's `done |` pipes on from */
  private lastStage: { pipeline: number; index: number } | null = null;
  /** whether the command just read was a loop's `done` */
  private loopDone = false;
  /** the last stage of each pipeline a group, subshell or function call just read writes to its output: what a `|` after it pipes on from */
  private groupEnds: GroupOutput | null = null;
  /** the stages besides the first that feed the command being read (`(echo a; echo b) | sh`): it is read on each of their pipelines too */
  private alsoFed: Stage[] = [];
  /** where each `{` still open began in `out`, and the function it is the body of */
  private readonly groups: Array<{ start: number; name: string | null }> = [];
  /** a function name whose body (`f() {`) comes next */
  private defining: string | null = null;
  /** the functions defined so far (`f() { echo …; }`): what their bodies ran, which `f | sh` pipes on; and the commands scanned for groups' ends */
  private shared = new GroupFeeds();

  protected child(src: string): Parser {
    const child = new Parser(src, this.home, this.depth + 1, this.ids);
    child.shared = this.shared;
    return child;
  }

  protected substitution(): Script {
    return this.nested((p) => p.list(')'), true);
  }

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
        // `done | sh`: what the loop body's last stage prints goes on into the pipe
        if ((op === '|' || op === '|&') && this.loopDone && this.lastStage) ({ pipeline, index } = { ...this.lastStage, index: this.lastStage.index + 1 });
        // `{ echo a; echo b; } | sh`, `(echo a) | sh`, `f | sh`: what each of the group's pipelines writes goes on into the pipe
        else if ((op === '|' || op === '|&') && this.groupEnds && this.endsOf(this.groupEnds).length) {
          const [first, ...more] = this.endsOf(this.groupEnds);
          ({ pipeline, index } = { pipeline: first!.pipeline, index: first!.index + 1 });
          if (this.shared.feed(more.length)) this.alsoFed = more;
          else this.tooDeep = true;
        } else if (op === '|' || op === '|&') index++;
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
        // `f() ( env )`: a function whose body is a subshell
        const fn = this.defining;
        this.defining = null;
        const from = this.out.length;
        this.nested((p) => p.list(')'), false);
        this.loopDone = false;
        this.groupEnds = { out: this.out, from, to: this.out.length };
        if (fn) this.shared.functions.set(fn, this.groupEnds);
      } else {
        this.command(pipeline, index, after);
      }
    }
  }

  /** The output ends of a group piped on (group-output.ts); past the bound, none, and the line too large to check. */
  private endsOf(group: GroupOutput): Stage[] {
    const ends = this.shared.endsOf(group);
    if (ends) return ends;
    this.tooDeep = true;
    return (group.ends = []);
  }

  /** Runs `fn` on a child parser over the rest of the input and takes its commands. */
  private nested(fn: (p: Parser) => void, isolated: boolean): Script {
    if (this.depth + 1 > MAX_DEPTH) {
      this.tooDeep = true;
      this.pos = this.src.length;
      return { commands: [], tooDeep: true };
    }
    const child = new Parser(this.src, this.home, this.depth + 1, this.ids);
    child.shared = this.shared;
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
    const alsoFed = this.alsoFed;
    if (alsoFed.length) this.alsoFed = [];
    // `f() {`: the function whose body this command's `{` opens
    let defining = this.defining;
    this.defining = null;
    this.commandAfter = after;
    this.loopDone = false;
    this.groupEnds = null;
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
      } else cmd.words.push(...(assigns ? [unsplit(word)] : expandWord(word, this.home)));
    }
    this.loopDone = cmd.words[0]?.raw === 'done';
    // `if`, `then`, `{`, `!` ... start the next command; `for x in ...` runs nothing itself
    const reserved: string[] = [];
    for (;;) {
      if (cmd.words.length && RESERVED_START.has(cmd.words[0]!.raw)) {
        const word = cmd.words.shift()!.raw;
        reserved.push(word);
        if (word === '{') this.groups.push({ start, name: defining });
        defining = null;
        // the group's commands are read: what its pipelines write is what it writes
        const group = word === '}' ? this.groups.pop() : undefined;
        if (group) this.groupEnds = { out: this.out, from: group.start, to: this.out.length };
        if (group?.name) this.shared.functions.set(group.name, this.groupEnds!);
      }
      // `function name { ...`: the body's first command follows on the same line
      else if (cmd.words[0]?.raw === 'function') defining = cmd.words.splice(0, 2)[1]?.value ?? null;
      // `coproc NAME { cmd; }` and `coproc cmd`
      else if (cmd.words[0]?.raw === 'coproc') cmd.words.splice(0, cmd.words[2]?.raw === '{' ? 3 : 1);
      else break;
    }
    this.expandAlias(cmd);
    if (!this.ids.vars.record(cmd, this.out, reserved)) this.tooDeep = true;
    if (cmd.words[0]?.raw === 'for' || cmd.words[0]?.raw === 'select') this.ids.vars.loopVariable(cmd.words);
    if (cmd.words.length && SKIP_COMMAND.has(cmd.words[0]!.raw)) cmd.words = [];
    if (cmd.words.length || cmd.redirects.length) {
      const runs = loopRunsOf(cmd, unexpanded, this.home);
      // a word crossing loops into more runs than can be read: too large to check
      if (!runs) this.tooDeep = true;
      for (const run of this.stagesOf(runs ?? [], pipeline, index)) {
        this.out.push(run);
        this.lineLast = run;
        // read again on each other pipeline of the group before it
        for (const fed of alsoFed) this.out.push({ ...run, ...fed, index: fed.index + 1 });
      }
      this.lastStage = { pipeline, index };
      // `f | sh` of a function defined on the line: what its body writes
      const called = this.shared.functions.get(cmd.words[0]?.value ?? '');
      if (called && !this.groupEnds) this.groupEnds = called;
    }
  }

  /**
   * `alias nuke='rm -rf ~'; nuke /tmp`: a command whose program word, unquoted, names an alias is
   * the alias's text with the rest of its words after it — the text's commands before its last
   * run first, its last takes the words (`alias go='cd / && rm -rf'`). A text that ends in a blank
   * has the word after it read as an alias too (`alias s='sudo '; s ll`).
   */
  private expandAlias(cmd: SimpleCommand): void {
    if (!this.ids.vars.hasAliases()) return;
    let at = cmd.words.findIndex((w) => !ASSIGNMENT.test(w.raw));
    while (at >= 0 && at < cmd.words.length) {
      const name = cmd.words[at]!.raw;
      const text = /^[^\s=/$`'"\\]+$/.test(name) ? this.ids.vars.aliasText(name) : null;
      if (text === null) return;
      if (this.depth + 1 > MAX_DEPTH) {
        this.tooDeep = true;
        return;
      }
      const child = this.child(text);
      // too much alias text read on one line: too large to check
      if (!this.ids.vars.expandingAlias(name, () => child.list(null))) this.tooDeep = true;
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
      else elements.push(...expandWord(this.word(), this.home));
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

  /**
   * A command's runs as stages of their pipelines: a stage that runs once per loop value
   * (`for d in a /; do echo "rm -rf $d" | sh`) puts each run on a pipeline of its own, and each
   * later stage is read on each of them, so every run feeds the next stage, not the first alone.
   */
  private stagesOf(runs: SimpleCommand[], pipeline: number, index: number): SimpleCommand[] {
    let fan = this.fans.get(pipeline);
    if (!fan && runs.length > 1) {
      // the first run stays on the pipeline; the stages before it are read again on each new one
      this.fans.set(pipeline, (fan = runs.map((_, r) => (r ? this.ids.next++ : pipeline))));
      const before = index ? this.out.filter((c) => c.pipeline === pipeline) : [];
      for (const lane of fan.slice(1)) this.out.push(...before.map((c) => ({ ...c, pipeline: lane })));
    }
    if (!fan || !runs.length) return runs;
    const lanes = fan;
    return Array.from({ length: Math.max(lanes.length, runs.length) }, (_, r) => ({
      ...runs[Math.min(r, runs.length - 1)]!,
      pipeline: lanes[Math.min(r, lanes.length - 1)]!,
    }));
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
    // `< <(cmd)`: a process substitution is the file redirected
    if (this.atWordEnd() && !/^[<>]\(/.test(this.src.slice(this.pos, this.pos + 2))) return { op, target: null, input: null };
    const target = expandWord(this.word(), this.home)[0]!;
    if (op === '<<<') return { op, target, input: target.value, subs: target.subs };
    // `< <(printf '/etc\0')`: what a static substitution writes is the text read on stdin
    const fed = op === '<' && target.raw.startsWith('<(') && target.subs.length === 1 ? staticOutput(target.subs[0]!) : null;
    if (fed !== null) return { op, target, input: fed, subs: target.subs };
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
}

/**
 * A command that uses a loop variable (`for d in a /; do bash -c "rm -rf $d"; done`) as the
 * commands the loop runs: one per combination of the values of the loops it uses (nested loops
 * crossed: `$a$b` takes every pair), each use of a variable taking its value of that run
 * (expand.ts pinLoop); the words marked `unexpanded` are expanded once pinned. Any other command
 * is itself. Past MAX_LOOP_COMBINATIONS combinations the loops are read side by side, run i taking each
 * loop's i-th value, which shows every value of a word holding one loop; null when a word
 * holds two (its combinations cannot all be read).
 */
function loopRunsOf(cmd: SimpleCommand, unexpanded: ReadonlySet<Word>, home: string): SimpleCommand[] | null {
  const values = [...cmd.words.map((w) => w.value), ...cmd.redirects.flatMap((r) => [r.target?.value ?? '', r.input ?? ''])];
  const loops = new Map<string, number>();
  for (const v of values) loopsIn(v, loops);
  if (!loops.size) return [cmd];
  let runs: ReadonlyArray<LoopPins | number> | null = loopRunPins(loops);
  if (!runs) {
    if (values.some((v) => loopsIn(v).size > 1)) return null;
    runs = Array.from({ length: Math.max(...loops.values()) }, (_, run) => run);
  }
  const looped = (v: string | null | undefined) => v?.includes(L_OPEN) === true;
  return runs.map((pins) => ({
    ...cmd,
    words: cmd.words.flatMap((w) => {
      if (!looped(w.value)) return [w];
      const pinned = { ...w, value: pinLoop(w.value, pins) };
      return unexpanded.has(w) ? expandWord(pinned, home) : [pinned];
    }),
    redirects: cmd.redirects.map((r) => ({
      ...r,
      target: r.target && looped(r.target.value) ? { ...r.target, value: pinLoop(r.target.value, pins) } : r.target,
      input: r.input !== null && looped(r.input) ? pinLoop(r.input, pins) : r.input,
    })),
  }));
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

/** The characters a redirection can start with: a digit of a descriptor, `{` of a named one, an operator. */
const REDIRECT_START = new Set([...'0123456789{<>&']);

/** Whether a word is data only the running shell knows (a variable, a substitution). */
export function isDynamic(w: Word): boolean {
  return w.value.includes(UNKNOWN);
}

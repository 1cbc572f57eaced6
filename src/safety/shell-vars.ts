/**
 * What a command line tells the parser (shell.ts) of its own variables, in the order it runs:
 * plain assignments (`r=rm; $r -rf /`), the positional parameters `set --` gives and `shift`
 * moves (shell-positionals.ts), a `for` loop's variable, the names `read`/`mapfile`/`printf -v`
 * set to what only the shell knows — and, for a value only the shell knows, the commands that
 * print it: the substitutions it was set from (`x=$(ls .env.local)`, `for f in $(ls ~)`) or the
 * stage that feeds a `read` (`ls ~ | while read f`), carried into each word that uses it as that
 * word's own substitutions are.
 */

import { builtinSets } from './builtin-sets.ts';
import { loopAlternatives, loopValue, MAX_LOOP_RUNS, SPLIT, UNKNOWN } from './expand.ts';
import { ifsMarked } from './ifs-fields.ts';
import { inputScripts, stageBefore } from './read-input.ts';
import { ShellAliases } from './shell-aliases.ts';
import { POSITIONAL, positionalWords, setPositionals, shiftPositionals } from './shell-positionals.ts';
import { ASSIGNMENT, type Script, type SimpleCommand, type Word } from './syntax.ts';

/** The longest value a variable may take in the parser's reading: past it the command is too large to check (`a=$a$a` doubling). */
const MAX_VALUE = 65536;
/** The most elements an array may hold in the parser's reading: past it the command is too large to check. */
const MAX_ELEMENTS = 4096;
/** The builtins that make a nameref with `-n` (`declare -n r=x`; `export -n` unexports). */
const NAMEREF = /^(local|declare|typeset)$/;
/** The builtins whose arguments are assignments, not split (`export x=$(echo a b)`). */
export const DECLARATIONS = /^(export|local|declare|typeset|readonly)$/;

/**
 * The builtins that set what the shell expands later without an assignment word of their own:
 * variables (`read`, `mapfile`, `getopts`, `printf -v`, `export`, `declare`…), the positional
 * parameters (`set --`, `shift`) and aliases (`alias`, `unalias`).
 */
export const SETTING_BUILTINS = /^(set|shift|alias|unalias|read|mapfile|readarray|getopts|printf|export|local|declare|typeset|readonly)$/;

/** Whether `cmd` may change the variables: an assignment or a setting builtin (a subshell saves them before). */
function mayChange(cmd: SimpleCommand): boolean {
  return cmd.words.some((w) => ASSIGNMENT.test(w.raw) || SETTING_BUILTINS.test(w.raw));
}

/** How many entries the subshells of one command line may save and restore (each saves what the line set before it, once): past it the command is too large to check. */
const MAX_SCOPE_COPIES = 1 << 18;

/** What a subshell saves of the variables: their state when it started, given back when it ends. */
interface SavedVars {
  values: Map<string, string>;
  fresh: Set<string>;
  globs: Set<string>;
  printedBy: Map<string, Script[]>;
  arrays: Map<string, string[]>;
  aliases: Map<string, string>;
  namerefs: Map<string, string>;
}

/** The variables one command line has set so far, shared by every parser reading it (substitutions included). */
export class ShellVars {
  /** the variables set by plain assignments so far, with the positional parameters and loop variables */
  private readonly values = new Map<string, string>();
  /** those that hold a path mktemp has just made (or nothing, when it failed) */
  private readonly fresh = new Set<string>();
  /** loop variables over globs */
  private readonly globs = new Set<string>();
  /** what prints the value of a variable only the shell knows: the substitutions it was set from, the stage a `read` reads */
  private readonly printedBy = new Map<string, Script[]>();
  /** the arrays set so far (`a=(-rf /etc)`, `a+=(x)`), each its elements */
  private readonly arrays = new Map<string, string[]>();
  /** the aliases defined so far (`alias nuke='rm -rf ~'`), read in place of a command word naming one (shell.ts) */
  readonly aliases = new ShellAliases();
  /** the namerefs set so far (`declare -n r=x`), each the variable it names */
  private readonly namerefs = new Map<string, string>();
  /** how many loops the command line has started: each one's values are marked with its number (expand.ts loopValue) */
  private loops = 0;
  /**
   * the loops open at this point (`while`, `until`, `for`, `select` up to their `done`), each with
   * the words using a variable a `read` in it set from input the command line has not told yet:
   * a `done < <(ls ~)` gives it (`while read f; do rm -rf ~/"$f"; done < <(ls ~)`)
   */
  private readonly openLoops: Array<{ reads: Set<string>; words: Set<Word> }> = [];
  /**
   * the subshells open (`( )`, `$( )`, `<( )`, a stage of a pipeline, a `&` command), each the
   * variables as they were when it started: saved at the first change inside it (null until then)
   */
  private readonly scopes: Array<SavedVars | null> = [];
  /** how many entries the subshells have saved and restored so far (MAX_SCOPE_COPIES) */
  private scopeCopies = 0;

  constructor(private readonly home: string) {}

  /**
   * A subshell starts (`(v=dist)`, `$(cd x)`, `true | v=dist`, `v=x &`): what it sets is gone when
   * it ends (`endSubshell` with what this returns). Bash runs each stage of a pipeline of more than
   * one in a subshell, the last too (without `shopt -s lastpipe`, which is off by default).
   */
  startSubshell(): number {
    this.scopes.push(null);
    return this.scopes.length - 1;
  }

  /** The subshell `startSubshell` returned `at` for ends (with those started in it): the variables are again as they were before it; false past MAX_SCOPE_COPIES. */
  endSubshell(at: number): boolean {
    if (at < 0 || at >= this.scopes.length) return true;
    const saved = this.scopes[at];
    this.scopes.length = at;
    if (!saved) return true;
    this.scopeCopies += this.size();
    const swap = <K, V>(live: Map<K, V>, from: Map<K, V>) => {
      live.clear();
      for (const [k, v] of from) live.set(k, Array.isArray(v) ? ([...v] as V) : v);
    };
    swap(this.values, saved.values);
    swap(this.printedBy, saved.printedBy);
    swap(this.arrays, saved.arrays);
    this.aliases.restore(saved.aliases);
    swap(this.namerefs, saved.namerefs);
    this.fresh.clear();
    for (const k of saved.fresh) this.fresh.add(k);
    this.globs.clear();
    for (const k of saved.globs) this.globs.add(k);
    return this.scopeCopies <= MAX_SCOPE_COPIES;
  }

  /** Before a change: each open subshell that has not saved the variables yet saves them as they are (one copy for all). */
  private beforeChange(): boolean {
    if (!this.scopes.length || this.scopes.at(-1) !== null) return this.scopeCopies <= MAX_SCOPE_COPIES;
    this.scopeCopies += this.size();
    const copy: SavedVars = {
      values: new Map(this.values),
      fresh: new Set(this.fresh),
      globs: new Set(this.globs),
      printedBy: new Map(this.printedBy),
      arrays: new Map([...this.arrays].map(([k, v]) => [k, [...v]])),
      aliases: this.aliases.saved(),
      namerefs: new Map(this.namerefs),
    };
    for (let i = this.scopes.length - 1; i >= 0 && this.scopes[i] === null; i--) this.scopes[i] = copy;
    return this.scopeCopies <= MAX_SCOPE_COPIES;
  }

  private size(): number {
    return 1 + this.values.size + this.printedBy.size + this.arrays.size + this.aliases.count + this.namerefs.size + this.fresh.size + this.globs.size;
  }

  /**
   * `NAME=value` alone (or after export/local/declare/readonly), `set --`, `shift`, `read`...: what
   * `cmd` sets of the variables; `before`, the commands read so far, holds the stage a `read` reads
   * from; `reserved`, the words the parser took off its start (`while`, `do`, `done`), where loops
   * open and close. Returns false when a value grows past MAX_VALUE (too large to follow).
   */
  record(cmd: SimpleCommand, before: readonly SimpleCommand[] = [], reserved: readonly string[] = []): boolean {
    const first = cmd.words[0]?.raw;
    if (mayChange(cmd) && !this.beforeChange()) return false;
    this.loopBounds(cmd, reserved);
    if (first === 'set') setPositionals(this.values, cmd.words.slice(1));
    if (first === 'shift') shiftPositionals(this.values, cmd.words[1]?.value);
    if (first === 'alias' || first === 'unalias') this.aliases.record(first, cmd.words.slice(1));
    // `read d`, `IFS= read -r d`, `mapfile -t a`, `printf -v d …`, `getopts o d`: the shell sets them to what only it knows
    const at = cmd.words.findIndex((w) => !ASSIGNMENT.test(w.raw));
    const setter = cmd.words[at]?.raw;
    if (setter === 'read' || setter === 'mapfile' || setter === 'readarray' || setter === 'getopts' || setter === 'printf') {
      // `ls ~ | while read f`, `read f < <(ls ~)`, `read f <<< "$(ls ~)"`: what f holds is a line the stage before or the redirection's substitution prints
      const reads = setter === 'read' || setter === 'mapfile' || setter === 'readarray';
      const feeder = reads ? stageBefore(cmd, before) : undefined;
      const fed = feeder ? [{ commands: [feeder], tooDeep: false }] : reads ? inputScripts(cmd) : [];
      // in a loop, a `read` with no input told yet may get it from the loop's `done < …`
      const loop = reads && !fed.length ? this.openLoops.at(-1) : undefined;
      for (const [i, w] of cmd.words.entries()) {
        if (i <= at || (setter === 'printf' && cmd.words[i - 1]!.value !== '-v')) continue;
        const name = this.target(w.value);
        this.forget(name);
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) continue;
        if (fed.length) this.setPrintedBy(name, fed);
        else if (loop) {
          this.values.set(name, UNKNOWN);
          loop.reads.add(name);
        }
      }
      // what it sets, as `NAME=value` is (`read v <<< "…"`, `printf -v v '%s' x`): known where the command line tells the input
      for (const set of builtinSets(cmd, at, reads ? stageBefore(cmd, before) : undefined, this.values.get('IFS'))) {
        const name = this.target(set.name);
        (cmd.assigns ??= []).push(`${name}=${set.value}`);
        // a later stage of a pipeline runs in a subshell: what it sets is gone after it (`v=/; echo x | read v` leaves v /)
        if (set.value.includes(UNKNOWN) || cmd.index > 0) continue;
        this.forget(name);
        this.values.set(name, set.value);
        if (set.elements) this.arrays.set(name, set.elements);
      }
    }
    // `declare -n r=GIT_PAGER`, `local -n ref=out`: later uses and assignments of r are of the variable it names
    if (NAMEREF.test(first ?? '') && cmd.words.slice(1).some((w) => /^-[A-Za-z]*n/.test(w.value))) {
      for (const w of cmd.words.slice(1)) {
        const m = /^([A-Za-z_][A-Za-z0-9_]*)=([A-Za-z_][A-Za-z0-9_]*)$/.exec(w.value);
        if (m && m[1] !== m[2]) this.namerefs.set(m[1]!, m[2]!);
        else if (!w.value.startsWith('-')) this.namerefs.delete(w.value.split('=')[0]!);
      }
      return true;
    }
    // `a[1]=/etc`: one element of an array (of a known one at a known index; any other the shell's)
    const element = first?.includes('[') ? /^([A-Za-z_][A-Za-z0-9_]*)\[([^\]]*)\]=/.exec(first) : null;
    if (element) this.setElement(element[1]!, element[2]!, cmd.words[0]!.value.slice(cmd.words[0]!.value.indexOf('=') + 1));
    const words = DECLARATIONS.test(first ?? '') ? cmd.words.slice(1).filter((w) => !w.raw.startsWith('-')) : cmd.words;
    if (!words.length || !words.every((w) => ASSIGNMENT.test(w.raw))) return true;
    let fits = true;
    for (const w of words) {
      const eq = w.value.indexOf('=');
      // `d+=/x` appends to what `d` held: known only when that was (`d=/tmp/build; d+=/../..`)
      const appends = w.value[eq - 1] === '+';
      const written = w.value.slice(0, appends ? eq - 1 : eq);
      const name = this.target(written);
      const before = appends ? (this.values.get(name) ?? UNKNOWN) : '';
      const value = before + w.value.slice(eq + 1);
      // `declare -n r=GIT_PAGER; r='…'` assigns GIT_PAGER
      if (name !== written) (cmd.assigns ??= []).push(`${name}=${value}`);
      const printers = appends ? (this.printedBy.get(name) ?? []) : [];
      const elements = this.assignedElements(name, w, appends);
      // `tmp=$(mktemp -d); tmp+=(x)`: what it appends to is still the fresh path
      const wasFresh = appends && !!w.array && this.fresh.has(name);
      this.forget(name);
      if (wasFresh) this.fresh.add(name);
      // `x=$(ls .env.local)`, `y=$x`: what prints the part only the shell knows
      if (value.includes(UNKNOWN) && (printers.length || w.subs.length)) this.setPrintedBy(name, [...new Set([...printers, ...w.subs])]);
      // `a=$a$a` doubled on: past MAX_VALUE the command is too large to follow
      if (value.length > MAX_VALUE || (elements?.length ?? 0) > MAX_ELEMENTS) fits = false;
      else {
        // `$a` of an array is its first element
        this.values.set(name, elements ? (elements[0] ?? '') : value);
        if (elements) this.arrays.set(name, elements);
        // `a=(*)`: the names the glob matches, quoted or not (as a loop's `for f in *`)
        if (w.array && w.glob) this.globs.add(name);
      }
      // `tmp=$(mktemp -d)`: a fresh path mktemp made, or nothing; and a copy of one (`t=$tmp`)
      const sub = value === UNKNOWN && w.subs.length === 1 ? w.subs[0]!.commands : [];
      const copied = /^[A-Za-z_][A-Za-z0-9_]*=("?)\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?\1$/.exec(w.raw)?.[2];
      if ((sub.length === 1 && sub[0]!.words[0]?.value === 'mktemp') || (copied && this.fresh.has(copied))) this.fresh.add(name);
    }
    return fits;
  }

  /**
   * The elements `name` holds after the assignment `w`: `a=(x y)` sets them, `a+=(z)` appends
   * (to a plain variable's value as the first, known or not: `x=$(cat f); x+=(dist)` is the
   * unknown value, then `dist`), `a=x` replaces the first of a known array; null when `name` is no
   * known array afterwards.
   */
  private assignedElements(name: string, w: Word, appends: boolean): string[] | null {
    const before = this.arrays.get(name);
    if (w.array && !appends) return w.array;
    if (w.array) {
      // `x=build; x+=(~)`: a plain variable is an array of one, the elements follow it
      const plain = before ? undefined : this.values.get(name);
      return [...(before ?? (plain === undefined ? [] : [plain])), ...w.array];
    }
    if (!before) return null;
    const value = w.value.slice(w.value.indexOf('=') + 1);
    return [appends ? (before[0] ?? '') + value : value, ...before.slice(1)];
  }

  /**
   * `${a[@]}`, `${a[*]}`, `${a[1]}` of an array the command line set (`a=(-rf /etc)`): quoted, `@`
   * gives each element a word of its own and `*` joins them with spaces; unquoted, both split.
   * Null for an array or index the command line does not tell.
   */
  element(name: string, index: string, inDouble: boolean): string | null {
    // a plain variable is an array of one (`x=build; "${x[@]}"`)
    const plain = this.values.get(name);
    const elements = this.arrays.get(name) ?? (plain === undefined || POSITIONAL.test(name) ? undefined : [plain]);
    if (!elements) return null;
    let v: string;
    if (index === '@' || index === '*') v = index === '@' || !inDouble ? elements.join(SPLIT) : elements.join(' ');
    else if (/^[0-9]+$/.test(index)) v = elements[Number(index)] ?? '';
    else return null;
    return inDouble ? v : v.replace(/[ \t\n]+/g, SPLIT);
  }

  private setElement(name: string, index: string, value: string): void {
    const elements = this.arrays.get(name);
    if (!elements || !/^[0-9]+$/.test(index) || Number(index) > MAX_ELEMENTS) return this.forget(name);
    elements[Number(index)] = value;
    for (let i = 0; i < elements.length; i++) elements[i] ??= '';
    this.values.set(name, elements[0]!);
  }

  /** The variable `name` stands for: itself, or the one a nameref names (`declare -n r=x`: x), followed a few steps. */
  private target(name: string): string {
    for (let k = 0; k < 8 && this.namerefs.has(name); k++) name = this.namerefs.get(name)!;
    return name;
  }

  /** The shell sets `name` to what only it knows. */
  private forget(name: string): void {
    this.arrays.delete(name);
    this.values.delete(name);
    this.fresh.delete(name);
    this.globs.delete(name);
    this.printedBy.delete(name);
    for (const loop of this.openLoops) loop.reads.delete(name);
  }

  /**
   * A loop opens at `while`, `until`, `for`, `select` and closes at `done`: what its `done` reads
   * (`done < <(ls ~)`, `done <<< "$(ls ~)"`, `done < list`) is what each `read` in it with no
   * input of its own reads, carried into the words that used the variables it set.
   */
  private loopBounds(cmd: SimpleCommand, reserved: readonly string[]): void {
    for (const r of reserved) {
      if (r === 'while' || r === 'until') this.openLoops.push({ reads: new Set(), words: new Set() });
      else if (r === 'done') {
        const loop = this.openLoops.pop();
        const fed = loop?.words.size ? inputScripts(cmd) : [];
        for (const w of loop && fed.length ? loop.words : []) for (const s of fed) if (!w.subs.includes(s)) w.subs.push(s);
      }
    }
    const first = cmd.words[0]?.raw;
    if (first === 'for' || first === 'select') this.openLoops.push({ reads: new Set(), words: new Set() });
  }

  /** `name` holds what only the shell knows, printed by `scripts`: each word using it carries them (append). */
  private setPrintedBy(name: string, scripts: Script[]): void {
    this.values.set(name, UNKNOWN);
    this.printedBy.set(name, scripts);
  }

  /**
   * `for d in / /tmp; do rm -rf "$d"; done`: the body runs once per value, and each command using
   * `$d` is read once per value (expand.ts loopValue), a glob as the names it matches, quoted or
   * not (`for f in *.ts`); a value only the shell knows leaves it unknown.
   */
  loopVariable(words: Word[]): void {
    this.beforeChange();
    const name = words[1]?.raw;
    if (!name || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return;
    const values = words[2]?.raw === 'in' ? words.slice(3).map((w) => w.value) : [];
    // `for d;` runs over the positional parameters (`set -- a b`)
    if (words.length === 2) values.push(...positionalWords(this.values));
    this.forget(name);
    // each use of the variable is checked once per value: past MAX_LOOP_RUNS it stays unknown, as the shell's own would be
    // a value that is itself a loop variable's (`for e in $d`, `for e in $d$f`) is each of its values
    const flat = values.flatMap((v) => loopAlternatives(v));
    // `for f in $(ls ~)`: each value is a word the substitution prints
    const subs = words.slice(3).flatMap((w) => w.subs);
    if (subs.length && flat.some((v) => v.includes(UNKNOWN))) this.setPrintedBy(name, subs);
    if (!flat.length || flat.length > MAX_LOOP_RUNS || flat.some((v) => v.includes(UNKNOWN))) return;
    // the body is read once per value (shell.ts), this loop's values crossed with those of the loops around it
    this.values.set(name, loopValue(this.loops++, flat));
    if (words.slice(3).some((w) => w.glob)) this.globs.add(name);
  }

  /**
   * The value of `$name` when the command line itself tells it: HOME, IFS, an earlier assignment;
   * USER and LOGNAME, unless the line sets them, the name of the user whose home it is (a name, never
   * a path: `/home/$USER/.m2` is the home's `.m2`, not any folder below /home).
   */
  known(called: string, inDouble: boolean): string | null {
    // `declare -n r=HOME; "$r"`: the variable a nameref names, HOME's value as HOME's own
    const name = called === '0' ? called : this.target(called);
    if (name === 'HOME') return this.home;
    if ((name === 'USER' || name === 'LOGNAME') && !this.values.has(name)) return this.home.slice(this.home.lastIndexOf('/') + 1) || null;
    // unquoted $IFS splits words: `rm$IFS-rf$IFS/` is `rm -rf /`
    if (name === 'IFS') return inDouble ? ' ' : SPLIT;
    // bash sets `$0` to what is assigned to BASH_ARGV0 (how `bash -c SCRIPT NAME` is read: command.ts shellScript)
    const v = this.values.get(name === '0' ? 'BASH_ARGV0' : name);
    if (v === undefined) return null;
    // unquoted, a value splits into words by IFS: `c="npm publish"; $c` runs npm, so does `IFS=,; c="npm,publish"; $c`
    return inDouble ? v : ifsMarked(v, this.values.get('IFS'));
  }

  /**
   * Appends a variable's known value to `w`: one that starts with what only the shell knows (`d=$1`,
   * `here=$(pwd)`) leads the word with that variable; unquoted, its glob characters are a glob.
   */
  append(w: Word, name: string, value: string, atStart: boolean, inDouble: boolean): void {
    // each script once however often the word uses the variable (`x=$x$x` doubles no list)
    for (const s of this.printedBy.get(name) ?? []) if (!w.subs.includes(s)) w.subs.push(s);
    // a variable a `read` in a loop set: the loop's `done < …` may tell what it reads
    const loop = this.openLoops.findLast((l) => l.reads.has(name));
    loop?.words.add(w);
    if (atStart && value.startsWith(UNKNOWN)) {
      w.leadingVar = name;
      if (this.fresh.has(name)) w.fresh = true;
    }
    if (value === UNKNOWN && this.fresh.has(name)) w.freshUnknowns = (w.freshUnknowns ?? 0) + 1;
    if ((!inDouble || this.globs.has(name)) && /[*?[]/.test(value)) w.glob = true;
    w.value += value;
  }
}

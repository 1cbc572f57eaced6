import { shellQuote } from '../model/shell-quote.ts';
import type { PipedInvocation } from './bash-rules.ts';
import { type Invocation, programName, SHELLS, shellBody } from './command.ts';
import { UNKNOWN } from './expand.ts';
import { type Lang, languageOf, phpCode, scriptFileAt } from './families/interpreter-argv.ts';
import type { PipeReading } from './fed-input.ts';
import { makefileRecipes, makefilesRead } from './makefile-recipes.ts';
import { downloadFiles } from './path-uses-downloads.ts';
import { resolvePath } from './paths.ts';
import { clientFolder, fetchedCode, packageScripts } from './runners.ts';
import { plainWord, type SimpleCommand, type Word } from './syntax.ts';

/**
 * The files one command line writes and then runs, where the line tells what they hold: a file
 * written from literal text (`echo 'rm -rf ~' > x.sh && sh x.sh`, `cat > x.py <<'EOF' … EOF` then
 * `python3 x.py`, `tee x.sh <<'EOF'`, a Makefile then `make x`, `npm pkg set scripts.x='…' && npm
 * run x`) is run as that text — the shell's, an interpreter's one-liner, a Makefile's recipes —
 * and a file a download wrote (`curl -o x.sh URL && bash x.sh`) is that download run unread, as
 * `curl URL | sh` is, so the pipeline patterns (bash-rules.ts checkPipelines) judge it. Also the
 * runners that fetch code from a URL and run it (`deno run -A https://…`, `npx https://…/x.tgz`:
 * runners.ts fetchedCode). A file written from what only the running shell knows (`> x.sh` from a
 * substitution, a variable) stays unknown; files are named as the write and the run name them
 * (`./x.sh`, `x.sh` for `bash`, absolute, `$PWD/x.sh`), resolved in the folder the walk is in.
 */

/** What the line wrote into one file: its text where the line tells it, and the programs whose output went in where it does not. */
interface Written {
  text: string | null;
  writers: readonly Invocation[];
}

/** What a command runs of the files the line wrote: command lines to check, and the downloads it runs unread. */
export interface WrittenRuns {
  scripts: string[];
  downloads: Invocation[];
}

/** How a file's text runs: as a shell script, executed (its `#!` line decides), a Makefile, or an interpreter's program. */
type Reading = 'shell' | 'exec' | 'make' | { program: string; lang: Lang };

/** The redirections that write into their file. */
const WRITES = new Set(['>', '>|', '>>', '&>', '&>>']);

/** How many pipeline stages back a write looks for the programs whose output it takes. */
const WRITERS_BACK = 64;

/** An interpreter's option that runs code given inline: the one-liner its script file is read as. */
const INLINE: Partial<Record<Lang, string>> = {
  python: '-c',
  js: '-e',
  perl: '-e',
  ruby: '-e',
  php: '-r',
  lua: '-e',
  r: '-e',
  julia: '-e',
  applescript: '-e',
};

export class WrittenFiles {
  private readonly files = new Map<string, Written>();
  /** the package scripts the line set, per package.json (`npm pkg set scripts.x=…`, a package.json it wrote) */
  private readonly scripts = new Map<string, Map<string, string>>();

  constructor(private readonly home: string) {}

  /** What `inv` runs of the files written before it (`cwd`: the folder the walk is in), and the code it fetches from a URL. */
  runs(inv: Invocation | null, cwd: string | null): WrittenRuns {
    const out: WrittenRuns = { scripts: [], downloads: [] };
    if (!inv) return out;
    const values = inv.args.map((a) => a.value);
    // `deno run -A https://…`, and a runner peeled off (command.ts) as written: `npx https://…/x.tgz`, `bun run https://…`
    for (const [program, ...args] of [[inv.program, ...values], ...inv.runners]) {
      const url = fetchedCode(programName(program!), args);
      if (url) out.downloads.push({ ...inv, program: 'curl', args: [plainWord(url)] });
    }
    if (!this.files.size && !this.scripts.size) return out;
    const run = (word: Word | undefined, reading: Reading) => {
      const file = word && this.files.get(this.key(word.value, word, cwd) ?? '');
      if (!file) return;
      const text = file.text === null ? null : scriptOf(reading, file.text);
      if (text) out.scripts.push(text);
      out.downloads.push(...file.writers);
    };
    const lang = languageOf(inv.program);
    if (SHELLS.has(inv.program)) run(inv.args[shellFileAt(inv.args)], 'shell');
    else if (inv.program === 'source' || inv.program === '.')
      run(
        inv.args.find((a) => a.value !== '--'),
        'shell',
      );
    else if (lang) run(inv.args[scriptFileAt(inv.program, lang, values)], { program: inv.program, lang });
    const own = programWord(inv);
    if (own?.value.includes('/')) run(own, 'exec');
    for (const f of makefilesRead(inv.program, values)) run(plainWord(f), 'make');
    const named = packageScripts(inv.program, values);
    const set = named && this.scripts.get(this.key(`${named.dir ?? '.'}/package.json`, null, cwd) ?? '');
    for (const name of set ? named.names : []) {
      const line = set!.get(name);
      if (line !== undefined) out.scripts.push(line);
    }
    return out;
  }

  /** Records what `cmd` writes into files: its output redirected, `tee`'s files, a copy, a download's file, package scripts set. */
  record(cmd: SimpleCommand, inv: Invocation | null, reading: PipeReading, piped: readonly PipedInvocation[], cwd: string | null): void {
    let output: string | null | undefined;
    const text = () => (output === undefined ? (output = outputText(cmd, inv, reading)) : output);
    const writers = () => writersOf(cmd, piped);
    for (const r of cmd.redirects)
      if (WRITES.has(r.op) && r.target && !r.target.raw.startsWith('>(')) this.write(r.target, cwd, text(), r.op.endsWith('>>'), writers);
    if (!inv) return;
    const values = inv.args.map((a) => a.value);
    if (inv.program === 'tee') {
      const append = values.some((v) => v === '--append' || /^-[a-z]*a/.test(v));
      for (const a of inv.args) if (!a.value.startsWith('-') && !a.raw.startsWith('>(')) this.write(a, cwd, text(), append, writers);
    }
    if (inv.program === 'cp' || inv.program === 'mv') this.copy(inv, cwd);
    for (const f of downloadFiles(inv)) this.set(this.key(f, null, cwd), { text: null, writers: [inv] });
    this.setScripts(inv, values, cwd);
  }

  /** A file's key: its absolute path, or for one that starts with an unknown variable (`$D/x.sh`), that variable and the rest; null where the line does not tell. */
  private key(value: string, word: Word | null, cwd: string | null): string | null {
    let path = value;
    // `$PWD/x.sh`: the folder the walk is in
    if (word?.leadingVar === 'PWD' && cwd && path.startsWith(UNKNOWN) && path.indexOf('/') > 0) path = cwd + path.slice(path.indexOf('/'));
    if (path.includes(UNKNOWN)) return word?.leadingVar ? `\0${word.leadingVar}\0${path}` : null;
    return resolvePath(path, { cwd: cwd ?? `/${UNKNOWN}`, home: this.home });
  }

  private write(word: Word, cwd: string | null, text: string | null, append: boolean, writers: () => Invocation[]): void {
    const key = this.key(word.value, word, cwd);
    if (key === null) return;
    const old = append ? this.files.get(key) : undefined;
    if (text === null) this.set(key, { text: old?.text ?? null, writers: [...(old?.writers ?? []), ...writers()] });
    else this.set(key, { text: (old?.text ?? '') + text, writers: old?.writers ?? [] });
  }

  private set(key: string | null, file: Written | null): void {
    if (key === null) return;
    if (file) this.files.set(key, file);
    else this.files.delete(key);
    // a package.json the line wrote: the scripts it holds
    if (key.endsWith('/package.json')) {
      const scripts = file?.text ? scriptsOf(file.text) : null;
      if (scripts) this.scripts.set(key, scripts);
      else this.scripts.delete(key);
    }
  }

  /** `cp a b`, `mv a b`, `cp a b dir/`: each destination holds what its source held (nothing known where the line did not write the source). */
  private copy(inv: Invocation, cwd: string | null): void {
    const operands = inv.args.filter((a) => !a.value.startsWith('-'));
    if (operands.length < 2 || inv.args.some((a) => /^-[a-zA-Z]*t/.test(a.value) || a.value.startsWith('--target'))) return;
    const dest = operands.at(-1)!;
    for (const src of operands.slice(0, -1)) {
      const from = this.key(src.value, src, cwd);
      const file = from === null ? undefined : this.files.get(from);
      const name = src.value.slice(src.value.lastIndexOf('/') + 1);
      const targets = operands.length > 2 ? [`${dest.value}/${name}`] : [dest.value, `${dest.value}/${name}`];
      for (const t of targets) this.set(this.key(t, dest, cwd), file ?? null);
      if (inv.program === 'mv' && from !== null) this.set(from, null);
    }
  }

  /** `npm pkg set scripts.x='…'` (`--json scripts='{…}'`), `npm pkg delete scripts.x`, `npm set-script x '…'`: the package scripts the line sets. */
  private setScripts(inv: Invocation, values: string[], cwd: string | null): void {
    if (inv.program !== 'npm' && inv.program !== 'pnpm') return;
    const operands = values.filter((v) => !v.startsWith('-'));
    const setScript = operands[0] === 'set-script' && operands.length >= 3;
    if (!(operands[0] === 'pkg' && (operands[1] === 'set' || operands[1] === 'delete')) && !setScript) return;
    const key = this.key(`${clientFolder(values) ?? '.'}/package.json`, null, cwd);
    if (key === null) return;
    let scripts = this.scripts.get(key);
    if (!scripts) this.scripts.set(key, (scripts = new Map()));
    if (setScript) scripts.set(operands[1]!, operands.slice(2).join(' '));
    for (const op of setScript ? [] : operands.slice(2)) {
      const eq = op.indexOf('=');
      const name = eq < 0 ? op : op.slice(0, eq);
      if (operands[1] === 'delete') scripts.delete(name.replace(/^scripts\./, ''));
      else if (name.startsWith('scripts.')) scripts.set(name.slice('scripts.'.length), op.slice(eq + 1));
      else if (name === 'scripts') for (const [k, v] of scriptsOf(`{"scripts":${op.slice(eq + 1)}}`) ?? []) scripts.set(k, v);
    }
  }
}

/** The text of a written file as the command line it runs as; null where it is not read (a `#!` program that is neither a shell nor an interpreter read here). */
function scriptOf(reading: Reading, text: string): string | null {
  if (reading === 'shell') return text;
  if (reading === 'make') return makefileRecipes(text);
  if (reading !== 'exec') return interpreterLine(reading.program, reading.lang, text);
  // an executed file: its `#!` line names the program (`#!/usr/bin/env python3`); without one the shell runs it
  const shebang = /^#!\s*(\S+)(?:[ \t]+(.*))?/.exec(text);
  if (!shebang) return text;
  let program = programName(shebang[1]!);
  if (program === 'env') program = programName(shebang[2]?.split(/\s+/).find((w) => !w.startsWith('-')) ?? '');
  if (SHELLS.has(program)) return text;
  const lang = languageOf(program);
  return lang ? interpreterLine(program, lang, text) : null;
}

/** A script file's program as the interpreter's one-liner (`python3 -c '…'`, `node -e '…'`, `deno eval '…'`), which families/interpreter.ts reads. */
function interpreterLine(program: string, lang: Lang, text: string): string | null {
  if (program === 'deno') return `deno eval ${shellQuote(text)}`;
  const flag = INLINE[lang];
  if (!flag) return null;
  return `${shellQuote(lang === 'r' ? 'Rscript' : program)} ${flag} ${shellQuote(lang === 'php' ? phpCode(text) : text)}`;
}

/** The index of the script file a shell runs (`bash -e x.sh`), or -1: `-c`, `-s`, stdin, or none. As command.ts shellReadsStdin reads the options. */
function shellFileAt(args: readonly Word[]): number {
  if (shellBody([...args]) !== null) return -1;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '-o' || v === '+o' || v === '-O' || v === '+O' || v === '--rcfile' || v === '--init-file') i++;
    else if (v === '--') return i + 1 < args.length && args[i + 1]!.value !== '-' ? i + 1 : -1;
    else if (v === '-s' || (/^-[A-Za-z]+$/.test(v) && v.includes('s'))) return -1;
    else if (!v.startsWith('-') && !v.startsWith('+')) return v === '/dev/stdin' ? -1 : i;
  }
  return -1;
}

/** The word the program was named by (`./x.sh` of `sudo ./x.sh a`), or null where the peel rebuilt the words. */
function programWord(inv: Invocation): Word | null {
  const words = inv.command.words;
  const at = inv.args.length ? words.indexOf(inv.args[0]!) - 1 : words.length - 1;
  const word = at >= 0 ? words[at] : undefined;
  return word && programName(word.value) === inv.program ? word : null;
}

/** What a command writes to its output, where the line tells it (fed-input.ts PipeReading): a heredoc or here-string it passes on ends with its newline. */
function outputText(cmd: SimpleCommand, inv: Invocation | null, reading: PipeReading): string | null {
  const text = reading.writes(cmd);
  const own = cmd.redirects.find((r) => r.input !== null);
  const passesOwn = own && (own.op === '<<<' || own.op === '<<' || own.op === '<<-') && (!inv || inv.program === 'cat' || inv.program === 'tee');
  return text !== null && passesOwn && !text.endsWith('\n') ? `${text}\n` : text;
}

/** The programs whose output a write takes: this stage and the stages before it in its pipeline, with what runs to make their words. */
function writersOf(cmd: SimpleCommand, piped: readonly PipedInvocation[]): Invocation[] {
  const out: Invocation[] = [];
  for (let i = piped.length - 1; i >= 0 && i >= piped.length - WRITERS_BACK; i--) {
    const p = piped[i]!;
    if (p.pipeline === cmd.pipeline && p.index <= cmd.index) out.push(p.inv);
  }
  return out;
}

/** The scripts of a package.json's text, or null where it is no JSON object. */
function scriptsOf(text: string): Map<string, string> | null {
  try {
    const json = JSON.parse(text) as { scripts?: unknown };
    const scripts = json && typeof json === 'object' && json.scripts && typeof json.scripts === 'object' ? json.scripts : {};
    return new Map(Object.entries(scripts).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return null;
  }
}

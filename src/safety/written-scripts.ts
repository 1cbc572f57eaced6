import { shellQuote } from '../model/shell-quote.ts';
import { argvLine } from './argv-line.ts';
import type { PipedInvocation } from './bash-rules.ts';
import { type Invocation, programName, SHELLS } from './command.ts';
import { UNKNOWN } from './expand.ts';
import { EXTRACTORS, type Extraction, extraction } from './extracted-archives.ts';
import { type Lang, languageOf, phpCode, scriptFileAt } from './families/interpreter-argv.ts';
import type { PipeReading } from './fed-input.ts';
import type { Finding } from './git-rules.ts';
import { makefileRecipes, makefilesRead } from './makefile-recipes.ts';
import { clientFolder, packageScripts, scriptsOf } from './package-scripts.ts';
import { downloadFiles } from './path-uses-downloads.ts';
import { resolvePath } from './paths.ts';
import { direnvFolder, PROGRAM_FILES, pathFolders, programWord, shellFileAt, stdinScript, WINDOWS_RUNNABLE, windowsStarted } from './run-files.ts';
import { fetchedCode } from './runner-fetches.ts';
import { plainWord, type SimpleCommand, type Word } from './syntax.ts';
import { type TaskRunner, taskFilesRead, taskRunnerOf, taskScript } from './task-runner-files.ts';
import { runnerFiles } from './test-runner-files.ts';
import { type LoadedReading, loadedFiles } from './tool-loaded-files.ts';

/**
 * The files one command line writes and then runs, where the line tells what they hold: a file
 * written from literal text (`echo 'rm -rf ~' > x.sh && sh x.sh`, `cat > x.py <<'EOF' … EOF` then
 * `python3 x.py`, `tee x.sh <<'EOF'`, a Makefile then `make x`, `npm pkg set scripts.x='…' && npm
 * run x`) is run as that text — the shell's, an interpreter's one-liner, a Makefile's recipes —
 * and a file a download wrote (`curl -o x.sh URL && bash x.sh`) is that download run unread, as
 * `curl URL | sh` is, so the pipeline patterns (bash-rules.ts checkPipelines) judge it. Also the
 * runners that fetch code from a URL and run it (`deno run -A https://…`, `npx https://…/x.tgz`:
 * runner-fetches.ts fetchedCode). A file written from what only the running shell knows (`> x.sh` from a
 * substitution, a variable) stays unknown; files are named as the write and the run name them
 * (`./x.sh`, `x.sh` for `bash`, absolute, `$PWD/x.sh`), resolved in the folder the walk is in.
 */

/** What the line wrote into one file: its text where the line tells it, and the programs whose output went in where it does not. */
interface Written {
  text: string | null;
  writers: readonly Invocation[];
}

/**
 * One write into a file, found when a run needs it (most files a line writes are never run): its
 * text, else the programs whose output it took, after what the file held before an append (`prev`).
 */
interface Write {
  prev: Write | null;
  /** the command that wrote, what it runs and how its pipeline is read, and how many of the walk's piped programs came before it */
  by: { cmd: SimpleCommand; inv: Invocation | null; reading: PipeReading; piped: readonly PipedInvocation[]; end: number } | null;
  found?: Written;
}

/** The language of each program name met (interpreter-argv.ts languageOf, asked once a name: every command is asked). */
const LANGUAGES = new Map<string, Lang | null>();

/** What a command that runs no written file runs of them. */
const NOTHING: WrittenRuns = Object.freeze({ scripts: [], downloads: [], tooMany: null });

/** The package managers whose commands run package scripts (package-scripts.ts packageScripts). */
const PACKAGE_CLIENTS = new Set(['npm', 'pnpm', 'yarn', 'bun']);

/** What a command runs of the files the line wrote: command lines to check, the downloads it runs unread, and whether the line ran more of them than are read. */
export interface WrittenRuns {
  scripts: string[];
  downloads: Invocation[];
  /** past MAX_READS files run on one line (`echo 'sh f; sh f' > f; sh f` doubles with each run): too many to check */
  tooMany: Finding | null;
}

/** How a file's text runs: as a shell script, executed (its `#!` line decides), a Makefile, an interpreter's program, or a task runner's file (task-runner-files.ts). */
type Reading = 'shell' | 'exec' | 'make' | { program: string; lang: Lang } | { task: TaskRunner; words: readonly string[] } | { inline: string };

/** The redirections that write into their file. */
const WRITES = new Set(['>', '>|', '>>', '&>', '&>>']);

/** The programs that run code they fetch from a URL themselves, not as a runner command.ts peels (runner-fetches.ts fetchedCode). */
const FETCHERS = new Set(['deno', 'bun']);

/** The programs whose own words write files record reads: `tee`, a copy, a download, a package script set, an archive extracted. */
const RECORDED = new Set([
  'tee',
  'cp',
  'mv',
  'curl',
  'wget',
  'npm',
  'pnpm',
  'curl.exe',
  'certutil',
  'certutil.exe',
  'bitsadmin',
  'bitsadmin.exe',
  ...EXTRACTORS,
]);

/** How many runs of written files one command line is read for, its nested shells' included. */
const MAX_READS = 64;

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

const TOO_MANY: Finding = {
  rule: 'shell.too-deep',
  reason: 'the command runs the files it writes too many times over to be checked; run the steps one by one',
};

export class WrittenFiles {
  /** each file's content, or how to find it once a run needs it (most files written are never run) */
  private readonly files = new Map<string, Write>();
  /** the package scripts the line set, per package.json (`npm pkg set scripts.x=…`, a package.json it wrote) */
  private readonly scripts = new Map<string, Map<string, string>>();
  /** the folders an archive from a download was extracted into (`curl -L URL | tar xz`), with the programs it came from */
  private readonly extracted: Array<{ folder: string; writers: readonly Invocation[] }> = [];
  /** the runs of written files read so far on this line */
  private reads = 0;
  /** the folders a `PATH=…` or `export PATH=…` earlier on the line put on PATH, where the line tells them */
  private pathFolders: string[] = [];

  constructor(private readonly home: string) {}

  /** What `inv` runs of the files written before it (`cwd`: the folder the walk is in), and the code it fetches from a URL. */
  runs(inv: Invocation | null, cwd: string | null): WrittenRuns {
    if (!inv) return NOTHING;
    const p = inv.program;
    // `deno run -A https://…`, and a runner peeled off (command.ts) as written: `npx https://…/x.tgz`, `bun run https://…`
    const downloads: Invocation[] = [];
    if (FETCHERS.has(p) || inv.runners.length)
      for (const [program, ...args] of FETCHERS.has(p) ? [[p, ...inv.args.map((a) => a.value)], ...inv.runners] : inv.runners) {
        const url = fetchedCode(programName(program!), args);
        if (url) downloads.push({ ...inv, program: 'curl', args: [plainWord(url)] });
      }
    const out: WrittenRuns = { scripts: [], downloads, tooMany: null };
    let lang = LANGUAGES.get(p);
    if (lang === undefined) {
      lang = languageOf(p);
      if (LANGUAGES.size < 1024) LANGUAGES.set(p, lang);
    }
    const own = programWord(inv);
    const values = inv.args.map((a) => a.value);
    // `PATH=/tmp/b:$PATH ls`, `export PATH=…; ls`: a program named bare is looked up in the folders put on PATH first
    const onPath = own && !own.value.includes('/') ? [...pathFolders(inv.command.words.slice(0, inv.command.words.indexOf(own))), ...this.pathFolders] : [];
    // `node --test x.test.mjs`, `pytest test_x.py`, `npx tsx x.ts`: a runner of a language's files (test-runner-files.ts)
    const runner = runnerFiles(p, values);
    // `cargo build` runs build.rs, `pytest` conftest.py, `npx eslint .` eslint.config.js (tool-loaded-files.ts)
    const loaders = loadedFiles(p, values, [...inv.runners, ...inv.via.map((v) => [v])]);
    const task = taskRunnerOf(p);
    const runsFiles =
      task !== null ||
      runner !== null ||
      loaders.length > 0 ||
      SHELLS.has(p) ||
      p === 'source' ||
      p === '.' ||
      lang !== null ||
      own?.value.includes('/') ||
      p.endsWith('make') ||
      PACKAGE_CLIENTS.has(p) ||
      inv.runners.length > 0 ||
      onPath.length > 0 ||
      inv.via.includes('direnv') ||
      Object.hasOwn(PROGRAM_FILES, p) ||
      WINDOWS_RUNNABLE.test(p) ||
      windowsStarted(p, inv.args) !== null;
    if (!runsFiles || (!this.files.size && !this.scripts.size && !this.extracted.length)) return downloads.length ? out : NOTHING;
    // `sh < x.sh`: a shell handed no script and no command line reads its script on stdin
    if (SHELLS.has(p)) this.read(out, inv.args[shellFileAt(inv.args)] ?? stdinScript(inv), 'shell', cwd);
    else if (p === 'source' || p === '.')
      this.read(
        out,
        inv.args.find((a) => a.value !== '--'),
        'shell',
        cwd,
      );
    else if (lang) this.read(out, inv.args[scriptFileAt(p, lang, values)], { program: p, lang }, cwd);
    for (const i of runner?.files ?? []) this.read(out, inv.args[i], { program: runner!.program, lang: runner!.lang }, cwd);
    if (own?.value.includes('/')) this.read(out, own, 'exec', cwd);
    // `p.exe`, `start p.exe` (cmd.exe), `powershell -File i.ps1`: a Windows program's file run from the current folder
    else if (own && WINDOWS_RUNNABLE.test(own.value)) this.read(out, own, 'exec', cwd);
    const started = windowsStarted(p, inv.args);
    if (started) this.read(out, started, 'exec', cwd);
    for (const folder of onPath) this.read(out, plainWord(`${folder}/${own!.value}`), 'exec', cwd);
    for (const f of makefilesRead(p, values)) this.read(out, plainWord(f), 'make', cwd);
    // `awk -f x.awk`, `sed -f x.sed`: the program read from the file
    const programFile = Object.hasOwn(PROGRAM_FILES, p) ? PROGRAM_FILES[p]! : null;
    if (programFile)
      inv.args.forEach((a, i) => {
        if (programFile.options.has(a.value)) this.read(out, inv.args[i + 1], { inline: programFile.inline }, cwd);
      });
    if (loaders.length) this.readLoaded(out, loaders, cwd);
    // `just`, `task x`, `poe x`, `rake x`: the runner's file, where the line wrote it (task-runner-files.ts)
    const taskFiles = task && taskFilesRead(task, values);
    for (const f of taskFiles?.files ?? []) this.read(out, plainWord(f), { task: task!, words: taskFiles!.words }, cwd);
    // `direnv exec DIR cmd`: direnv loads DIR/.envrc, a shell script, before it runs cmd
    const envrc = inv.via.includes('direnv') ? direnvFolder(inv.command.words) : null;
    if (envrc !== null) this.read(out, plainWord(`${envrc.replace(/\/+$/, '')}/.envrc`), 'shell', cwd);
    // `npm run x`, and `yarn run x` / `pnpm x` / `bun run x`, which command.ts peels as runners of a program `x`
    for (const [program, ...args] of [[p, ...values], ...inv.runners]) {
      const named = PACKAGE_CLIENTS.has(program!) ? packageScripts(program!, args) : null;
      const set = named && this.scripts.get(this.key(`${named.dir ?? '.'}/package.json`, null, cwd) ?? '');
      for (const [k, name] of set ? named.names.entries() : []) {
        const line = set!.get(name);
        if (line === undefined) continue;
        if (++this.reads > MAX_READS) out.tooMany = TOO_MANY;
        else out.scripts.push(k === named!.main && named!.passed.length ? `${line} ${argvLine(named!.passed)}` : line);
      }
    }
    return out;
  }

  /** Whether the line wrote the file at the absolute path `file` (or, with `script`, set that script of the package.json it is): project-scripts.ts reads the disk's only where it did not. */
  wrote(file: string, script?: string): boolean {
    if (this.files.has(file)) return true;
    return script !== undefined && (this.scripts.get(file)?.has(script) ?? false);
  }

  /** Adds to `out` what running the file `word` names runs, read as `reading` says, where the line wrote it. */
  private read(out: WrittenRuns, word: Word | undefined, reading: Reading, cwd: string | null): void {
    const key = word ? this.key(word.value, word, cwd) : null;
    const file = this.file(key);
    // `curl -L URL | tar xz && ./t/install.sh`: a file below a folder a downloaded archive was extracted into may be the archive's
    if (!file && key !== null) for (const e of this.extracted) if (key.startsWith(`${e.folder}/`)) out.downloads.push(...e.writers);
    if (!file) return;
    out.downloads.push(...file.writers);
    if (file.text === null) return;
    if (++this.reads > MAX_READS) out.tooMany = TOO_MANY;
    else {
      const text = scriptOf(reading, file.text);
      if (text) out.scripts.push(text);
    }
  }

  /** Adds to `out` what the files a tool loads from its folder run (tool-loaded-files.ts), of those the line wrote there. */
  private readLoaded(out: WrittenRuns, loaders: readonly { file: RegExp; reading: LoadedReading }[], cwd: string | null): void {
    const base = `${cwd ?? `/${UNKNOWN}`}/`;
    for (const key of [...this.files.keys()]) {
      if (!key.startsWith(base)) continue;
      for (const { reading } of loaders.filter((l) => l.file.test(key.slice(base.length)))) {
        const file = this.file(key);
        if (!file) continue;
        out.downloads.push(...file.writers);
        if (file.text === null) continue;
        if (++this.reads > MAX_READS) {
          out.tooMany = TOO_MANY;
          return;
        }
        const text = 'lines' in reading ? reading.lines(file.text).join('\n') : scriptOf(reading, file.text);
        if (text) out.scripts.push(text);
      }
    }
  }

  /** Records what `cmd` writes into files: its output redirected, `tee`'s files, a copy, a download's file, package scripts set. */
  record(cmd: SimpleCommand, inv: Invocation | null, reading: PipeReading, piped: readonly PipedInvocation[], cwd: string | null): void {
    const recorded = inv !== null && RECORDED.has(inv.program);
    // `export PATH=/tmp/b:$PATH`, `PATH=/tmp/b:$PATH` alone: the later commands look programs up there
    if (inv === null || inv.program === 'export') {
      const folders = pathFolders(cmd.words);
      if (folders.length) this.pathFolders = folders;
    }
    if (!recorded && !cmd.redirects.some((r) => WRITES.has(r.op))) return;
    const by = { cmd, inv, reading, piped, end: piped.length };
    for (const r of cmd.redirects) if (WRITES.has(r.op) && r.target && !r.target.raw.startsWith('>(')) this.write(r.target, cwd, by, r.op.endsWith('>>'));
    if (!recorded) return;
    const values = inv.args.map((a) => a.value);
    if (inv.program === 'tee') {
      const append = values.some((v) => v === '--append' || /^-[a-z]*a/.test(v));
      for (const a of inv.args) if (!a.value.startsWith('-') && !a.raw.startsWith('>(')) this.write(a, cwd, by, append);
    }
    if (inv.program === 'cp' || inv.program === 'mv') this.copy(inv, cwd);
    const ex = extraction(inv);
    if (ex) this.extract(ex, cmd, piped, cwd);
    // Windows' downloaders (`certutil -urlcache -f URL F`, `bitsadmin /transfer`, `curl.exe`) recorded as the curl of their URL, which the pipeline rules read
    const url = inv.program === 'curl' || inv.program === 'wget' ? null : values.find((v) => /^https?:\/\//i.test(v));
    const writer = url ? { ...inv, program: 'curl', args: [plainWord(url)] } : inv;
    for (const f of downloadFiles(inv)) this.set(this.key(f, null, cwd), { prev: null, by: null, found: { text: null, writers: [writer] } });
    this.setScripts(inv, values, cwd);
  }

  /** A file's key: its absolute path, or for one that starts with an unknown variable (`$D/x.sh`), that variable and the rest; null where the line does not tell. */
  private key(value: string, word: Word | null, cwd: string | null): string | null {
    let path = value;
    // `$PWD/x.sh`: the folder the walk is in
    if (word?.leadingVar === 'PWD' && cwd && path.startsWith(UNKNOWN) && path.indexOf('/') > 0) path = cwd + path.slice(path.indexOf('/'));
    if (path.includes(UNKNOWN)) return word?.leadingVar ? `\0${word.leadingVar}\0${path}` : null;
    // an absolute path with no `.`, `..` or `//` in it is its own key
    if (path.startsWith('/') && !/\/\.|\/\/|\/$/.test(path)) return path;
    return resolvePath(path, { cwd: cwd ?? `/${UNKNOWN}`, home: this.home });
  }

  /** What the file at `key` holds: its writes found back to the last one found, then each forward (no recursion, each once). */
  private file(key: string | null): Written | undefined {
    const last = key === null ? undefined : this.files.get(key);
    if (!last) return undefined;
    const chain: Write[] = [];
    for (let at: Write | null = last; at && !at.found; at = at.prev) chain.push(at);
    for (const at of chain.reverse()) {
      const old = at.prev?.found;
      const by = at.by!;
      const t = outputText(by.cmd, by.inv, by.reading);
      at.found =
        t === null
          ? { text: old?.text ?? null, writers: [...(old?.writers ?? []), ...writersOf(by.cmd, by.piped, by.end)].slice(-WRITERS_BACK) }
          : { text: (old?.text ?? '') + t, writers: old?.writers ?? [] };
    }
    return last.found;
  }

  /** A write of what `by` writes into the file `word` names (appended after what it held): its text, else the programs whose output it took. */
  private write(word: Word, cwd: string | null, by: Write['by'], append: boolean): void {
    const key = this.key(word.value, word, cwd);
    if (key !== null) this.set(key, { prev: (append && this.files.get(key)) || null, by });
  }

  private set(key: string | null, file: Write | null): void {
    if (key === null) return;
    if (file) this.files.set(key, file);
    else this.files.delete(key);
    // a package.json the line wrote: the scripts it holds
    if (key.endsWith('/package.json')) {
      const text = file && this.file(key)?.text;
      const scripts = text ? scriptsOf(text) : null;
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

  /**
   * An archive extracted into folders: where it came from a download — its input piped from one
   * (`curl -L URL | tar xz`), or a file a download wrote (`wget URL/x.zip && unzip x.zip`) — what
   * lies below them may be the download's.
   */
  private extract(ex: Extraction, cmd: SimpleCommand, piped: readonly PipedInvocation[], cwd: string | null): void {
    const archive = ex.archive && this.key(ex.archive.value, ex.archive, cwd);
    const writers = ex.archive ? (this.file(archive ?? null)?.writers ?? []) : writersOf(cmd, piped, piped.length);
    if (!writers.length) return;
    for (const f of ex.folders) {
      const folder = this.key(f, null, cwd);
      if (folder !== null && !folder.startsWith('\0')) this.extracted.push({ folder: folder.replace(/\/+$/, ''), writers });
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
  if (typeof reading === 'object' && 'task' in reading) return taskScript(reading.task, text, reading.words);
  if (typeof reading === 'object' && 'inline' in reading) return `${reading.inline} ${shellQuote(text)} /dev/null`;
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

/** What a command writes to its output, where the line tells it (fed-input.ts PipeReading): a heredoc or here-string it passes on ends with its newline. */
function outputText(cmd: SimpleCommand, inv: Invocation | null, reading: PipeReading): string | null {
  const text = reading.writes(cmd);
  const own = cmd.redirects.find((r) => r.input !== null);
  const passesOwn = own && (own.op === '<<<' || own.op === '<<' || own.op === '<<-') && (!inv || inv.program === 'cat' || inv.program === 'tee');
  return text !== null && passesOwn && !text.endsWith('\n') ? `${text}\n` : text;
}

/** The programs whose output a write takes: this stage and the stages before it in its pipeline (of the first `end` piped), with what runs to make their words. */
function writersOf(cmd: SimpleCommand, piped: readonly PipedInvocation[], end: number): Invocation[] {
  const out: Invocation[] = [];
  for (let i = end - 1; i >= 0 && i >= end - WRITERS_BACK; i--) {
    const p = piped[i]!;
    if (p.pipeline === cmd.pipeline && p.index <= cmd.index) out.push(p.inv);
  }
  return out;
}

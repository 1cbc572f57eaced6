import { posix } from 'node:path';
import { operandAt } from './argv.ts';
import { argvLine } from './argv-line.ts';
import type { Invocation } from './command.ts';
import { justRecipes, readJustfile } from './justfile-recipes.ts';
import { isMake, makeFolder, makefilesRead, makeGoals, makeReadsStdin } from './makefile-recipes.ts';
import { readMakefile, targetRecipes } from './makefile-rules.ts';
import { packageScripts, scriptsOf } from './package-scripts.ts';
import { type FolderNames, type Selection, selectedByOptions, selectedByYarn, selectedMembers } from './package-workspaces.ts';
import { resolvePath } from './paths.ts';
import { RUNNER_VALUED } from './runner-words.ts';
import type { WrittenFiles } from './written-scripts.ts';

/**
 * What a command that runs one of the project's own scripts runs, read from the files that define
 * it (EvalContext.fileText; only for such commands): a package.json script (`npm run release`,
 * `npm test`, `yarn x`, `pnpm run x`, `bun run x`, with npm's `prex`/`postx` and the words after
 * the name appended; in the workspace members the command selects, `npm run x -w web`, `yarn
 * workspace web x`, `pnpm --filter web x`: package-workspaces.ts), a Makefile target's recipes and
 * its prerequisites' (`make deploy`, `make -C sub`, `make -f x.mk`, its `include`d files:
 * makefile-rules.ts), a justfile recipe and its dependencies (`just x`: justfile-recipes.ts).
 * Each is judged as the same text typed (evaluate.ts walks it), a script that runs another (`npm
 * run x` in a script, `$(MAKE) x` in a recipe) through the same reading, up to MAX_CHAIN deep and
 * never twice on one chain. A file that is absent, too big or unreadable
 * leaves the command as the rules read its own words; so does a file the line itself writes
 * (written-scripts.ts reads that one).
 */

/**
 * A file's text as the hook reads it: null when there is no such file, undefined when it cannot
 * be told (too big, unreadable).
 */
export type FileText = (path: string) => string | null | undefined;

/** One script of the project a command runs: where it came from, the shell lines it runs, the folder they run in. */
export interface ProjectRun {
  /** `package.json scripts.release`, `Makefile target push`: the reason names it */
  source: string;
  /** the script's own key (`<file>#<name>`): a chain of scripts runs each once */
  key: string;
  /** shell lines, each run by a shell of its own (make's recipe lines); the text they run for the reason */
  lines: string[];
  text: string;
  cwd: string;
}

/** How many scripts deep one runs another before the rest is left as the rules read it (unknown). */
const MAX_CHAIN = 12;

/** How many folders up a package manager looks for its package.json. */
const MAX_UP = 32;

/** The programs whose commands may run a project's script. */
const PACKAGE_CLIENTS = new Set(['npm', 'pnpm', 'yarn', 'bun']);

/** The names `just` looks for, in each folder from the one it runs in up. */
const JUSTFILES = ['justfile', 'Justfile', '.justfile', 'JUSTFILE'];

/** The project's scripts a command runs, each file read once per command line. */
export class ProjectScripts {
  private readonly texts = new Map<string, string | null | undefined>();
  /** each file read as what it is (package.json scripts, a Makefile with the variables make is given, a justfile), once per command line */
  private readonly parsed = new Map<string, unknown>();
  /** the scripts walked on this command line (with the folder and the marker they ran with): one walked again adds nothing */
  private readonly walked = new Set<string>();

  constructor(
    private readonly read: FileText,
    private readonly home: string,
    private readonly list?: FolderNames | undefined,
  ) {}

  /** What `inv` runs of the project's scripts, run in `cwd`, `chain`: the scripts already running it. */
  runs(inv: Invocation, cwd: string | null, chain: readonly string[], written: WrittenFiles): ProjectRun[] {
    const p = inv.program;
    if (cwd === null || chain.length >= MAX_CHAIN || !(PACKAGE_CLIENTS.has(p) || inv.runners.length || isMake(p) || p === 'just')) return [];
    const values = inv.args.map((a) => a.value);
    const runs = isMake(p) ? this.make(p, values, cwd, written) : p === 'just' ? this.just(values, cwd) : [];
    // `npm run x`, and `yarn run x` / `pnpm x` / `bun run x`, which command.ts peels as runners of a program `x`
    const argvs = [[p, ...values], ...inv.runners];
    // `yarn workspace web build`, `yarn workspaces foreach -A run build`: the yarn it starts (the next runner, or the program) runs in the members
    const yarnAt = inv.runners.findIndex((r) => selectedByYarn(r) !== null);
    if (yarnAt >= 0) {
      const inner = inv.runners[yarnAt + 1] ?? [p, ...values];
      runs.push(...this.packageRuns(inner, cwd, written, selectedByYarn(inv.runners[yarnAt]!)));
    } else for (const argv of argvs) runs.push(...this.packageRuns(argv, cwd, written));
    return runs.filter((r) => !chain.includes(r.key));
  }

  /**
   * The package.json scripts `argv` runs (package-scripts.ts packageScripts): those of the members
   * its options (or an outer `yarn workspace`: `selected`) select, else the package.json of the
   * folder it names or the nearest above.
   */
  private packageRuns([program, ...given]: string[], cwd: string, written: WrittenFiles, selected?: Selection | null): ProjectRun[] {
    if (!PACKAGE_CLIENTS.has(program!)) return [];
    const { args, every } = ownWorkspaceCommand(program!, given);
    const named = packageScripts(program!, args);
    if (!named) return [];
    const base = named.dir === null ? cwd : resolvePath(named.dir, { cwd, home: this.home });
    const selection = every ? { all: true as const } : (selected ?? selectedByOptions(program!, args));
    const files = selection
      ? this.once(`members\0${program}\0${base}\0${JSON.stringify(selection)}`, () =>
          selectedMembers(program!, selection, base, (f) => this.text(f), this.list).map((d) => `${d}/package.json`),
        )
      : [named.dir === null ? this.nearest(cwd, ['package.json']) : `${base}/package.json`];
    const out: ProjectRun[] = [];
    for (const file of files) {
      const text = file && !written.wrote(file) ? this.text(file) : null;
      const scripts = typeof text === 'string' ? this.once(`package.json\0${file}`, () => scriptsOf(text)) : null;
      if (!scripts) continue;
      for (const name of named.names) {
        const script = scripts.get(name);
        if (script === undefined || written.wrote(file!, name)) continue;
        const text = name === named.names[named.main] && named.passed.length ? `${script} ${argvLine(named.passed)}` : script;
        out.push({ source: `${this.shown(file!, cwd)} scripts.${name}`, key: `${file}#${name}`, lines: [text], text, cwd: posix.dirname(file!) });
      }
    }
    return out;
  }

  /** The recipes `make` runs of the Makefile it reads from disk (makefile-rules.ts). */
  private make(program: string, args: string[], cwd: string, written: WrittenFiles): ProjectRun[] {
    if (makeReadsStdin(program, args)) return [];
    const dir = resolvePath(makeFolder(args) || '.', { cwd, home: this.home });
    const named = makefileNamed(args);
    const candidates = makefilesRead(program, args).map((f) => resolvePath(f, { cwd, home: this.home }));
    // `-f` files are read in turn, all of them; else the first of make's names there is
    const files: string[] = [];
    const texts: string[] = [];
    for (const f of candidates) {
      const t = written.wrote(f) ? undefined : this.text(f);
      if (t === undefined || (t === null && named)) return [];
      if (t === null) continue;
      files.push(f);
      texts.push(t);
      if (!named) break;
    }
    if (!texts.length) return [];
    const { goals, vars, dryRun } = makeGoals(args);
    const key = `Makefile\0${files.join('\0')}\0${dir}\0${[...vars].join('\0')}`;
    const mf = this.once(key, () => readMakefile(texts.join('\n'), vars, dir, (f) => (written.wrote(f) ? undefined : this.text(f))));
    const recipes = this.once(`${key}\0${goals.join('\0')}\0${dryRun}`, () => targetRecipes(mf, goals, dryRun));
    const shown = files.length === 1 ? this.shown(files[0]!, cwd) : 'the Makefiles';
    const out: ProjectRun[] = [];
    if (mf.parseTime.length) out.push({ source: shown, key: `${files.join(' ')}#`, lines: mf.parseTime, text: mf.parseTime.join('; '), cwd: dir });
    for (const r of recipes)
      out.push({ source: `${shown} target ${r.target}`, key: `${files.join(' ')}#${r.target}`, lines: r.lines, text: r.lines.join('; '), cwd: dir });
    return out;
  }

  /** The recipes `just` runs of the justfile it finds (justfile-recipes.ts). */
  private just(args: string[], cwd: string): ProjectRun[] {
    const call = justCall(args);
    if (!call) return [];
    const file = call.file ? resolvePath(call.file, { cwd, home: this.home }) : this.nearest(cwd, JUSTFILES);
    const text = file ? this.text(file) : null;
    if (!file || typeof text !== 'string') return [];
    const jf = this.once(`justfile\0${file}`, () => readJustfile(text));
    if (!jf) return [];
    const shown = this.shown(file, cwd);
    return justRecipes(jf, call.recipes).map((r) => ({
      source: `${shown} recipe ${r.name}`,
      key: `${file}#${r.name}`,
      lines: r.lines,
      text: r.lines.join('; '),
      cwd: call.dir ? resolvePath(call.dir, { cwd, home: this.home }) : posix.dirname(file),
    }));
  }

  /** The first of `names` in `cwd` or the folders above it; null when none is, or one cannot be told. */
  private nearest(cwd: string, names: readonly string[]): string | null {
    let dir = cwd;
    for (let up = 0; up < MAX_UP; up++) {
      for (const name of names) {
        const file = `${dir === '/' ? '' : dir}/${name}`;
        const t = this.text(file);
        if (t === undefined) return null;
        if (t !== null) return file;
      }
      if (dir === '/') return null;
      dir = posix.dirname(dir);
    }
    return null;
  }

  /** Whether `run` is walked the first time on this command line, with `marker` (evaluate.ts walks it only then). */
  firstWalk(run: ProjectRun, marker: string | null): boolean {
    const key = `${run.key}\0${run.cwd}\0${marker ?? ''}`;
    if (this.walked.has(key)) return false;
    this.walked.add(key);
    return true;
  }

  /** What `read` makes of a file, once per command line (a line that runs `make` a thousand times parses its Makefile once). */
  private once<T>(key: string, read: () => T): T {
    if (!this.parsed.has(key)) this.parsed.set(key, read());
    return this.parsed.get(key) as T;
  }

  private text(file: string): string | null | undefined {
    if (!this.texts.has(file)) this.texts.set(file, this.read(file));
    return this.texts.get(file);
  }

  /** A file as the reason names it: relative to the folder the line runs in where it is under it. */
  private shown(file: string, cwd: string): string {
    return file.startsWith(`${cwd}/`) ? file.slice(cwd.length + 1) : file;
  }
}

/** Whether make's options name its Makefiles (`-f`, `--file`, `--makefile`). */
function makefileNamed(args: readonly string[]): boolean {
  return args.some((a) => /^(?:-f|--file|--makefile)/.test(a));
}

/**
 * A client's own command over every workspace (`pnpm recursive run x`, yarn 1's `yarn workspaces
 * run x`): the words of the command it runs in each member, and that it selects every one.
 */
function ownWorkspaceCommand(program: string, args: string[]): { args: string[]; every: boolean } {
  const at = operandAt(args, RUNNER_VALUED);
  if (program === 'pnpm' && ['recursive', 'multi', 'm'].includes(args[at]!)) return { args: [...args.slice(0, at), ...args.slice(at + 1)], every: true };
  if (program === 'yarn' && args[at] === 'workspaces' && args[at + 1] === 'run') return { args: args.slice(at + 1), every: true };
  return { args, every: false };
}

/** `just [options] [recipe args…]`: the justfile it names, the folder, the words naming recipes and their arguments; null for its own commands (`--list`). */
function justCall(args: readonly string[]): { file: string | null; dir: string | null; recipes: string[] } | null {
  let file: string | null = null;
  let dir: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const eq = /^--(justfile|working-directory)=(.*)$/.exec(a);
    if (eq) [file, dir] = eq[1] === 'justfile' ? [eq[2]!, dir] : [file, eq[2]!];
    else if (a === '-f' || a === '--justfile') file = args[++i] ?? null;
    else if (a === '-d' || a === '--working-directory') dir = args[++i] ?? null;
    else if (a === '--set') i += 2;
    else if (a === '--') return { file, dir, recipes: args.slice(i + 1) };
    else if (a.startsWith('-')) {
      // `--list`, `--show`, `--dump`, `--evaluate`, `--edit`…: just's own commands run no recipe; `-n` prints them
      if (/^--(?:list|show|summary|dump|evaluate|edit|init|variables|fmt|choose|completions|groups|help|version|changelog|dry-run)$|^-[lhVn]$/.test(a))
        return null;
      if (/^--(?:dotenv-path|dotenv-filename|shell|shell-arg|color|command|unstable|chooser|list-heading|list-prefix|timestamp-format)$/.test(a)) i++;
    } else if (/^[A-Za-z_][\w-]*=/.test(a)) continue;
    else return { file, dir, recipes: args.slice(i) };
  }
  return { file, dir, recipes: [] };
}

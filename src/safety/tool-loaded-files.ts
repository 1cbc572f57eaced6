import type { Lang } from './families/interpreter-argv.ts';
import { justRecipes, readJustfile } from './justfile-recipes.ts';
import { rustCommandLines } from './rust-commands.ts';

/**
 * The files a tool loads from the folder it runs in and runs as code, without being named them
 * (docs/safety.md, "Scripts a line writes, then runs"): a build script (`build.rs` for cargo),
 * test fixtures (`conftest.py` for pytest), a package's `setup.py` for pip, a JavaScript tool's
 * config (`eslint.config.js`, `vite.config.ts`, `postcss.config.js` for the tools run through
 * npx and their like), a task file (`Rakefile`, `noxfile.py`, `tox.ini`, `deno.json`,
 * `mise.toml`, `pixi.toml`, a `.justfile`, `Taskfile.yaml`), a hook runner's settings
 * (`.pre-commit-config.yaml`, `lefthook.yml`), a `Procfile`, a `Tiltfile`, a workflow `act`
 * runs, a dev container's commands, a `Vagrantfile`, Python's `sitecustomize.py`, `go:generate`
 * lines. written-scripts.ts reads such a file where the same line wrote it, as the code it is:
 * an interpreter's program, or the command lines the format holds.
 */

/** How a loaded file's text runs: an interpreter's program, or command lines drawn from it. */
export type LoadedReading = { program: string; lang: Lang } | { lines: (text: string) => string[] };

interface Loader {
  /** the file's path, relative to the folder the tool runs in */
  file: RegExp;
  /** whether `program args` loads it (`via`: it was started through a runner, npx and its like) */
  loads: (program: string, args: readonly string[], via: boolean) => boolean;
  reading: LoadedReading;
}

/** The words that are not options, read loosely. */
const operands = (a: readonly string[]) => a.filter((x) => !x.startsWith('-'));
const first = (a: readonly string[]) => operands(a)[0];

/** Python: any version's interpreter. */
const PYTHON = /^python(?:[23](?:\.\d+)?)?$/;
/** `python -m <module>` */
const pythonModule = (p: string, a: readonly string[], module: RegExp) => PYTHON.test(p) && a.some((x, i) => x === '-m' && module.test(a[i + 1] ?? ''));

/** The JavaScript tools that load a config file of their name (also run through npx, pnpm dlx, bunx and their like). */
const JS_TOOLS =
  /^(?:eslint|jest|vite|vitest|webpack|rollup|next|nuxt|nuxi|astro|svelte-kit|postcss|tailwindcss|prettier|babel|playwright|mocha|karma|gulp|grunt|tsup|parcel|remix|gatsby|storybook|cypress|stylelint|commitlint|lint-staged|vue-cli-service|ng|react-scripts|docusaurus|vuepress|vitepress|eleventy|size-limit)$/;

/** Every string literal of a program's text (`"…"`, `'…'`), and each run of literals passed together (`('rm', '-rf', '/x')` as `rm -rf /x`). */
export function stringLiterals(text: string): string[] {
  const out: string[] = [];
  const run: string[] = [];
  const re = /"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|([^"'\s,]+)|,|\s+/g;
  const flush = () => {
    if (run.length > 1) out.push(run.join(' '));
    run.length = 0;
  };
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const lit = m[1] ?? m[2];
    if (lit !== undefined) {
      const v = lit.replace(/\\(["'\\])/g, '$1');
      out.push(v);
      run.push(v);
    } else if (m[3] !== undefined) flush();
  }
  flush();
  return out.filter((s) => /\s/.test(s));
}

/** The command lines a YAML file holds under keys that run them (`run:`, `entry:`, `cmds:`, `command:`, `script:`), scalar, flow list or block list. */
export function yamlCommands(text: string): string[] {
  const out: string[] = [];
  const lines = text.split('\n');
  const unquote = (v: string) => v.trim().replace(/^(["'])(.*)\1$/, '$2');
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)(?:-\s+)?(run|entry|cmd|cmds|command|commands|script|args)\s*:\s*(.*)$/.exec(lines[i]!);
    if (!m) continue;
    const value = m[3]!.trim();
    if (value.startsWith('[')) out.push(...value.slice(1, value.lastIndexOf(']')).split(',').map(unquote));
    else if (value && value !== '|' && value !== '>') out.push(unquote(value));
    else
      for (let j = i + 1; j < lines.length && (lines[j]!.trim() === '' || lines[j]!.search(/\S/) > m[1]!.length); j++)
        out.push(
          lines[j]!.trim()
            .replace(/^-\s+/, '')
            .replace(/^(["'])(.*)\1$/, '$2'),
        );
  }
  return out.filter(Boolean);
}

/** The command lines of a JSON file's keys that run them: `…Command` (string or list), `tasks` (strings, or `{ command }`). */
export function jsonCommands(text: string): string[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return stringLiterals(text);
  }
  const out: string[] = [];
  const walk = (v: unknown, key: string, depth: number): void => {
    if (depth > 8 || v === null || typeof v !== 'object') {
      if (typeof v === 'string' && /command$|^(?:tasks|scripts)$/i.test(key)) out.push(v);
      return;
    }
    for (const [k, x] of Object.entries(v)) {
      if (Array.isArray(x) && /command$/i.test(k)) out.push(x.filter((s) => typeof s === 'string').join(' '));
      else walk(x, /^(?:tasks|scripts)$/i.test(key) ? key : k, depth + 1);
    }
  };
  walk(doc, '', 0);
  return out;
}

/** A TOML file's string values (`run = "…"`, `clean = "…"`, `runner = "…"`). */
const tomlStrings = (text: string) =>
  [...text.matchAll(/^\s*[\w.-]+\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')/gm)].map((m) => (m[1] ?? m[2]!).replace(/\\(["\\])/g, '$1'));

/** tox's `commands`, with `{env:NAME}` as the variable it stands for. */
const toxCommands = (text: string) => {
  const out: string[] = [];
  let inCommands = false;
  for (const line of text.split('\n')) {
    const m = /^commands(?:_pre|_post)?\s*=\s*(.*)$/.exec(line);
    if (m) {
      inCommands = true;
      if (m[1]!.trim()) out.push(m[1]!);
    } else if (inCommands && /^\s+\S/.test(line)) out.push(line.trim());
    else inCommands = false;
  }
  return out.map((l) => l.replace(/\{env:(\w+)(?::[^}]*)?\}/g, '$$$1'));
};

/** The shell lines of `//go:generate` comments. */
const goGenerate = (text: string) => [...text.matchAll(/^\/\/go:generate\s+(.*)$/gm)].map((m) => m[1]!);

/** A Procfile's commands, after each process's name. */
const procfile = (text: string) => [...text.matchAll(/^[\w-]+:\s*(.*)$/gm)].map((m) => m[1]!);

/** Every recipe of a justfile. */
const justfileLines = (text: string) => {
  const jf = readJustfile(text);
  return jf ? [...jf.recipes.keys()].flatMap((r) => justRecipes(jf, [r]).flatMap((run) => run.lines)) : [];
};

const LOADERS: readonly Loader[] = [
  // its string literals, and the lines its `Command::new(…).args(…)` chains run (rust-commands.ts)
  { file: /^build\.rs$/, loads: (p) => p === 'cargo', reading: { lines: (t) => [...stringLiterals(t), ...rustCommandLines(t)] } },
  { file: /^\.cargo\/config(?:\.toml)?$/, loads: (p) => p === 'cargo', reading: { lines: tomlStrings } },
  {
    file: /(?:^|\/)conftest\.py$/,
    loads: (p, a) => p === 'pytest' || p === 'py.test' || pythonModule(p, a, /^pytest$/),
    reading: { program: 'python3', lang: 'python' },
  },
  {
    file: /^setup\.py$/,
    loads: (p, a) => (/^pip3?$/.test(p) && first(a) === 'install') || pythonModule(p, a, /^(?:pip|build)$/) || (p === 'uv' && a.includes('pip')),
    reading: { program: 'python3', lang: 'python' },
  },
  { file: /^noxfile\.py$/, loads: (p) => p === 'nox', reading: { program: 'python3', lang: 'python' } },
  // any Python started with its site module (not `-S`, `-I`); a `-c` one-liner is read as itself, and this file's own reading is one
  {
    file: /^(?:site|user)customize\.py$/,
    loads: (p, a) => PYTHON.test(p) && !a.some((x) => /^-[A-Za-z]*[cSI]/.test(x)),
    reading: { program: 'python3', lang: 'python' },
  },
  {
    file: /^(?:[\w-]+\.config|\.[\w-]+rc|gulpfile|Gruntfile)\.[cm]?[jt]s$/,
    loads: (p, _a, via) => JS_TOOLS.test(p) || via,
    reading: { program: 'node', lang: 'js' },
  },
  // Ruby, and its tasks' shell lines (`sh "…"`), which Rake gives the shell
  { file: /^(?:Rakefile|rakefile)(?:\.rb)?$/, loads: (p) => p === 'rake', reading: { program: 'ruby', lang: 'ruby' } },
  { file: /^(?:Rakefile|rakefile)(?:\.rb)?$/, loads: (p) => p === 'rake', reading: { lines: stringLiterals } },
  { file: /^Vagrantfile$/, loads: (p) => p === 'vagrant', reading: { program: 'ruby', lang: 'ruby' } },
  { file: /^tox\.ini$/, loads: (p) => p === 'tox', reading: { lines: toxCommands } },
  { file: /\.go$/, loads: (p, a) => p === 'go' && first(a) === 'generate', reading: { lines: goGenerate } },
  { file: /^meson\.build$/, loads: (p) => p === 'meson', reading: { lines: stringLiterals } },
  { file: /^Tiltfile$/, loads: (p) => p === 'tilt', reading: { lines: stringLiterals } },
  { file: /^deno\.jsonc?$/, loads: (p, a) => p === 'deno' && first(a) === 'task', reading: { lines: jsonCommands } },
  { file: /^(?:\.?mise(?:\.local)?\.toml|\.mise\/config\.toml|\.config\/mise\.toml)$/, loads: (p) => p === 'mise', reading: { lines: tomlStrings } },
  { file: /^pixi\.toml$/, loads: (p) => p === 'pixi', reading: { lines: tomlStrings } },
  { file: /^\.pre-commit-config\.ya?ml$/, loads: (p) => p === 'pre-commit' || p === 'prek', reading: { lines: yamlCommands } },
  { file: /^\.?lefthook(?:-local)?\.ya?ml$/, loads: (p) => p === 'lefthook', reading: { lines: yamlCommands } },
  { file: /^Taskfile(?:\.dist)?\.ya?ml$/, loads: (p) => p === 'task' || p === 'go-task', reading: { lines: yamlCommands } },
  { file: /^\.github\/workflows\/[^/]+\.ya?ml$/, loads: (p) => p === 'act', reading: { lines: yamlCommands } },
  { file: /^(?:\.devcontainer(?:\/[^/]+)?\/)?\.?devcontainer\.json$/, loads: (p) => p === 'devcontainer', reading: { lines: jsonCommands } },
  { file: /^Procfile(?:\.[\w-]+)?$/, loads: (p) => /^(?:foreman|honcho|overmind|hivemind|forego)$/.test(p), reading: { lines: procfile } },
  { file: /^\.?[Jj]ustfile$/, loads: (p) => p === 'just', reading: { lines: justfileLines } },
];

/**
 * The files `program args` loads from its folder and runs, each with how its text runs; none for
 * most commands. `runners`: the runners and launchers it was started through (`npx`, `pixi run`),
 * each with its words, which load their own files too (`pixi run clean` reads pixi.toml).
 */
export function loadedFiles(program: string, args: readonly string[], runners: readonly string[][]): { file: RegExp; reading: LoadedReading }[] {
  return LOADERS.filter(
    (l) => l.loads(program, args, runners.length > 0) || runners.some(([r, ...a]) => r !== undefined && l.loads(r.slice(r.lastIndexOf('/') + 1), a, false)),
  );
}

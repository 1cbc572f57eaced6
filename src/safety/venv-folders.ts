import type { Invocation } from './command.ts';
import { languageOf } from './families/interpreter-argv.ts';
import { generic, options, type PathUse, use } from './path-access.ts';
import { plainWord, type Word } from './syntax.ts';

/**
 * The folder a virtual environment is made in, for path-uses.ts: `python -m venv DIR`, `python -m
 * virtualenv DIR`, `virtualenv DIR`, `uv venv DIR`, `conda create -p DIR`. The folder is made and
 * written into (`--clear` empties it first), and no file of that name is opened: `python -m venv
 * .env` reads no secret. Every other word is read as path-access.ts generic reads it
 * (`--config-file .env` is read).
 */

/** Each maker's options that take the next word, short letters and long names; a value missed here is only taken for the folder. */
const VALUED: Record<'venv' | 'virtualenv' | 'uv' | 'conda', { short: string; long: readonly string[] }> = {
  venv: { short: '', long: ['--prompt'] },
  virtualenv: {
    short: 'p',
    long: [
      '--python',
      '--prompt',
      '--creator',
      '--seeder',
      '--activators',
      '--app-data',
      '--extra-search-dir',
      '--pip',
      '--setuptools',
      '--wheel',
      '--discovery',
      '--try-first-with',
    ],
  },
  uv: {
    short: 'pf',
    long: [
      '--python',
      '--prompt',
      '--index',
      '--default-index',
      '--index-url',
      '--extra-index-url',
      '--find-links',
      '--index-strategy',
      '--keyring-provider',
      '--exclude-newer',
      '--link-mode',
      '--cache-dir',
      '--directory',
      '--project',
      '--config-file',
      '--allow-insecure-host',
      '--python-preference',
      '--color',
    ],
  },
  conda: { short: 'pnfc', long: ['--prefix', '--name', '--file', '--channel'] },
};

/** python's own options that take the next word (`-W error`, `-X utf8`), read before `-m`. */
const PYTHON_VALUED = new Set(['-W', '-X']);

/** The paths a command that makes a virtual environment uses (its folder written, every other word as generic reads it), or null for any other command. */
export function venvUses(inv: Invocation): PathUse[] | null {
  const p = inv.program;
  if (p === 'virtualenv') return folders(inv, inv.args, 'virtualenv');
  if (p === 'uv') return inv.args[0]?.value === 'venv' ? folders(inv, inv.args.slice(1), 'uv') : null;
  if (p === 'conda' || p === 'mamba' || p === 'micromamba') return condaPrefix(inv);
  if (languageOf(p) !== 'python') return null;
  const module = pythonModule(inv.args);
  return module && (module.name === 'venv' || module.name === 'virtualenv') ? folders(inv, inv.args.slice(module.next), module.name) : null;
}

/** `python [-I -W x …] -m MODULE …`: the module and the index of the word after it; null for a script, `-c` code or no module. */
function pythonModule(args: readonly Word[]): { name: string; next: number } | null {
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '-m') return args[i + 1] ? { name: args[i + 1]!.value, next: i + 2 } : null;
    if (/^-[^-]*m/.test(v)) {
      // `-Im venv`, `-mvenv`: the letters before m are flags, what follows it the module
      const rest = v.slice(v.indexOf('m') + 1);
      return rest ? { name: rest, next: i + 1 } : args[i + 1] ? { name: args[i + 1]!.value, next: i + 2 } : null;
    }
    if (!v.startsWith('-') || v === '-' || /^-[^-]*c/.test(v)) return null;
    if (PYTHON_VALUED.has(v)) i++;
  }
  return null;
}

/** The operands of a maker's words written (the folders it makes), its options' words as generic reads them. */
function folders(inv: Invocation, words: readonly Word[], maker: keyof typeof VALUED): PathUse[] {
  const { short, long } = VALUED[maker];
  const operands = options(words, short, new Set(long), () => {});
  // `--clear` empties the folder first: what it held is removed (`python -m venv --clear ~`)
  const clears = words.some((w) => w.value === '--clear');
  return [
    ...operands.flatMap((w) => (clears ? [use(w, w.value, 'remove')] : madeVenv(w, w.value))),
    ...generic(
      inv,
      words.filter((w) => !operands.includes(w)),
    ),
  ];
}

/**
 * The folder a maker makes (`made`: judged by what lands inside it, so `python -m venv ~/.venv`
 * writes no dotfile of that name, and a file there stops it: venv refuses to make a folder over
 * one) and its `bin`, where it puts the environment's programs: `python -m venv ~` and `uv venv
 * ~/.local` plant them on PATH.
 */
function madeVenv(w: Word, dir: string): PathUse[] {
  return [use(w, dir, 'write', { made: true }), use(w, `${dir.replace(/\/+$/, '')}/bin`, 'into')];
}

/** `conda create -p DIR` (and `conda env create`, mamba's, micromamba's): the prefix written; every other word as generic reads it (`-f environment.yml` read). */
function condaPrefix(inv: Invocation): PathUse[] | null {
  const a = inv.args;
  const sub = a.findIndex((w) => !w.value.startsWith('-'));
  const creates = a[sub]?.value === 'create' || (a[sub]?.value === 'env' && a[sub + 1]?.value === 'create');
  if (!creates) return null;
  const prefixes: PathUse[] = [];
  const { short, long } = VALUED.conda;
  options(a, short, new Set(long), (name, w, value) => {
    if (name === '-p' || name === '--prefix') prefixes.push(...madeVenv(w, value));
  });
  const made = new Set(prefixes.map((u) => u.word));
  return [
    ...prefixes,
    ...generic(
      inv,
      a.filter((w) => !made.has(w)),
    ),
  ];
}

/** `python -m venv --clear DIR` (virtualenv's, uv's) as the `rm -rf DIR` it starts with, for the removal rule; null for any other command. */
export function clearedVenvReading(inv: Invocation): Invocation | null {
  const cleared = (venvUses(inv) ?? []).filter((u) => u.access === 'remove');
  return cleared.length ? { ...inv, program: 'rm', args: [plainWord('-rf'), plainWord('--'), ...cleared.map((u) => u.word)] } : null;
}

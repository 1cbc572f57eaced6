/**
 * Which code an interpreter's command line hands it inline (families/interpreter.ts): `python -c`,
 * `node -e`, `perl -e`, `ruby -e`, `php -r`, `deno eval`, `lua -e`, an awk program, `osascript -e`,
 * `Rscript -e` (`R -e`, Octave's `--eval`, read as R), `julia -e`, `crystal eval` (read as Ruby),
 * `elixir -e`, `erl -eval`, the Lisps' (`racket -e`, `guile -c`, `bb -e`, `clojure -e`, `sbcl
 * --eval`), the JVM's scripting languages' (`groovy -e`, `kotlin -e`, `scala -e`).
 * A script file, a module (`python -m`) or a REPL has no inline code: null.
 */

export type Lang = 'python' | 'js' | 'perl' | 'ruby' | 'php' | 'lua' | 'awk' | 'applescript' | 'r' | 'julia' | 'elixir' | 'erlang' | 'lisp' | 'jvm';

const PROGRAMS: Array<[RegExp, Lang]> = [
  [/^(?:python(?:[23](?:\.\d+)?)?|pypy[23]?(?:\.\d+)?)$/, 'python'],
  // TypeScript's runners take `-e` code as node does
  [/^(?:node|nodejs|bun|deno|tsx|ts-node|ts-node-esm)$/, 'js'],
  [/^perl(?:5[.\d]*)?$/, 'perl'],
  // Crystal's literals and calls are Ruby's (`FileUtils.rm_rf`, `ENV["HOME"]`)
  [/^(?:ruby(?:\d[.\d]*)?|crystal)$/, 'ruby'],
  [/^php(?:\d[.\d]*)?$/, 'php'],
  [/^(?:lua(?:\d[.\d]*)?|luajit)$/, 'lua'],
  [/^[gmn]?awk$/, 'awk'],
  [/^osascript$/, 'applescript'],
  // Octave's `system("…")`, `unlink`, strings in either quote read as R's
  [/^(?:R|Rscript|octave|octave-cli)$/, 'r'],
  [/^julia(?:-?\d[.\d]*)?$/, 'julia'],
  [/^elixir$/, 'elixir'],
  [/^erl$/, 'erlang'],
  // Janet, and the Lisps of other languages' runtimes (Fennel on Lua, Hy on Python), whose forms' heads are that runtime's calls
  [/^(?:racket|guile(?:\d[.\d]*)?|bb|clojure|clj|sbcl|clisp|ecl|csi|janet|fennel|hy)$/, 'lisp'],
  [/^(?:groovy|kotlin|scala|scala-cli)$/, 'jvm'],
];

/** The language an interpreter program speaks, or null for any other program. */
export function languageOf(program: string): Lang | null {
  for (const [re, lang] of PROGRAMS) if (re.test(program)) return lang;
  return null;
}

/** One piece of inline code, and the argument it stands in (the whole argument, or its end: `-cCODE`, `--eval=CODE`). */
export interface CodePart {
  text: string;
  at: number;
}

/** The code the arguments hand the interpreter inline (several `-e` parts joined by newlines), or null. */
export function inlineCode(program: string, lang: Lang, args: string[]): string | null {
  const parts = inlineCodeParts(program, lang, args);
  return parts.length ? parts.map((p) => p.text).join('\n') : null;
}

/** The pieces of inline code the arguments hand the interpreter, each with the argument that holds it. */
export function inlineCodeParts(program: string, lang: Lang, args: string[]): CodePart[] {
  switch (lang) {
    case 'python':
      return pythonCode(args);
    case 'js':
      return program === 'deno' ? denoCode(args) : nodeCode(args);
    case 'perl':
      return clustered(args, 'eE', 'MmixdD', 'I', '0l');
    case 'ruby':
      return program === 'crystal' ? subcommandCode(args, 'eval') : clustered(args, 'e', 'xTW', 'rICEFK', '0');
    case 'php':
      return clustered(args, 'rBRE', '', 'dcztf', '');
    case 'lua':
      return clustered(args, 'e', '', 'l', '');
    case 'awk':
      return awkCode(args);
    case 'applescript':
      return clustered(args, 'e', '', 'ls', '');
    case 'r':
      return program.startsWith('octave') ? namedCode(args, ['--eval']) : clustered(args, 'e', '', 'f', '');
    case 'julia':
      return clustered(args, 'eE', 'O', 'pJLCt', '');
    case 'elixir':
      return namedCode(args, ['-e', '--eval']);
    case 'erlang':
      return namedCode(args, ['-eval']);
    case 'lisp':
      return namedCode(args, LISP_CODE[program] ?? ['-e', '--eval']);
    case 'jvm':
      return namedCode(args, ['-e']);
  }
}

/** The options that hand each Lisp its code (guile's `-e` names an entry point, its `-c` is code; clisp's `-x`). */
const LISP_CODE: Record<string, readonly string[]> = {
  guile: ['-c'],
  sbcl: ['--eval'],
  clisp: ['-x'],
  ecl: ['-eval', '--eval'],
  csi: ['-e', '-p', '-eval'],
  janet: ['-e'],
  fennel: ['-e', '--eval'],
  hy: ['-c'],
};

/** The values of the options that hand code (`-e CODE`, `--eval=CODE`), each part with the argument it stands in. */
function namedCode(a: string[], names: readonly string[]): CodePart[] {
  const parts: CodePart[] = [];
  for (let i = 0; i < a.length; i++) {
    const v = a[i]!;
    if (v === '--') break;
    if (names.includes(v) && a[i + 1] !== undefined) parts.push({ text: a[++i]!, at: i });
    else {
      const eq = v.indexOf('=');
      if (eq > 0 && names.includes(v.slice(0, eq))) parts.push({ text: v.slice(eq + 1), at: i });
    }
  }
  return parts;
}

/** `crystal eval CODE`: the word after the subcommand that is no option. */
function subcommandCode(a: string[], verb: string): CodePart[] {
  const at = a.indexOf(verb);
  if (at < 0 || a.slice(0, at).some((v) => !v.startsWith('-'))) return [];
  const code = a.findIndex((v, i) => i > at && !v.startsWith('-'));
  return code < 0 ? [] : [{ text: a[code]!, at: code }];
}

/** `python -c CODE`, `-Sc CODE`, `-cCODE`, `-I -c CODE`; `-m mod` and a script file have none. */
function pythonCode(a: string[]): CodePart[] {
  for (let i = 0; i < a.length; i++) {
    const v = a[i]!;
    if (v === '--' || v === '-' || !v.startsWith('-')) return [];
    if (v.startsWith('--')) {
      if (v === '--check-hash-based-pycs') i++;
      continue;
    }
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      if ('cmWXQ'.includes(c)) {
        const value = k + 1 < v.length ? v.slice(k + 1) : a[++i];
        if (c === 'c') return value === undefined ? [] : [{ text: value, at: i }];
        if (c === 'm') return [];
        break;
      }
    }
  }
  return [];
}

/** Node and bun options that take the next argument as their value (so that it is no script: env-files.ts too). */
export const NODE_VALUED = new Set([
  '-r',
  '--require',
  '--import',
  '--loader',
  '--experimental-loader',
  '-C',
  '--conditions',
  '--input-type',
  '--env-file',
  '--title',
  '--cwd',
  '--preload',
  '--config',
]);

/** `node -e|--eval|-p|--print|-pe CODE`, `--eval=CODE`; bun the same; a script (or bun subcommand) first has none. */
function nodeCode(a: string[]): CodePart[] {
  for (let i = 0; i < a.length; i++) {
    const v = a[i]!;
    if (/^(?:-e|--eval|-p|--print|-pe|-ep)$/.test(v)) return a[i + 1] === undefined ? [] : [{ text: a[i + 1]!, at: i + 1 }];
    const eq = /^--(?:eval|print)=([\s\S]*)$/.exec(v);
    if (eq) return [{ text: eq[1]!, at: i }];
    if (v === '--' || !v.startsWith('-')) return [];
    if (NODE_VALUED.has(v)) i++;
  }
  return [];
}

const DENO_VALUED = new Set(['--import-map', '--config', '-c', '--location', '--seed', '--cert', '--lock', '--ext', '--env-file']);

/** `deno eval [options] CODE`. */
function denoCode(a: string[]): CodePart[] {
  let i = 0;
  while (i < a.length && a[i]!.startsWith('-')) i++;
  if (a[i] !== 'eval') return [];
  for (i++; i < a.length; i++) {
    const v = a[i]!;
    if (v === '--') return a[i + 1] === undefined ? [] : [{ text: a[i + 1]!, at: i + 1 }];
    if (!v.startsWith('-')) return [{ text: v, at: i }];
    if (DENO_VALUED.has(v)) i++;
  }
  return [];
}

/**
 * Short options in clusters, as perl, ruby, php, lua and osascript read them: a `code` letter takes
 * the rest of its word or the next argument as code (every one is kept: `-e a -e b`); an
 * `attached` letter takes the rest of its word (`-MFile::Path`, `-i.bak`); a `valued` letter the
 * rest or the next argument (`-r fileutils`); a `digits` letter the digits after it (`-l`, `-0777`).
 * The first argument that is not an option (a script, a data file) ends the options.
 */
function clustered(a: string[], code: string, attached: string, valued: string, digits: string): CodePart[] {
  const parts: CodePart[] = [];
  for (let i = 0; i < a.length; i++) {
    const v = a[i]!;
    if (v === '--' || v === '-' || !v.startsWith('-')) break;
    if (v.startsWith('--')) continue;
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      if (code.includes(c) || valued.includes(c)) {
        const value = k + 1 < v.length ? v.slice(k + 1) : a[++i];
        if (code.includes(c) && value !== undefined) parts.push({ text: value, at: i });
        break;
      }
      if (attached.includes(c)) break;
      // `-l`, `-0777`, `-0x1F`: octal digits (or hex after `-0x`), not further letters (`-lne`)
      if (digits.includes(c)) {
        const hex = c === '0' && /[xX]/.test(v[k + 1] ?? '');
        if (hex) k++;
        while ((hex ? /[0-9a-fA-F]/ : /[0-7]/).test(v[k + 1] ?? '')) k++;
      }
    }
  }
  return parts;
}

const AWK_VALUED = new Set(['-F', '-v', '-f', '-i', '-l', '--field-separator', '--assign', '--file', '--include', '--load']);

/** An awk program: its first argument that is not an option, unless `-f file` names it (gawk's `-e` adds text). */
function awkCode(a: string[]): CodePart[] {
  const parts: CodePart[] = [];
  let fromFile = false;
  for (let i = 0; i < a.length; i++) {
    const v = a[i]!;
    if (v === '-e' || v === '--source') {
      if (a[i + 1] !== undefined) parts.push({ text: a[i + 1]!, at: i + 1 });
      i++;
    } else if (v === '--') {
      if (!fromFile && !parts.length && a[i + 1] !== undefined) parts.push({ text: a[i + 1]!, at: i + 1 });
      break;
    } else if (AWK_VALUED.has(v)) {
      fromFile ||= v === '-f' || v === '--file';
      i++;
    } else if (v.startsWith('-') && v !== '-') {
      fromFile ||= /^-f./.test(v) || v.startsWith('--file=');
    } else {
      if (!fromFile && !parts.length) parts.push({ text: v, at: i });
      break;
    }
  }
  return parts;
}

/** Arguments that make an interpreter print something and stop, or only check syntax: it runs no program from stdin. */
const NO_RUN: Record<Lang, RegExp | null> = {
  python: /^(?:-[Vh?]|--version|--help|--help-\w+)$/,
  js: /^(?:-[vhc]|--version|--help|--check|--test|--run|--v8-options|--completion-bash)$/,
  perl: /^(?:-[vVhc]|--version|--help)$/,
  ruby: /^(?:-[vhcy]|--version|--help|--dump|--yydebug)$/,
  php: /^(?:-[vhilmsw]|--version|--help|--info|--modules|--syntax-check|--ini)$/,
  lua: /^(?:-v|-i)$/,
  awk: null,
  applescript: null,
  // `R -f FILE` runs a file
  r: /^(?:--version|--help|-h|-f.*|--file=.*)$/,
  julia: /^(?:-[vh]|--version|--help)$/,
  elixir: /^(?:-v|--version|-h|--help)$/,
  erlang: /^(?:-version)$/,
  lisp: /^(?:-h|--help|--version|-v)$/,
  jvm: /^(?:-v|-version|--version|-h|-help|--help)$/,
};

/** Options that take the next argument, per language, when no code was given inline. */
const STDIN_VALUED: Record<Lang, ReadonlySet<string>> = {
  python: new Set(['-W', '-X', '-Q', '--check-hash-based-pycs']),
  js: NODE_VALUED,
  perl: new Set(['-I']),
  ruby: new Set(['-r', '-I', '-C', '-E', '-F', '-K']),
  php: new Set(['-d', '-c', '-z', '-t', '-f']),
  lua: new Set(['-l']),
  awk: new Set(),
  applescript: new Set(['-l', '-s']),
  r: new Set(),
  julia: new Set(['-p', '-t', '-J', '-L', '-C']),
  elixir: new Set(['-r', '-pa', '-pz', '--erl', '--sname', '--name', '--cookie']),
  erlang: new Set(['-sname', '-name', '-setcookie', '-pa', '-pz', '-config', '-s', '-run']),
  lisp: new Set(['-l', '--load', '-L', '-t', '-I']),
  jvm: new Set(['-cp', '-classpath', '-D']),
};

/**
 * Whether the interpreter reads its program from stdin (a heredoc, a here-string): no inline code
 * (inlineCode is null), and no script named — nothing, `-` or `/dev/stdin` where the script goes
 * (`python3 - <<'PY'`, `node <<'JS'`, `perl <<'PL'`, `php <<'PHP'`, `bun run -`, `deno run -`).
 * An awk program is read from stdin only where `-f` names it (`awk -f /dev/stdin <<< '…'`, `-f -`);
 * `php -f x`, `--version`, `-c` (syntax check) run none.
 */
export function readsProgramFromStdin(program: string, lang: Lang, args: string[]): boolean {
  if (lang === 'awk')
    return args.some((v, i) => ((v === '-f' || v === '--file') && /^(-|\/dev\/stdin)$/.test(args[i + 1] ?? '')) || /^(-f|--file=)(-|\/dev\/stdin)$/.test(v));
  let a = args;
  if (program === 'bun' || program === 'deno') {
    // `bun run -`, `bun -`, `deno run -`: only the explicit `-`
    const i = a.findIndex((v) => !v.startsWith('-') || v === '-');
    if (i < 0) return false;
    if (a[i] === '-') return program === 'bun';
    if (a[i] !== 'run') return false;
    a = a.slice(i + 1);
    const k = a.findIndex((v) => !v.startsWith('-') || v === '-');
    return k >= 0 && a[k] === '-';
  }
  const noRun = NO_RUN[lang];
  const valued = STDIN_VALUED[lang];
  for (let i = 0; i < a.length; i++) {
    const v = a[i]!;
    if (v === '-' || v === '/dev/stdin') return true;
    if (v === '--') return a[i + 1] === undefined || a[i + 1] === '-' || a[i + 1] === '/dev/stdin';
    if (!v.startsWith('-')) return false;
    if (noRun?.test(v)) return false;
    if (lang === 'php' && /^-[^-]*f/.test(v)) return false;
    if (valued.has(v)) i++;
  }
  return true;
}

/**
 * The index of the script file the interpreter runs (`python3 -u x.py`, `node --env-file .env
 * x.js`, `deno run -A x.ts`, `bun run x.ts`), or -1: inline code, a module, stdin or nothing
 * named. As readsProgramFromStdin reads the options before it.
 */
export function scriptFileAt(program: string, lang: Lang, args: string[]): number {
  if (lang === 'awk' || inlineCode(program, lang, args) !== null) return -1;
  let i = 0;
  if (program === 'bun' || program === 'deno') {
    while (i < args.length && args[i]!.startsWith('-') && args[i] !== '-') i++;
    if (args[i] === 'run') i++;
  }
  const noRun = NO_RUN[lang];
  const valued = STDIN_VALUED[lang];
  for (; i < args.length; i++) {
    const v = args[i]!;
    if (v === '--') return i + 1 < args.length && args[i + 1] !== '-' ? i + 1 : -1;
    if (v === '-' || noRun?.test(v) || (lang === 'python' && /^-[^-]*m/.test(v))) return -1;
    if (!v.startsWith('-')) return i;
    if (valued.has(v)) i++;
  }
  return -1;
}

/** The code in PHP text read as a script: what stands between `<?php` (or `<?=`, `<?`) and `?>`. */
export function phpCode(text: string): string {
  const parts: string[] = [];
  const re = /<\?(?:php\b|=)?([\s\S]*?)(?:\?>|$)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    parts.push(m[1]!);
    if (m[0].length === 0) re.lastIndex++;
  }
  return parts.join('\n');
}

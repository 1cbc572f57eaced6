import { type Invocation, unwrap } from './command.ts';
import { inlineCode, languageOf } from './families/interpreter-argv.ts';
import { MAX_DEPTH, parseShell } from './shell.ts';

/**
 * The commands that print the environment's variables with their values, tokens among them
 * (docs/safety.md, exfiltration): `printenv`, `env` with nothing to run, `set` and `export` alone
 * or `export -p`, `declare`/`typeset` listing variables (alone, `-x`, `-p`, `-p NAME`), and any
 * program reading a process's environment file (`cat /proc/self/environ`, `strings
 * /proc/$$/environ`, `tr '\0' '\n' < /proc/1/environ`); in disguise, a shell handed a command line
 * that prints it (`bash -c env`, `sh -c 'printenv'`, `eval export`) and an interpreter whose inline
 * code reads it (`node -p process.env`, `python3 -c 'import os; print(os.environ)'`). Alone they
 * print to the agent, which is fine; sent off the machine they are exfiltration (exfiltration.ts).
 */

/** A process's environment file: `/proc/self/environ`, `/proc/<pid>/environ`, `/proc/<pid>/task/<tid>/environ`. */
const ENVIRON_FILE = /^\/proc\/[^/]+\/(task\/[^/]+\/)?environ$/;

/** What prints the environment in `inv` (`printenv`, `declare -x`, `/proc/self/environ`, `bash -c env`), or null. */
export function printsEnvironment(inv: Invocation, depth = 0): string | null {
  const named = printerByName(inv);
  if (named) return named;
  // code or a command line that prints the environment names it (`env`, `printenv`, `environ`, `process.env`, `set`, `export`, `declare`…)
  if (!inv.args.some((w) => MAY_PRINT.test(w.value))) return null;
  const lang = languageOf(inv.program);
  const code =
    lang &&
    inlineCode(
      inv.program,
      lang,
      inv.args.map((w) => w.value),
    );
  if (code && READS_ENVIRONMENT.test(code)) return `${inv.program} ${code.length > 40 ? `${code.slice(0, 40)}…` : code}`;
  // `bash -c env`, `eval printenv`, `su -c export`: the command line a shell is handed
  if (depth >= MAX_DEPTH) return null;
  for (const script of unwrap(inv.command).scripts) {
    for (const cmd of parseShell(script, { home: '/', depth: depth + 1 }).commands) {
      const run = unwrap(cmd).invocation;
      const inner = run && printsEnvironment(run, depth + 1);
      if (inner) return `${inv.program} … ${inner}`;
    }
  }
  return null;
}

/**
 * The variables a printer of the environment prints, when it names them: `printenv PORT HOME`,
 * `declare -p NAME`, inline code that reads each by its name (`node -p process.env.PORT`,
 * `os.environ.get("HOME")`, `ENV["X"]`, `$ENV{X}`, `getenv("X")`); null when it prints the whole
 * environment or what it prints is not told (`printenv`, `env`, `print(os.environ)`, `bash -c env`).
 */
export function printedVariables(inv: Invocation): string[] | null {
  const a = inv.args.map((w) => w.value);
  if (inv.program === 'printenv') {
    const names = a.filter((x) => !x.startsWith('-'));
    return names.length && names.every((n) => NAME.test(n)) ? names : null;
  }
  if ((inv.program === 'declare' || inv.program === 'typeset') && a.some((x) => /^-[A-Za-z]*p/.test(x))) {
    const names = a.filter((x) => !x.startsWith('-') && !x.startsWith('+'));
    return names.length && names.every((n) => NAME.test(n)) ? names : null;
  }
  const lang = languageOf(inv.program);
  const code = lang && inlineCode(inv.program, lang, a);
  if (!code) return null;
  const names: string[] = [];
  const rest = code.replace(NAMED_READ, (...m: string[]) => {
    names.push(m.slice(1, 5).find(Boolean)!);
    return ' ';
  });
  return names.length && !READS_ENVIRONMENT.test(rest) ? names : null;
}

/** A variable's name. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A read of one variable by its name in inline code: `process.env.X`, `Bun.env.X`, `process.env["X"]`,
 * `os.environ["X"]`, `ENV['X']`, `ENVIRON["X"]`, `$_ENV['X']`, `os.environ.get("X")`,
 * `os.getenv("X")`, `getenv('X')`, `Deno.env.get("X")`, `ENV.fetch("X")`, `$ENV{X}`.
 */
const NAMED_READ =
  /(?:\b(?:process|Bun)\.env\.([A-Za-z_]\w*)\b(?!\s*=[^=])|(?:\b(?:process|Bun)\.env|\bos\.environ|\bENV|\bENVIRON|\$_ENV|\$_SERVER)\[\s*["']([A-Za-z_]\w*)["']\s*\]|\b(?:os\.environ\.get|os\.getenv|getenv|Deno\.env\.get|ENV\.fetch)\(\s*["']([A-Za-z_]\w*)["']|\$ENV\{\s*["']?([A-Za-z_]\w*)["']?\s*\})/g;

/** A word that may hold code or a command line printing the environment: every printer's name has one of these in it. */
const MAY_PRINT = /env|set|export|declare|typeset/i;

/**
 * Inline code that reads the environment: Python's `os.environ` and `getenv`, `process.env` (and
 * Deno's, Bun's), Perl's `%ENV`, Ruby's `ENV`, PHP's `getenv` and `$_ENV`/`$_SERVER`, awk's `ENVIRON`.
 */
const READS_ENVIRONMENT = /\benviron\b|\bgetenv\b|\bprocess\.env\b|\b(?:Deno|Bun)\.env\b|[%$]ENV\b|\bENV\b|\$_(?:ENV|SERVER)\b|\bENVIRON\b/;

/** The environment's own printers by name, and a read of an environment file. */
function printerByName(inv: Invocation): string | null {
  switch (inv.program) {
    case 'printenv':
      return 'printenv';
    case 'env':
      // `env`, `env -i FOO=1`: nothing to run, so it prints the environment
      return inv.args.every((w) => w.value.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(w.value)) ? 'env' : null;
    case 'set':
    case 'export':
      return inv.args.length === 0 || (inv.program === 'export' && inv.args[0]!.value === '-p') ? inv.program : null;
    case 'declare':
    case 'typeset': {
      const a = inv.args.map((w) => w.value);
      return listsVariables(a) ? `${inv.program}${a.length ? ` ${a.join(' ')}` : ''}` : null;
    }
  }
  const file = (
    inv.args.find((w) => namesEnvironFile(w.value)) ?? inv.command.redirects.find((r) => r.op === '<' && namesEnvironFile(r.target?.value ?? ''))?.target
  )?.value;
  return file ? `${inv.program} ${file.replace(OPTION_PREFIX, '')}` : null;
}

/** An option in front of a file it names (`-a/proc/1/environ`, `--file=…`). */
const OPTION_PREFIX = /^-[A-Za-z]*[a=]/;

/** Whether a word names a process's environment file, alone or as an option's value. */
const namesEnvironFile = (x: string) => x.endsWith('/environ') && ENVIRON_FILE.test(x.replace(OPTION_PREFIX, ''));

/** Whether `path` is a process's environment file (`/proc/self/environ`, `/proc/1/task/1/environ`). */
export function environFile(path: string): boolean {
  return ENVIRON_FILE.test(path);
}

/**
 * Whether `declare`/`typeset` with these words prints variables with their values: with no name
 * (alone, `-x`, `-r`: every such variable) unless it lists only functions (`-f`, `-F`), or with
 * `-p` (`declare -p TOKEN`). Setting one (`declare -x FOO=1`) or giving a name an attribute
 * (`declare -a list`) prints nothing.
 */
function listsVariables(words: string[]): boolean {
  const flags = words.filter((w) => /^[-+][A-Za-z]+$/.test(w)).join('');
  const names = words.filter((w) => !/^[-+]/.test(w));
  if (names.some((n) => n.includes('='))) return false;
  if (flags.includes('p')) return true;
  return names.length === 0 && !(flags && /^[-+fF]+$/.test(flags));
}

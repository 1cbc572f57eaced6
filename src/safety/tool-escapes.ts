import { argvLine } from './argv-line.ts';
import type { Word } from './shell.ts';

/**
 * The shell escapes of programs that run code of their own on this machine, handed in their
 * options or words (docs/safety.md, "Code a program runs from its options or its environment"): a database shell's
 * `.shell`, `\!` and `system`, less's `+!cmd`, an editor's `:call system(…)` and its Python,
 * emacs' `(shell-command …)`, a debugger's `platform shell` and `python …`, `make --eval`'s
 * recipe, go's `-exec` and `-toolexec`, cmake's `-E` file verbs. Each is read as the command line
 * (or the equivalent command) it runs, which the walk then checks as `sh -c '…'` is
 * (launchers.ts launch): `sqlite3 x.db '.shell rm -rf ~'` is `rm -rf ~`. option-commands.ts holds
 * the options whose whole value is such a line (ssh's, rsync's, tar's, zip's, man's).
 */
interface Escape {
  /** the options whose value may hold code, each also written `-name=VALUE` / `--name=VALUE` */
  options?: readonly string[];
  /** whether every word (an operand or an option's value) is read, not only those of `options` */
  everyWord?: boolean;
  /** the command lines in a value, none where it holds none */
  read: (v: string) => string[];
}

/** The first group of `re` in `v` as one line, else none. */
const match = (re: RegExp) => (v: string) => {
  const m = re.exec(v)?.[1];
  return m?.trim() ? [m] : [];
};

/** A string literal's text, its backslash escapes undone (`"a \"b\""` → `a "b"`). */
const unescape = (s: string) => s.replace(/\\(.)/gs, '$1');

/** An editor's ex command that runs code: `:call system("cmd")`, `:py3 code` / `:python3`, `:perl`, `:ruby`, `:lua os.execute(…)` as their interpreters' one-liners. */
function exCode(v: string): string[] {
  const call = /^:?\s*(?:silent!?\s*)?(?:call\s+|echo\s+|let\s+\w+\s*=\s*)?system(?:list)?\(\s*(["'])((?:\\.|(?!\1).)*)\1/s.exec(v);
  if (call) return [unescape(call[2]!)];
  const lang = /^:?\s*(?:silent!?\s*)?(py3|python3|py|python|pyx|perl|ruby|lua)(?:do)?\s+(.+)$/s.exec(v);
  if (!lang) return [];
  const program = { py3: 'python3', python3: 'python3', py: 'python3', python: 'python3', pyx: 'python3', perl: 'perl', ruby: 'ruby', lua: 'lua' }[lang[1]!]!;
  return [argvLine([program, '-e', lang[2]!]).replace(/^python3 -e/, 'python3 -c')];
}

/** emacs Lisp that runs a command or removes a folder: `(shell-command "…")`, `(call-process-shell-command "…")`, `(delete-directory "D" t)`. */
function lispCode(v: string): string[] {
  const out: string[] = [];
  for (const m of v.matchAll(
    /\((?:shell-command(?:-to-string)?|async-shell-command|call-process-shell-command|start-process-shell-command\s+"[^"]*"\s+[^\s)]+)\s+"((?:\\.|[^"\\])*)"/g,
  ))
    out.push(unescape(m[1]!));
  for (const m of v.matchAll(/\(delete-directory\s+"((?:\\.|[^"\\])*)"\s+(?!nil\b)[^\s)]/g)) out.push(argvLine(['rm', '-rf', unescape(m[1]!)]));
  for (const m of v.matchAll(/\(delete-file\s+"((?:\\.|[^"\\])*)"/g)) out.push(argvLine(['rm', '-f', unescape(m[1]!)]));
  return out;
}

/** A debugger's command that runs code: gdb's `python …`, lldb's `platform shell …` and `script …` (Python). */
function debuggerCode(v: string): string[] {
  const shell = /^\s*platform\s+shell\s+(.+)$/s.exec(v)?.[1];
  if (shell) return [shell];
  const py = /^\s*(?:python|python-interactive|pi|script)\s+(.+)$/s.exec(v)?.[1];
  return py ? [argvLine(['python3', '-c', py])] : [];
}

/** A make rule's recipe given in `--eval`: after `target: deps ;` and on the lines a tab starts, make's `$$` a `$`. */
function makeRecipes(v: string): string[] {
  const out: string[] = [];
  for (const line of v.split('\n')) {
    const recipe = line.startsWith('\t') ? line.slice(1) : /^[^=#;]*?:(?!=)[^;=]*;(.*)$/.exec(line)?.[1];
    const text = recipe?.replace(/^[\s@+-]+/, '').replace(/\$\$/g, '$');
    if (text) out.push(text);
  }
  return out;
}

const EDITOR: Escape = { options: ['-c', '--cmd'], read: exCode };
const SQLITE: Escape = { everyWord: true, read: match(/^\s*\.(?:shell|system)\s+(.+)$/s) };
const MYSQL: Escape = { options: ['-e', '--execute'], read: (v) => [...v.matchAll(/(?:^|;)\s*(?:system|\\!)\s+([^;]+)/gi)].map((m) => m[1]!) };
const GDB: Escape = { options: ['-ex', '-iex', '--eval-command', '--init-eval-command'], read: debuggerCode };

const ESCAPES: Record<string, Escape> = {
  sqlite3: SQLITE,
  sqlite: SQLITE,
  psql: { options: ['-c', '--command'], read: (v) => [...v.matchAll(/(?:^|\n)\s*\\!\s*([^\n]+)/g)].map((m) => m[1]!) },
  mysql: MYSQL,
  mariadb: MYSQL,
  less: { everyWord: true, read: match(/^\+:?!(.+)$/s) },
  vim: EDITOR,
  vi: EDITOR,
  nvim: EDITOR,
  view: EDITOR,
  ex: EDITOR,
  emacs: { options: ['--eval', '-eval', '--execute'], read: lispCode },
  gdb: GDB,
  lldb: { options: ['-o', '--one-line', '-O', '--one-line-before-file', '-k', '--one-line-on-crash'], read: debuggerCode },
  make: { options: ['--eval', '-E'], read: makeRecipes },
  gmake: { options: ['--eval', '-E'], read: makeRecipes },
  // `go test -exec CMD` runs each test binary through CMD, `-toolexec CMD` each compiler tool
  go: { options: ['-exec', '-toolexec'], read: (v) => [v] },
};

/**
 * cmake's `-E` verbs that change files, as the commands they equal: `rm [-r] [-f]`, `remove`,
 * `remove_directory` (`rm -rf`), `tar` (`tar`, which reads what it packs), `copy_directory`,
 * `rename`; the others (`echo`, `make_directory`, `copy`…) stay cmake's.
 */
function cmakeCommands(args: readonly string[]): string[] {
  const at = args.indexOf('-E');
  if (at < 0) return [];
  const [verb, ...rest] = args.slice(at + 1);
  if (verb === 'rm') return [argvLine(['rm', ...rest])];
  if (verb === 'remove') return [argvLine(['rm', '-f', ...rest.filter((a) => a !== '-f')])];
  if (verb === 'remove_directory') return [argvLine(['rm', '-rf', '--', ...rest])];
  if (verb === 'tar') return [argvLine(['tar', ...rest])];
  if (verb === 'copy_directory' || verb === 'copy_directory_if_different') return [argvLine(['cp', '-r', ...rest])];
  if (verb === 'rename') return [argvLine(['mv', ...rest])];
  return [];
}

/** The command lines `program` runs through its own options and words (ESCAPES, cmake's `-E`); none for another program. */
export function toolEscapes(program: string, args: readonly Word[]): string[] {
  const values = args.map((w) => w.value);
  if (program === 'cmake') return cmakeCommands(values);
  const spec = Object.hasOwn(ESCAPES, program) ? ESCAPES[program]! : null;
  if (!spec) return [];
  const out: string[] = [];
  const options = spec.options ?? [];
  for (let i = 0; i < values.length; i++) {
    const w = values[i]!;
    const eq = w.indexOf('=');
    if (options.includes(w)) out.push(...spec.read(values[++i] ?? ''));
    else if (w.startsWith('-') && eq > 0 && options.includes(w.slice(0, eq))) out.push(...spec.read(w.slice(eq + 1)));
    // `-cCMD`, `-eSQL`: a short option's value joined to it
    else if (/^-[A-Za-z]./s.test(w) && !w.startsWith('--') && options.includes(w.slice(0, 2))) out.push(...spec.read(w.slice(2)));
    else if (spec.everyWord || (spec === EDITOR && w.startsWith('+'))) out.push(...spec.read(spec === EDITOR ? w.slice(1) : w));
  }
  return out.filter((l) => l.trim());
}

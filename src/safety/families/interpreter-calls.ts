import { shellQuote } from '../../model/shell-quote.ts';
import type { Lang } from './interpreter-argv.ts';
import { STRING_OPEN } from './interpreter-syntax.ts';
import { expandTilde, HOME, readArgs, readDelimited, readString, readValue, type Value } from './interpreter-values.ts';
import { withLiteralVariables } from './interpreter-variables.ts';
import { walkedFolders } from './interpreter-walks.ts';

/**
 * The calls in interpreter code that run commands or delete files (families/interpreter.ts), and
 * the shell command lines they amount to. Only literal arguments are seen (interpreter-values.ts):
 * `os.system(cmd)` with `cmd` a variable is not.
 */

/**
 * What a call does with its arguments:
 * - `line`: its first argument is a command line (a list: an argv);
 * - `system`: the same, and several strings are an argv (`system("npm", "publish")`);
 * - `spawn`: a program and a list of its arguments; `execv`: a path and an argv (argv[0] dropped);
 *   `execl`: a path, argv[0], then the arguments; `spawnv`/`spawnl`: the same after a mode;
 * - `rmtree`: a recursive delete of each path; `rm-opt`/`rmdir-opt`: recursive when the options say
 *   `recursive: true`, else a file (`rm -f`) or an empty folder (`rmdir`); `rm-kw`: the same when a
 *   keyword argument says `recursive=TRUE` (R's `unlink`, Julia's `rm`); `unlink`, `rmdir`;
 * - `move`: its first path renamed to its second (`mv a b`); `copy`: copied there (`cp -r a b`);
 * - `write`/`read`/`open`: a file written or read (`open`: by its mode); `perl-open`: perl's open;
 * - `cmd-object`: `Bun.spawn([...])` or `{cmd: [...]}`; `deno-command`: `new Deno.Command(p, {args})`;
 * - `code`: its argument is code in the same language (`eval`, `exec`);
 * - `template`: a tagged template that is a command (`Bun.$`...``); `qx`: perl `qx{}`, ruby `%x()`;
 *   `pipe`: awk's `print | "cmd"`.
 */
type Kind =
  | 'line'
  | 'system'
  | 'spawn'
  | 'execv'
  | 'execl'
  | 'spawnv'
  | 'spawnl'
  | 'rmtree'
  | 'rm-opt'
  | 'rmdir-opt'
  | 'rm-kw'
  | 'move'
  | 'copy'
  | 'unlink'
  | 'rmdir'
  | 'write'
  | 'read'
  | 'open'
  | 'perl-open'
  | 'cmd-object'
  | 'deno-command'
  | 'code'
  | 'template'
  | 'qx'
  | 'pipe';

/** Not after a name character or a member access: the function imported bare (`from os import system`). */
const BARE = '(?<![\\w.$])';

const CALLS: Record<Lang, Array<[string, Kind]>> = {
  python: [
    [`(?:\\b(?:os|posix)\\.|\\)\\.|${BARE})(?:system|popen)\\b`, 'line'],
    [`(?:\\b(?:subprocess|sp|commands)\\.|\\)\\.|${BARE})(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)\\b`, 'line'],
    ['\\bpty\\.spawn\\b', 'line'],
    [`(?:\\bos\\.|${BARE})exec(?:v|ve|vp|vpe)\\b`, 'execv'],
    [`(?:\\bos\\.|${BARE})exec(?:l|le|lp|lpe)\\b`, 'execl'],
    ['\\bos\\.spawnv(?:p|e|pe)?\\b', 'spawnv'],
    ['\\bos\\.spawnl(?:p|e|pe)?\\b', 'spawnl'],
    [`(?:\\bshutil\\.|\\)\\.|${BARE})rmtree\\b`, 'rmtree'],
    [`(?:\\bos\\.|${BARE})(?:remove|unlink)\\b`, 'unlink'],
    ['\\bos\\.(?:rmdir|removedirs)\\b', 'rmdir'],
    [`\\bos\\.(?:rename|renames|replace)\\b|(?:\\bshutil\\.|${BARE})move\\b`, 'move'],
    [`(?:\\bio\\.|${BARE})open\\b`, 'open'],
    ['\\bos\\.truncate\\b', 'write'],
    ['\\bshutil\\.(?:copytree|copy2?|copyfile)\\b', 'copy'],
    [`${BARE}(?:exec|eval)\\b`, 'code'],
  ],
  js: [
    ['\\b(?:exec|execSync)\\b', 'line'],
    ['\\b(?:spawn|spawnSync|execFile|execFileSync)\\b', 'spawn'],
    ['\\bBun\\.spawn(?:Sync)?\\b|\\bDeno\\.run\\b', 'cmd-object'],
    ['\\bnew\\s+Deno\\.Command\\b', 'deno-command'],
    ['(?<![\\w$])\\$(?=`)', 'template'],
    ['\\b(?:rmSync|rm)\\b|\\bDeno\\.remove(?:Sync)?\\b', 'rm-opt'],
    ['\\b(?:rmdirSync|rmdir)\\b', 'rmdir-opt'],
    ['\\b(?:unlinkSync|unlink)\\b', 'unlink'],
    ['\\b(?:writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|writeTextFile(?:Sync)?)\\b|\\bBun\\.write\\b', 'write'],
    ['\\b(?:readFileSync|readFile|createReadStream|readTextFile(?:Sync)?)\\b|\\bBun\\.file\\b', 'read'],
    // `fs.cpSync(homedir() + '/.aws', '/tmp/a', {recursive: true})`: `cp -r` of its source to its destination
    ['\\b(?:cpSync|copyFileSync|copyFile)\\b', 'copy'],
    [`${BARE}eval\\b`, 'code'],
  ],
  perl: [
    ['(?<![\\w$@%>])(?:CORE::)?(?:system|exec)\\b', 'system'],
    ['\\bqx(?=\\s*[^\\w\\s,;=])', 'qx'],
    ['(?<![\\w$@%>])(?:File::Path::)?(?:rmtree|remove_tree)\\b', 'rmtree'],
    ['(?<![\\w$@%>])unlink\\b', 'unlink'],
    ['(?<![\\w$@%>])rmdir\\b', 'rmdir'],
    ['(?<![\\w$@%>])open\\b', 'perl-open'],
    ['(?<![\\w$@%>])eval\\b', 'code'],
  ],
  ruby: [
    [`(?:\\b(?:Kernel|Process)\\.|(?<![\\w.$@:]))(?:system|exec|spawn)\\b`, 'system'],
    ['%x(?=[^\\w\\s=])', 'qx'],
    ['\\bIO\\.popen\\b', 'line'],
    ['\\bOpen3\\.(?:capture2e?|capture3|popen2e?|popen3|pipeline(?:_rw|_r|_w|_start)?)\\b', 'system'],
    [`\\bFileUtils\\.(?:rm_rf|rm_r|remove_dir|remove_entry_secure|remove_entry|rmtree)\\b|(?<![\\w.$@:])(?:rm_rf|rm_r)\\b`, 'rmtree'],
    ['\\bFileUtils\\.(?:rm|rm_f|remove|remove_file|safe_unlink)\\b|\\bFile\\.(?:delete|unlink)\\b', 'unlink'],
    ['\\b(?:FileUtils|Dir)\\.(?:rmdir|delete|unlink)\\b', 'rmdir'],
    ['\\bFile\\.(?:write|binwrite)\\b', 'write'],
    ['\\bFile\\.(?:read|binread|readlines|foreach)\\b', 'read'],
    [`(?<![\\w.$@:])(?:eval|instance_eval)\\b`, 'code'],
  ],
  php: [
    ['(?<![\\w>$:\\\\])(?:system|exec|shell_exec|passthru|popen|proc_open)\\b', 'line'],
    ['(?<![\\w>$:\\\\])pcntl_exec\\b', 'spawn'],
    ['(?<![\\w>$:\\\\])unlink\\b', 'unlink'],
    ['(?<![\\w>$:\\\\])rmdir\\b', 'rmdir'],
    ['(?<![\\w>$:\\\\])file_put_contents\\b', 'write'],
    ['(?<![\\w>$:\\\\])fopen\\b', 'open'],
    ['(?<![\\w>$:\\\\])(?:file_get_contents|readfile|file)\\b', 'read'],
    ['(?<![\\w>$:\\\\])eval\\b', 'code'],
  ],
  lua: [
    ['\\b(?:os\\.execute|io\\.popen)\\b', 'line'],
    ['\\bos\\.remove\\b', 'unlink'],
    ['\\bio\\.open\\b', 'open'],
    [`${BARE}(?:loadstring|load)\\b`, 'code'],
  ],
  awk: [
    ['(?<![\\w])system\\b', 'line'],
    ['(?<!\\|)\\|&?(?=\\s*")', 'pipe'],
  ],
  // `do shell script`, JXA's `doShellScript(…)`; a command line typed into a terminal: Terminal's `do script`, iTerm's `write text`, System Events' `keystroke`
  applescript: [['\\bdo\\s+(?:shell\\s+)?script\\b|\\.doShellScript\\b|\\bwrite\\s+text\\b|\\bkeystroke\\b', 'line']],
  r: [
    [`${BARE}(?:system|system2|shell)\\b`, 'line'],
    [`${BARE}unlink\\b`, 'rm-kw'],
    [`${BARE}file\\.remove\\b`, 'unlink'],
    [`${BARE}file\\.rename\\b`, 'move'],
  ],
  // a Julia backtick is a command (read as a string literal by scan)
  julia: [
    [`(?:\\bBase\\.(?:Filesystem\\.)?|${BARE})rm\\b`, 'rm-kw'],
    [`(?:\\bBase\\.(?:Filesystem\\.)?|${BARE})mv\\b`, 'move'],
    [`${BARE}write\\b`, 'write'],
    [`${BARE}open\\b`, 'open'],
  ],
  elixir: [
    ['\\bSystem\\.cmd\\b', 'spawn'],
    ['\\bSystem\\.shell\\b|:os\\.cmd\\b', 'line'],
    ['\\bFile\\.rm_rf!?(?![\\w!])', 'rmtree'],
    ['\\bFile\\.rm!?(?![\\w!])', 'unlink'],
    ['\\bFile\\.rmdir!?(?![\\w!])', 'rmdir'],
    ['\\bFile\\.(?:write|touch)!?(?![\\w!])', 'write'],
    ['\\bFile\\.read!?(?![\\w!])', 'read'],
    ['\\bFile\\.rename!?(?![\\w!])', 'move'],
    ['\\bFile\\.cp_r!?(?![\\w!])', 'copy'],
    ['\\bCode\\.eval_string\\b', 'code'],
  ],
  erlang: [
    ['\\bos:cmd\\b', 'line'],
    ['\\bfile:del_dir_r\\b', 'rmtree'],
    ['\\bfile:delete\\b', 'unlink'],
    ['\\bfile:del_dir\\b', 'rmdir'],
    ['\\bfile:write_file\\b', 'write'],
    ['\\bfile:read_file\\b', 'read'],
    ['\\bfile:rename\\b', 'move'],
  ],
  // a Lisp form's head, after its `(`: `(system "…")`, `(sh "rm" "-rf" …)`, `(delete-directory/files …)`
  lisp: [
    [`(?<=\\(\\s*)(?:[\\w.-]+(?:/|::?))?(?:system\\*?|shell|sh|process|run-program|shell-command)(?=\\s)`, 'system'],
    [`(?<=\\(\\s*)(?:[\\w.-]+(?:/|::?))?(?:delete-directory/files|delete-tree|delete-directory|delete-recursively)(?=\\s)`, 'rmtree'],
    [`(?<=\\(\\s*)(?:[\\w.-]+(?:/|::?))?delete-file(?=\\s)`, 'unlink'],
    // Fennel's and Hy's forms are Lua's and Python's calls: `(os.execute "…")`, `(os.system "…")`, `(shutil.rmtree "…")`
    [`(?<=\\(\\s*)(?:os\\.(?:execute|system)|io\\.popen|subprocess\\.(?:run|call|check_call|check_output|Popen))(?=\\s)`, 'system'],
    [`(?<=\\(\\s*)shutil\\.rmtree(?=\\s)`, 'rmtree'],
    [`(?<=\\(\\s*)os\\.(?:remove|unlink)(?=\\s)`, 'unlink'],
  ],
  // Groovy's `"cmd".execute()` (interpreter-calls.ts scan), `Runtime.getRuntime().exec("…")`, `ProcessBuilder("rm", …)`, `File(…).deleteRecursively()`
  jvm: [
    ['\\bRuntime\\.getRuntime\\(\\)\\.exec\\b', 'line'],
    ['\\bProcessBuilder\\b', 'system'],
    ['\\b(?:java\\.io\\.)?File(?=\\s*\\((?:[^()]|\\([^()]*\\))*\\)\\s*\\.\\s*(?:deleteRecursively|deleteDir)\\s*\\(\\s*\\))', 'rmtree'],
  ],
};

/** Per language: one pattern that finds the next string literal (group 1) or call (group 2 + its index). */
const SCANNERS = Object.fromEntries(
  Object.entries(CALLS).map(([lang, calls]) => [lang, new RegExp(`(${STRING_OPEN[lang as Lang]})|${calls.map(([re]) => `(${re})`).join('|')}`, 'g')]),
) as Record<Lang, RegExp>;

/** At most this many command lines from one piece of code, calls looked at, characters read for one call. */
const MAX_LINES = 64;
const MAX_CALLS = 2048;
const SPAN = 8 * 1024;
const MAX_DEPTH = 3;

/** The shell command lines the calls in `code` would run (see the module comment). */
export function commandLines(code: string, lang: Lang): string[] {
  const out: string[] = [];
  const read = withLiteralVariables(code, lang);
  scan(read, lang, 0, out);
  for (const folder of walkedFolders(read, lang)) out.push(`rm -rf ${quoteArg(folder)}`);
  return out.slice(0, MAX_LINES);
}

function scan(src: string, lang: Lang, depth: number, out: string[]): void {
  const re = SCANNERS[lang];
  let pos = 0;
  for (let calls = 0; pos < src.length && out.length < MAX_LINES && calls < MAX_CALLS; ) {
    re.lastIndex = pos;
    const m = re.exec(src);
    if (!m) return;
    const window = src.slice(0, m.index + SPAN);
    if (m[1] !== undefined) {
      // a string literal: what it names is text, not a call — but a perl/ruby/php backtick runs a command
      const s = readString(window, m.index, lang)!;
      if (s.value !== null && src[m.index] === '`' && lang !== 'js' && lang !== 'r') out.push(shellLine(s.value));
      // Groovy: `"cmd".execute()` runs the string as a command
      if (s.value !== null && lang === 'jvm' && /^\s*\.\s*execute\s*\(/.test(src.slice(s.end, s.end + 32))) out.push(shellLine(s.value));
      // Python: a path's own methods (`Path.home() / ".claude/x"` read as a literal, a variable holding one): `p.write_text(s)` writes it
      const called = s.value !== null && lang === 'python' ? PATH_METHOD.exec(src.slice(s.end, s.end + 32)) : null;
      // the literal is the whole path: alone (a variable read), or the one argument of `Path(…)`
      if (called && (!called[1] || /\bPath\(\s*$/.test(src.slice(Math.max(0, m.index - 16), m.index)))) out.push(pathMethodLine(called[2]!, s.value!));
      // awk: `"cmd" | getline`
      if (s.value !== null && lang === 'awk' && /^\s*\|&?\s*getline\b/.test(src.slice(s.end, s.end + 32))) out.push(shellLine(s.value));
      pos = Math.max(s.end, m.index + 1);
      continue;
    }
    calls++;
    const g = m.findIndex((x, n) => n > 1 && x !== undefined);
    const end = m.index + m[0].length;
    render(CALLS[lang][g - 2]![1], window, end, lang, depth, out);
    // the arguments are scanned on: a call inside them is found, a string in them skipped
    pos = Math.max(end, m.index + 1);
  }
}

/** pathlib's methods that write, remove or read the path they are called on (after a `)` that closes the path: `(Path.home() / "x").unlink()`). */
const PATH_METHOD = /^\s*(\))?\s*\.\s*(write_text|write_bytes|touch|unlink|rmdir|read_text|read_bytes)\s*\(/;

/** The shell line a pathlib method on `path` stands for. */
function pathMethodLine(method: string, path: string): string {
  if (method === 'unlink') return `rm -f ${quoteArg(path)}`;
  if (method === 'rmdir') return `rmdir ${quoteArg(path)}`;
  return method.startsWith('read') ? `cat ${quoteArg(path)}` : `: > ${quoteArg(path)}`;
}

/** A home-folder value as a shell word: `"$HOME"/rest`. */
function quoteArg(a: string): string {
  if (a.startsWith(HOME)) return `"$HOME"${a.length > HOME.length ? shellQuote(a.slice(HOME.length)) : ''}`;
  return shellQuote(a.replaceAll(HOME, '~'));
}
const argvLine = (argv: string[]) => argv.map(quoteArg).join(' ');
const shellLine = (s: string) => s.replaceAll(HOME, '"$HOME"');
/** The strings at the start of the arguments, up to the first that is not one. */
function leading(v: Value[]): string[] {
  const out: string[] = [];
  for (const a of v) {
    if (!a || !('str' in a)) break;
    out.push(a.str);
  }
  return out;
}
/** One string is a command line; several are an argv (perl and ruby `system`). */
const lineOrArgv = (strs: string[]) => (strs.length === 1 ? shellLine(strs[0]!) : strs.length ? argvLine(strs) : null);
const str = (v: Value | undefined): string | null => (v && 'str' in v ? v.str : null);
const list = (v: Value | undefined): string[] | null => (v && 'list' in v ? v.list : null);
/** The paths a value names: a string, or each string of a list; empty strings are no path. */
const paths = (v: Value | undefined): string[] => (str(v) !== null ? [str(v)!] : (list(v) ?? [])).filter((p) => p !== '');
const recursive = (v: Value | undefined) => !!v && 'raw' in v && /\brecursive\s*:\s*true\b/.test(v.raw);
/** R's `recursive=TRUE`, Julia's `recursive=true`, in the text of a call's arguments. */
const recursiveKeyword = (args: string) => /\brecursive\s*=\s*(?:TRUE|true|T)\b/.test(args);

/** A list named by a key inside an object literal: `{cmd: [...]}`, `{args: [...]}`. */
function listIn(v: Value | undefined, key: string): string[] | null {
  if (!v || !('raw' in v)) return null;
  const m = new RegExp(`\\b${key}\\s*:\\s*`).exec(v.raw);
  return m ? list(readValue(v.raw, m.index + m[0].length, 'js').value) : null;
}

/** The command or paths of one call. */
function render(kind: Kind, src: string, at: number, lang: Lang, depth: number, out: string[]): void {
  if (kind === 'template' || kind === 'qx') {
    const s = kind === 'template' ? readString(src, at, lang) : readDelimited(src, at, lang, true);
    if (s?.value) out.push(shellLine(s.value));
    return;
  }
  const read = kind === 'pipe' ? null : readArgs(src, at, lang);
  const v = read ? read.values : [readValue(src, at, lang).value];
  const push = (line: string | null) => void (line !== null && line.trim() && out.push(line));
  switch (kind) {
    case 'pipe': {
      // `print "rm -rf ~" | "sh"`: a shell at the pipe's end runs the text printed into it
      const printed =
        str(v[0]) !== null && /^\s*(?:\S*\/)?(?:ba|da|z|k)?sh(?:\s+-s)?\s*$/.test(str(v[0])!)
          ? /\bprintf?\s*\(?\s*"((?:\\.|[^"\\])*)"\s*\)?\s*\|&?\s*$/.exec(src.slice(0, at))
          : null;
      if (printed) push(shellLine(printed[1]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c))));
      return push(str(v[0]) !== null ? shellLine(str(v[0])!) : list(v[0]) && argvLine(list(v[0])!));
    }
    case 'line':
      return push(str(v[0]) !== null ? shellLine(str(v[0])!) : list(v[0]) && argvLine(list(v[0])!));
    case 'system': {
      // ruby `system({"A" => "1"}, "cmd")`: an environment first
      const args = v[0] && 'raw' in v[0] ? v.slice(1) : v;
      return push(list(args[0]) ? argvLine(list(args[0])!) : lineOrArgv(leading(args)));
    }
    case 'spawn':
      return push(str(v[0]) !== null ? argvLine([str(v[0])!, ...(list(v[1]) ?? [])]) : null);
    case 'spawnv':
    case 'execv':
      return push(execv(kind === 'spawnv' ? v.slice(1) : v));
    case 'spawnl':
    case 'execl':
      return push(execl(kind === 'spawnl' ? v.slice(1) : v));
    case 'rmtree':
      for (const a of v) for (const p of paths(a)) push(`rm -rf ${quoteArg(p)}`);
      return;
    case 'rm-opt':
    case 'rmdir-opt':
      for (const p of paths(v[0])) push(recursive(v[1]) ? `rm -rf ${quoteArg(p)}` : kind === 'rm-opt' ? `rm -f ${quoteArg(p)}` : `rmdir ${quoteArg(p)}`);
      return;
    case 'rm-kw': {
      const flags = recursiveKeyword(src.slice(at, read!.end)) ? 'rm -rf' : 'rm -f';
      for (const p of paths(v[0])) push(`${flags} ${quoteArg(lang === 'r' ? expandTilde(p) : p)}`);
      return;
    }
    case 'unlink':
    case 'rmdir':
      for (const a of v) for (const p of paths(a)) push(`${kind === 'unlink' ? 'rm -f' : 'rmdir'} ${quoteArg(lang === 'r' ? expandTilde(p) : p)}`);
      return;
    case 'move':
    case 'copy': {
      const [from, to] = [str(v[0]), str(v[1])];
      return push(from && to ? argvLine(kind === 'move' ? ['mv', from, to] : ['cp', '-r', from, to]) : null);
    }
    case 'write':
    case 'read':
    case 'open': {
      const p = str(v[0]);
      const writes = kind === 'write' || (kind === 'open' && /[wax+]/.test(str(v[1]) ?? ''));
      return push(p ? (writes ? `: > ${quoteArg(p)}` : `cat ${quoteArg(p)}`) : null);
    }
    case 'perl-open':
      return push(perlOpen(v));
    case 'cmd-object': {
      const argv = list(v[0]) ?? listIn(v[0], 'cmd');
      return push(argv && argv.length ? argvLine(argv) : null);
    }
    case 'deno-command':
      return push(str(v[0]) !== null ? argvLine([str(v[0])!, ...(listIn(v[1], 'args') ?? [])]) : null);
    case 'code':
      if (str(v[0]) !== null && depth < MAX_DEPTH) scan(str(v[0])!, lang, depth + 1, out);
      return;
  }
}

/** `os.execvp(file, [argv0, ...args])`: the file run with the arguments after argv[0]. */
function execv(v: Value[]): string | null {
  const path = str(v[0]);
  return path !== null ? argvLine([path, ...(list(v[1]) ?? []).slice(1)]) : null;
}

/** `os.execlp(file, argv0, arg1, ...)`. */
function execl(v: Value[]): string | null {
  const strs = leading(v);
  return strs.length ? argvLine([strs[0]!, ...strs.slice(2)]) : null;
}

/** perl `open(FH, "cmd |")`, `open(my $fh, '-|', 'cmd', @args)`, `open(FH, '>', $path)`: a command, a write or a read. */
function perlOpen(v: Value[]): string | null {
  const mode = str(v[1]);
  if (mode === null) return null;
  if (v.length === 2) {
    const pipe = /^\s*\|\s*([\s\S]*)$|^([\s\S]*?)\s*\|\s*$/.exec(mode);
    if (pipe) return shellLine(pipe[1] ?? pipe[2]!);
    const m = /^\s*(\+?[<>]{0,2})\s*([\s\S]*)$/.exec(mode)!;
    return m[2] ? (m[1]!.includes('>') || m[1]!.startsWith('+') ? `: > ${quoteArg(m[2])}` : `cat ${quoteArg(m[2])}`) : null;
  }
  if (/^\s*(?:-\||\|-)\s*$/.test(mode)) return lineOrArgv(leading(v.slice(2)));
  const p = str(v[2]);
  if (!p) return null;
  return /[>+]/.test(mode) ? `: > ${quoteArg(p)}` : `cat ${quoteArg(p)}`;
}

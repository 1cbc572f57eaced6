import { isSecretName } from '../../model/sandbox.ts';
import type { Invocation } from '../command.ts';
import { sedCommands } from '../sed-script.ts';
import type { Word } from '../shell.ts';
import { inlineCode, inlineCodeParts, languageOf, phpCode, readsProgramFromStdin, scriptFileAt } from './interpreter-argv.ts';
import { commandLines } from './interpreter-calls.ts';
import { downloadRun, environmentSent } from './interpreter-network.ts';
import { printedByCode } from './interpreter-prints.ts';

/**
 * The interpreter family (docs/safety.md): the shell commands an interpreter one-liner would run
 * (its shell-outs, and its recursive deletes as `rm -rf <path>`), to be checked like any other.
 *
 * Heuristic by nature: the code passed inline (`python -c`, `node -e`/`-p`, `bun -e`, `deno eval`,
 * `perl -e`, `ruby -e`, `php -r`, `lua -e`, an awk program, `osascript -e`; interpreter-argv.ts)
 * is scanned for the calls that run commands or delete, write or read files
 * (interpreter-calls.ts), and only their literal arguments are read (interpreter-values.ts): a
 * call whose command or path is a variable, a computed string or an interpolation is not seen.
 * A program read from stdin is read when the command line gives it as a heredoc or here-string
 * (`python3 - <<'PY'`, `node <<'JS'`, `php <<'PHP'`); scripts in files, stdin fed by a pipe and
 * `python -m` are not. Inline code that reads the environment (or a secret variable) and calls a
 * network API is read as the shell line that sends it, and code that fetches and evaluates what it
 * fetched as a download piped into a shell (interpreter-network.ts).
 */
export function interpreterScripts(inv: Invocation): string[] {
  // sed's `e COMMAND` and `s///e` run shell commands (sed-script.ts)
  if (inv.program === 'sed') return sedCommands(inv);
  const lang = languageOf(inv.program);
  if (!lang) return [];
  const args = inv.args.map((w) => w.value);
  const inline = inlineCode(inv.program, lang, args);
  const code = inline ?? stdinCode(inv, lang, args);
  if (!code) return [];
  const lines = commandLines(code, lang);
  // the environment read and sent off by the same code (interpreter-network.ts): inline code only
  const sent = inline !== null && environmentSent(inv, inline, lang);
  // code that fetches and runs what it fetched: `curl URL | sh` (interpreter-network.ts)
  const run = downloadRun(code, lang);
  return [...lines, ...(sent ? [sent] : []), ...(run ? [run] : [])];
}

/**
 * What an interpreter one-liner prints, where its inline code prints literals only
 * (interpreter-prints.ts): `python3 -c 'print(base64.b64decode("…").decode())' | sh` feeds the
 * shell that text. Null for any other program or code.
 */
export function interpreterPrints(inv: Invocation): string | null {
  const lang = languageOf(inv.program);
  if (!lang) return null;
  const code = inlineCode(
    inv.program,
    lang,
    inv.args.map((w) => w.value),
  );
  return code === null ? null : printedByCode(code, lang);
}

/** The program the interpreter reads from a heredoc or here-string, when it reads one from stdin. */
function stdinCode(inv: Invocation, lang: NonNullable<ReturnType<typeof languageOf>>, args: string[]): string | null {
  let text: string | null = null;
  for (const r of inv.command.redirects) if (r.input !== null && r.input !== '') text = r.input;
  if (text === null || !readsProgramFromStdin(inv.program, lang, args)) return null;
  // php echoes what stands outside its tags
  return lang === 'php' ? phpCode(text) || null : text;
}

/**
 * The arguments of an interpreter that hold its inline code (`python3 -c CODE`, `node -e CODE`):
 * code, not a path it opens — what it reads is read from its calls (`open(".env")`) above, as a
 * shell's `-c` string is read as commands.
 */
export function inlineCodeWords(inv: Invocation): ReadonlySet<Word> {
  const lang = languageOf(inv.program);
  if (!lang) return NONE;
  return new Set(
    inlineCodeParts(
      inv.program,
      lang,
      inv.args.map((w) => w.value),
    ).map((p) => inv.args[p.at]!),
  );
}

const NONE: ReadonlySet<Word> = new Set();

/**
 * The words that hold the program an interpreter runs: its inline code and the script it names
 * (`python3 -c "$(curl …)"`, `perl -e "$(wget -qO- …)"`, `python3 <(curl …)`), for a substitution
 * in them to be read as a shell's script is (`sh -c "$(curl …)"`, `bash <(curl …)`).
 */
export function programWords(inv: Invocation): Word[] {
  const lang = languageOf(inv.program);
  if (!lang) return [];
  const args = inv.args.map((w) => w.value);
  const at = scriptFileAt(inv.program, lang, args);
  return [...inlineCodeWords(inv), ...(at >= 0 ? [inv.args[at]!] : [])];
}

/** A string literal in code: quoted with `'`, `"` or a backtick (a Python prefix such as `f` or `r` before it), escapes inside. */
const STRING_LITERAL = /(["'`])((?:\\.|(?!\1)[^\\\n])*)\1/g;
/**
 * What stands just before a literal that is only printed or whose existence is asked: the opening
 * of print, console.log, echo, puts, say, printf (`print(`, `puts `, awk's `print `), of
 * existsSync, os.path.exists, isfile, File.exist? (nothing of the content comes out).
 */
const PRINTED =
  /(?:(?:^|[^\w.$])(?:print|println|printf|puts|say|echo|console\.(?:log|error|warn|info))\s*\(?|(?:existsSync|exists|isfile|is_file|exist\?|accessSync)\s*\()\s*[fFrRuUbB]{0,2}$/;

/**
 * The string literals of inline code that name a secret file by its last part (`"./.env.local"`,
 * `'id_ed25519'`): a call reading it may be one the call reader does not know (`Path(…).read_text()`,
 * `dotenv_values(…)`, `process.loadEnvFile(…)`, awk's `getline <`, a rename), so each is taken
 * as read — unless the code only prints it (`print("config/.env.local")`, `console.log('.env.local')`),
 * or a call the family reads takes it (interpreterScripts: that command is judged as it is).
 */
export function secretLiterals(inv: Invocation, code: string): string[] {
  if (code.length > 64 * 1024) return [];
  const out: string[] = [];
  let seen: string | undefined;
  for (const m of code.matchAll(STRING_LITERAL)) {
    const text = m[2]!;
    const name = text.slice(text.lastIndexOf('/') + 1);
    if (!name || !isSecretName(name)) continue;
    if (PRINTED.test(code.slice(Math.max(0, m.index - 40), m.index))) continue;
    seen ??= interpreterScripts(inv).join('\n');
    if (!seen.includes(name)) out.push(text);
  }
  return out;
}

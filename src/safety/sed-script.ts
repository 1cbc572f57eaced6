import type { Invocation } from './command.ts';
import { type Access, type PathUse, use } from './path-access.ts';
import type { Word } from './syntax.ts';

/**
 * What GNU sed does to the paths it names, for path-uses.ts: its input files read (edited with
 * `-i`), a script file (`-f`) read, and the files its script names — `w FILE`, `W FILE` and the
 * `w FILE` flag of `s` written (created or emptied when sed starts, with `-i` or without), `r FILE`
 * and `R FILE` read into the output. The script itself is no path. And the shell commands its
 * script runs, for the interpreter family: `e COMMAND`, and the replacement of `s///e`, which the
 * shell runs in place of the line. `--sandbox` refuses them all.
 */

/** sed's options that take the next word (`-e SCRIPT`, `-f FILE`, `-l N`), short and long. */
const SED_VALUED_SHORT = 'efl';
const SED_VALUED_LONG = new Set(['--expression', '--file', '--line-length']);
/** The files sed's `w` writes to that are its own output streams, no file. */
const STREAMS = new Set(['/dev/stdout', '/dev/stderr']);

/** The paths `sed ARGS` uses: see the module comment. */
export function sed(inv: Invocation): PathUse[] {
  const line = sedLine(inv.args);
  const access: Access = line.inPlace ? 'edit' : 'read';
  const out = [...line.scriptFiles.map((w) => use(w, w.value, 'read')), ...line.inputs.map((w) => use(w, w.value, access))];
  if (line.sandbox) return out;
  for (const w of line.scripts) for (const f of readScript(w.value).files) if (!STREAMS.has(f.path)) out.push(use(w, f.path, f.writes ? 'write' : 'read'));
  return out;
}

/**
 * The shell commands `sed ARGS` runs: its scripts' `e COMMAND` and `s///e` replacements, and for a
 * bare `e` the lines it reads when the command line tells them — a here-string, a heredoc, the
 * text a static stage pipes in (`echo 'rm -rf ~' | sed e`: command-checks.ts hands it on as a
 * here-string); none under `--sandbox`.
 */
export function sedCommands(inv: Invocation): string[] {
  const line = sedLine(inv.args);
  if (line.sandbox) return [];
  const read = line.scripts.map((w) => readScript(w.value));
  const fed = line.inputs.length ? null : inv.command.redirects.find((r) => r.input !== null)?.input;
  const lines = fed && read.some((r) => r.runsLine) ? [fed] : [];
  return [...read.flatMap((r) => r.commands), ...lines];
}

/** A sed command line: its scripts (`-e`, `--expression`, else the first operand), script files (`-f`), input files, `-i`, `--sandbox`. */
export interface SedLine {
  scripts: Word[];
  scriptFiles: Word[];
  inputs: Word[];
  inPlace: boolean;
  sandbox: boolean;
}

export function sedLine(a: readonly Word[]): SedLine {
  const scripts: Word[] = [];
  const scriptFiles: Word[] = [];
  const operands: Word[] = [];
  let inPlace = false;
  let sandbox = false;
  for (let i = 0; i < a.length; i++) {
    const w = a[i]!;
    const v = w.value;
    if (v === '--') {
      operands.push(...a.slice(i + 1));
      break;
    }
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const name = eq < 0 ? v : v.slice(0, eq);
      const value = eq < 0 ? a[i + 1] : { ...w, value: v.slice(eq + 1) };
      if (name.startsWith('--in-place')) inPlace = true;
      else if (name === '--sandbox') sandbox = true;
      else if (SED_VALUED_LONG.has(name)) {
        if (eq < 0) i++;
        if (value && name === '--expression') scripts.push(value);
        else if (value && name === '--file') scriptFiles.push(value);
      }
      continue;
    }
    if (!v.startsWith('-') || v === '-') {
      operands.push(w);
      continue;
    }
    // a cluster: `-i` takes the rest as its suffix, `-e`/`-f`/`-l` the rest or the next word as their value
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      if (c === 'i') {
        inPlace = true;
        break;
      }
      if (SED_VALUED_SHORT.includes(c)) {
        const value = k < v.length - 1 ? { ...w, value: v.slice(k + 1) } : a[++i];
        if (value && c === 'e') scripts.push(value);
        else if (value && c === 'f') scriptFiles.push(value);
        break;
      }
    }
  }
  // without -e or -f the first operand is the script
  if (!scripts.length && !scriptFiles.length && operands.length) scripts.push(operands.shift()!);
  return { scripts, scriptFiles, inputs: operands.filter((w) => w.value !== '-'), inPlace, sandbox };
}

/** A file a sed script names: written (`w`, `W`, `s///w`) or read (`r`, `R`). */
interface ScriptFile {
  path: string;
  writes: boolean;
}

/** Commands that take no argument, or a number (`q5`, `l 40`): nothing to skip but the command letter. */
const SIMPLE = new Set([...'=dDgGhHlLnNpPqQxzF']);

/**
 * The files a sed script names and the shell commands it runs, and whether a bare `e` runs the line read (GNU sed's grammar): each command
 * after its address (`1`, `$`, `/re/`, `\%re%`, `a,b`, `first~step`, `!`), read to its end — a
 * file name, a command or a text runs to the end of its line, a label to `;` or the line's end,
 * `s` and `y` to their last delimiter and `s`'s flags. What cannot be read stops the reading (sed
 * would refuse the script).
 */
function readScript(script: string): { files: ScriptFile[]; commands: string[]; runsLine: boolean } {
  const out: ScriptFile[] = [];
  const commands: string[] = [];
  const read = { files: out, commands, runsLine: false };
  let i = 0;
  const restOfLine = (from: number) => {
    const end = script.indexOf('\n', from);
    const text = script.slice(from, end < 0 ? script.length : end);
    i = end < 0 ? script.length : end + 1;
    return text;
  };
  /** Past a delimited part (`/re/`, `s`'s pattern and replacement) starting after its delimiter: the index after its closing one. */
  const delimited = (from: number, d: string) => {
    for (let k = from; k < script.length; k++) {
      if (script[k] === '\\') k++;
      else if (script[k] === d) return k + 1;
      else if (script[k] === '\n' && d !== '\n') return -1;
    }
    return -1;
  };
  while (i < script.length) {
    const c = script[i]!;
    if (/[\s;{}!]/.test(c)) {
      i++;
      continue;
    }
    // an address: a line number, `$`, `/re/` or `\cREc`, with its flags, a range or a step
    if (/[0-9$/\\,~+]/.test(c)) {
      if (c === '/' || c === '\\') {
        const d = c === '/' ? '/' : script[i + 1];
        const end = d === undefined ? -1 : delimited(c === '/' ? i + 1 : i + 2, d);
        if (end < 0) return read;
        i = end;
        while (script[i] === 'I' || script[i] === 'M') i++;
      } else i++;
      continue;
    }
    if (c === '#') {
      restOfLine(i + 1);
      continue;
    }
    // `e COMMAND` runs it; a bare `e` runs the line read (sedCommands: where the command line tells it)
    if (c === 'e') {
      const command = restOfLine(i + 1).trim();
      if (command) commands.push(command);
      else read.runsLine = true;
      continue;
    }
    // `a text`, `i\` and lines of text, each but the last ending in a backslash
    if (c === 'a' || c === 'i' || c === 'c') {
      let line = restOfLine(i + 1);
      while (line.endsWith('\\') && i < script.length) line = restOfLine(i);
      continue;
    }
    if (c === ':' || c === 'b' || c === 't' || c === 'T' || c === 'v') {
      const m = /^[^;\n}]*/.exec(script.slice(i + 1))!;
      i += 1 + m[0].length;
      continue;
    }
    if (c === 'r' || c === 'R' || c === 'w' || c === 'W') {
      const path = restOfLine(i + 1).trim();
      if (path) out.push({ path, writes: c === 'w' || c === 'W' });
      continue;
    }
    if (c === 's' || c === 'y') {
      const d = script[i + 1];
      if (d === undefined || d === '\n' || d === '\\') return read;
      const middle = delimited(i + 2, d);
      const end = middle < 0 ? -1 : delimited(middle, d);
      if (end < 0) return read;
      i = end;
      if (c === 's') {
        // the flags: g, p, i/I, m/M, e (the line made is run), a number; `w FILE` runs to the end of the line
        const flags = /^[gpiImMe0-9]*/.exec(script.slice(i))![0];
        i += flags.length;
        if (flags.includes('e')) commands.push(script.slice(middle, end - 1).replace(/\\(.)/gs, '$1'));
        if (script[i] === 'w') {
          const path = restOfLine(i + 1).trim();
          if (path) out.push({ path, writes: true });
        }
      }
      continue;
    }
    if (SIMPLE.has(c)) {
      i++;
      continue;
    }
    // a command sed does not know: it refuses the whole script
    return read;
  }
  return read;
}

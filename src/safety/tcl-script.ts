import { shellQuote } from '../model/shell-quote.ts';
import { argvLine } from './argv-line.ts';

/**
 * What a Tcl script (`expect -c '…'`, an expect or tclsh script read on stdin) starts, as shell
 * command lines: each command whose first word is `exec`, `spawn` (an argv, words kept as words)
 * or `system` (its words joined, for `/bin/sh`), `open "|cmd …"` (a pipeline), `file delete [-force]`
 * (as `rm -f`, `rm -rf`; `$env(HOME)` is the home folder), and the lines `send`
 * types into what was spawned (a shell, as tmux's `send-keys` types into a pane's) — wherever it
 * stands as a command: a line's or a `;`'s start, inside `[…]`, inside a braced body (`if 1
 * {exec …}`, `proc`, `expect { … }`), after `eval`, `uplevel` or `after ms`. As for an
 * interpreter's inline code, what is not a literal is not seen: an argv is read up to its first
 * word holding a substitution (`$x`, `[…]`).
 */

/** One Tcl word: its text as Tcl gives it (braces and quotes taken off), whether it holds a substitution, and the scripts nested in it (`[…]`, a braced body). */
interface TclWord {
  value: string;
  literal: boolean;
  nested: string[];
}

/** Past this depth of nested scripts the rest is not read (a script that deep is no one's expect script). */
const MAX_DEPTH = 16;

/** The shell command lines a Tcl script starts (see the module's comment). */
export function tclCommandLines(script: string, depth = 0): string[] {
  if (depth > MAX_DEPTH) return [];
  const out: string[] = [];
  for (const words of tclCommands(script)) {
    for (const w of words) for (const body of w.nested) out.push(...tclCommandLines(body, depth + 1));
    out.push(...commandLines(words, depth));
  }
  return out;
}

/** The shell lines one Tcl command starts by its first word. */
function commandLines(words: TclWord[], depth: number): string[] {
  const name = words[0]?.value;
  const rest = words.slice(1);
  switch (name) {
    case 'exec':
      return execLine(skipSwitches(rest, []));
    case 'spawn':
      return execLine(skipSwitches(rest, ['-ignore', '-open', '-leaveopen']));
    case 'system': {
      const known = literalPrefix(rest);
      return known.length ? [known.map((w) => w.value).join(' ')] : [];
    }
    // `send "cmd\r"`: text typed into what expect spawned, a shell's line where that is a shell (as tmux send-keys)
    case 'send':
    case 'exp_send': {
      const text = skipSwitches(rest, ['-i'])[0];
      return text?.literal ? text.value.split(/[\r\n]/).filter((line) => line.trim()) : [];
    }
    case 'open': {
      const file = rest[0];
      return file?.literal && file.value.startsWith('|') ? execLine(tclCommands(file.value.slice(1)).flat()) : [];
    }
    // `file delete -force $env(HOME)`: `rm -rf` (`-force` removes a folder that holds anything), `rm -f` without
    case 'file':
      return rest[0]?.value === 'delete' ? fileDelete(rest.slice(1)) : [];
    // a script made of the words (`eval exec …`, `uplevel #0 {…}`, `after 10 exec …`)
    case 'eval':
    case 'uplevel':
    case 'after': {
      const from = name === 'eval' ? 0 : /^(#?\d+|idle)$/.test(rest[0]?.value ?? '') ? 1 : 0;
      const known = literalPrefix(rest.slice(from));
      return known.length ? tclCommandLines(known.map((w) => w.value).join(' '), depth + 1) : [];
    }
  }
  return [];
}

/** The home folder as a Tcl script names it (`$env(HOME)`, `$::env(HOME)`, `~`), with what follows it. */
const TCL_HOME = /^(?:\$(?:::)?env\(HOME\)|~)(\/.*)?$/s;

/** `file delete [-force] [--] PATH…` as the `rm` it amounts to; a path holding another substitution is not read. */
function fileDelete(words: TclWord[]): string[] {
  const force = words.some((w) => w.value === '-force');
  const paths = skipSwitches(words, []).map((w) => {
    const home = TCL_HOME.exec(w.value);
    if (home) return `~${home[1] ? `/${shellQuote(home[1].slice(1))}` : ''}`;
    return w.literal ? shellQuote(w.value) : null;
  });
  const known = paths.slice(0, (paths.indexOf(null) + 1 || paths.length + 1) - 1) as string[];
  return known.length ? [`rm ${force ? '-rf' : '-f'} -- ${known.join(' ')}`] : [];
}

/** The words after a command's switches (`-ignorestderr`, `-noecho`, `--`), `valued` those that take one. */
function skipSwitches(words: TclWord[], valued: string[]): TclWord[] {
  let i = 0;
  while (i < words.length && words[i]!.value.startsWith('-')) {
    if (words[i]!.value === '--') return words.slice(i + 1);
    i += valued.includes(words[i]!.value) ? 2 : 1;
  }
  return words.slice(i);
}

/** The words up to the first that holds a substitution: what the command line tells. */
function literalPrefix(words: TclWord[]): TclWord[] {
  const at = words.findIndex((w) => !w.literal);
  return at < 0 ? words : words.slice(0, at);
}

/**
 * An argv as a shell line (argv-line.ts), exec's pipe and redirection words kept as the shell's
 * (`|`, `>`, `2>`, `<`, `&`).
 */
function execLine(words: TclWord[]): string[] {
  const known = literalPrefix(words);
  if (!known.length) return [];
  return [
    known
      .map(({ value }) => {
        if (/^(\|&?|&|2>@1|[0-9]?(>>?|<<?)&?)$/.test(value)) return value;
        const redirect = /^([0-9]?(?:>>?|<<?)&?)(.+)$/s.exec(value);
        if (redirect) return `${redirect[1]} ${shellQuote(redirect[2]!)}`;
        return argvLine([value]);
      })
      .join(' '),
  ];
}

/** A Tcl script's commands, each its words (comments skipped). */
function tclCommands(script: string): TclWord[][] {
  const out: TclWord[][] = [];
  let words: TclWord[] = [];
  let i = 0;
  while (i < script.length) {
    const c = script[i]!;
    if (c === '\n' || c === ';') {
      if (words.length) out.push(words);
      words = [];
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r') i++;
    else if (c === '\\' && script[i + 1] === '\n') i += 2;
    else if (c === '#' && !words.length) {
      while (i < script.length && script[i] !== '\n') i += script[i] === '\\' ? 2 : 1;
    } else {
      const [word, end] = readWord(script, i);
      words.push(word);
      i = end;
    }
  }
  if (words.length) out.push(words);
  return out;
}

/** The word that starts at `i`, and where it ends. */
function readWord(script: string, i: number): [TclWord, number] {
  if (script[i] === '{') {
    const end = closing(script, i, '{', '}');
    const body = script.slice(i + 1, end);
    // a braced word is taken as it is; it may be a body that runs (`if 1 {exec …}`)
    return [{ value: body, literal: true, nested: [body] }, end + 1];
  }
  const quoted = script[i] === '"';
  let j = quoted ? i + 1 : i;
  let value = '';
  let literal = true;
  const nested: string[] = [];
  while (j < script.length) {
    const c = script[j]!;
    if (quoted ? c === '"' : /[\s;]/.test(c)) break;
    if (c === '\\' && j + 1 < script.length) {
      const n = script[j + 1]!;
      value += n === 'n' ? '\n' : n === 'r' ? '\r' : n === 't' ? '\t' : n;
      j += 2;
    } else if (c === '[') {
      const end = closing(script, j, '[', ']');
      nested.push(script.slice(j + 1, end));
      literal = false;
      value += script.slice(j, end + 1);
      j = end + 1;
    } else {
      if (c === '$') literal = false;
      value += c;
      j++;
    }
  }
  return [{ value, literal, nested }, quoted ? j + 1 : j];
}

/** Where the bracket opened at `i` closes (nested ones counted, backslashes skipped), else the script's end. */
function closing(script: string, i: number, open: string, close: string): number {
  let depth = 0;
  for (let j = i; j < script.length; j++) {
    const c = script[j];
    if (c === '\\') j++;
    else if (c === open) depth++;
    else if (c === close && --depth === 0) return j;
  }
  return script.length;
}

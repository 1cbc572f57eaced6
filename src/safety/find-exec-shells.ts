import { shellQuote } from '../model/shell-quote.ts';
import { programName } from './argv.ts';
import { SHELLS } from './command.ts';
import { parseShell } from './shell.ts';
import { plainWord, type Script, type SimpleCommand, type Word } from './syntax.ts';

/**
 * A shell that find's `-exec` starts to run one command on the names it hands on (docs/safety.md,
 * "Removal"): `find . -name build -exec sh -c 'rm -rf "$1"' _ {} \;` runs `rm -rf <what find
 * names>`, as `-exec rm -rf {} \;` does — the shell's `$1` (`$0`, `"$@"`) is find's `{}`. Such an
 * `-exec` is read as the command its script is, with the words bound, so every rule on `find
 * -exec` (what it removes, reads or moves, where it starts) judges it. Only a script of one simple
 * command whose words are all known once the positional parameters are put in (no other variable,
 * `~`, substitution, redirection); any other script is judged as before (`$1` unknown: `rm -rf
 * "$d"` in a loop is denied as `rm -rf "$DIR"` is).
 */

const EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** `script` with each find's `-exec SHELL -c 'one command' NAME {}` read as that command (see the module comment). */
export function findExecShells(script: Script): Script {
  let changed = false;
  const commands = script.commands.map((c) => {
    const words = execShellsAsCommands(c);
    if (words === c.words) return c;
    changed = true;
    return { ...c, words };
  });
  return changed ? { ...script, commands } : script;
}

function execShellsAsCommands(c: SimpleCommand): Word[] {
  const words = c.words;
  const find = words.findIndex((w) => programName(w.value) === 'find');
  if (find < 0 || !words.some((w) => EXEC.has(w.value))) return words;
  const out: Word[] = words.slice(0, find + 1);
  for (let i = find + 1; i < words.length; i++) {
    out.push(words[i]!);
    if (!EXEC.has(words[i]!.value)) continue;
    const end = words.findIndex((x, k) => k > i && (x.value === ';' || x.value === '+'));
    const segment = words.slice(i + 1, end < 0 ? undefined : end);
    const command = shellCommandOf(segment.map((w) => w.value));
    out.push(...(command ? command.map(wordOf) : segment));
    i = end < 0 ? words.length : end - 1;
  }
  return out;
}

const wordOf = (value: string): Word => ({ ...plainWord(value), raw: shellQuote(value) });

/** A positional parameter in a script: `$1`, `${1}`, `"$@"`, `$*`, quoted or not. */
const POSITIONAL = /"\$\{?([0-9@*])\}?"|\$\{?([0-9@*])\}?/g;

/** The words of the one command `SHELL -c SCRIPT NAME ARGS…` runs when ARGS hold find's `{}`; null for any other segment. */
function shellCommandOf(segment: readonly string[]): string[] | null {
  if (!SHELLS.has(programName(segment[0] ?? ''))) return null;
  const c = segment.findIndex((v, k) => k > 0 && /^-[A-Za-z]*c[A-Za-z]*$/.test(v));
  const body = c < 0 ? undefined : segment[c + 1];
  // only options before -c (`sh -e -c`)
  if (body === undefined || !segment.slice(1, c).every((v) => /^-[A-Za-z]+$/.test(v))) return null;
  const bound = segment.slice(c + 2);
  if (!bound.some((v) => v.includes('{}'))) return null;
  let known = true;
  const script = body.replace(POSITIONAL, (_m, quoted: string | undefined, bare: string | undefined) => {
    const p = (quoted ?? bare)!;
    if (p === '@' || p === '*') return bound.slice(1).map(shellQuote).join(' ');
    const value = bound[Number(p)];
    if (value === undefined) known = false;
    return shellQuote(value ?? '');
  });
  // another variable, `~`, a substitution or an escape: the script's words are not all known here
  if (!known || /[$~`\\]/.test(script)) return null;
  const parsed = parseShell(script, { home: '/' });
  const only = parsed.commands[0];
  if (parsed.tooDeep || parsed.commands.length !== 1 || !only || only.redirects.length) return null;
  return only.words.map((w) => w.value);
}

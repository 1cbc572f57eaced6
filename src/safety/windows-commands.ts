import { shellQuote } from '../model/shell-quote.ts';
import type { Invocation } from './command.ts';
import { windowsPath } from './windows-paths.ts';

/**
 * Windows' commands read as the POSIX commands they amount to (docs/safety.md, "Windows'
 * commands"), so that the removal, system and permission rules judge them as written out:
 * `type` as `cat` of its files, `robocopy S D /MIR` (`/PURGE`) as `rsync -a --delete S/ D/`, `rd /s` (`rmdir /s`) as `rm -rf`, `del /s` (`erase`) as `rm -rf` of its patterns, `takeown /f P
 * /r` as `chown -R` of P, `icacls P /grant … /t` (also `/deny`, `/remove`, `/reset`, `/setowner`)
 * as `chmod -R` of P; and the command line cmd.exe is handed (`cmd /c …`, `cmd.exe /k "…"`), its
 * commands joined by `&`, `&&`, `||`, `|`, each other command as its words. Their paths are read by windows-paths.ts
 * (`C:\Users\u`, `%USERPROFILE%\Documents\*`). The text is taken as written (a backslash is a
 * folder's separator there, not bash's escape). Listings (`dir`, `icacls P` alone) read nothing
 * more than they show, and a `del` of one file without `/s` is the `rm` of that file.
 */

/** cmd.exe's program names. */
const CMD = /^cmd(?:\.exe)?$/i;

/** The POSIX command line a Windows command amounts to, or null for any other command. */
export function windowsReading(inv: Invocation, home: string): string | null {
  const words = inv.args.map((w) => unquote(w.raw));
  if (CMD.test(inv.program)) {
    const at = words.findIndex((w) => /^\/[ck]$/i.test(w));
    if (at < 0) return null;
    // each command as the POSIX one it amounts to, another one as its words (`cmd /c git push -f`)
    const lines = splitCommands(words.slice(at + 1).join(' ')).map((c) => translate(c, home, true) ?? c.map(shellQuote).join(' '));
    return lines.length ? lines.join('\n') : null;
  }
  return translate([inv.program, ...words], home);
}

/** One cmd.exe command's words as a POSIX command line (`inCmd`: handed to cmd.exe), or null where it is none of the commands read. */
function translate(words: readonly string[], home: string, inCmd = false): string | null {
  const [head, ...rest] = words;
  if (!head) return null;
  const name = head.toLowerCase().replace(/\.exe$/, '');
  const switches = rest.filter((w) => /^\/[A-Za-z]/.test(w) && !windowsPath(w, home)?.includes('/', 1)).map((w) => w.toLowerCase());
  const has = (...s: string[]) => switches.some((w) => s.some((x) => w === x || w.startsWith(`${x}:`)));
  const operands = rest.filter((w) => !switches.includes(w.toLowerCase()));
  const paths = (list: readonly string[]) => list.map((w) => posixWord(windowsPath(w, home) ?? w)).join(' ');
  switch (name) {
    case 'rd':
    case 'rmdir':
      return has('/s') && operands.length ? `rm -rf -- ${paths(operands)}` : null;
    case 'del':
    case 'erase':
      return operands.length && switches.length ? `rm ${has('/s') ? '-rf' : '-f'} -- ${paths(operands)}` : null;
    case 'type':
      // bash's own `type` names a command; cmd.exe's prints files
      return inCmd && operands.length ? `cat -- ${paths(operands)}` : null;
    case 'takeown': {
      const file = valueOf(rest, '/f');
      return file ? `chown ${has('/r') ? '-R ' : ''}user -- ${paths([file])}` : null;
    }
    case 'icacls': {
      const target = rest[0];
      if (!target || !has('/grant', '/deny', '/remove', '/reset', '/setowner', '/inheritance')) return null;
      return `chmod ${has('/t') ? '-R ' : ''}a+rwX -- ${paths([target])}`;
    }
    case 'robocopy': {
      // `/MIR` and `/PURGE` delete from the destination what the source does not hold, as `rsync --delete`
      const [from, to] = operands;
      return from && to && has('/mir', '/purge') ? `rsync -a --delete -- ${paths([from])}/ ${paths([to])}/` : null;
    }
    default:
      return null;
  }
}

/** The word after a switch (`/f PATH`), any case. */
function valueOf(words: readonly string[], name: string): string | undefined {
  const at = words.findIndex((w) => w.toLowerCase() === name);
  return at < 0 ? undefined : words[at + 1];
}

/** A command line of cmd.exe split into its commands' words: at `&`, `&&`, `||`, `|` outside double quotes; quotes removed. */
function splitCommands(line: string): string[][] {
  const out: string[][] = [[]];
  let word = '';
  let quoted = false;
  let inWord = false;
  const end = () => {
    if (inWord) out.at(-1)!.push(word);
    word = '';
    inWord = false;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"') {
      quoted = !quoted;
      inWord = true;
    } else if (!quoted && (c === '&' || c === '|')) {
      end();
      if (line[i + 1] === c) i++;
      out.push([]);
    } else if (!quoted && /\s/.test(c)) end();
    else {
      word += c;
      inWord = true;
    }
  }
  end();
  return out.filter((c) => c.length);
}

/** A word as written, its outer quotes removed (a backslash kept: a Windows path's separator). */
/** A word as Windows reads it: as written, but its outer quotes (a backslash is no escape there). */
export function unquote(raw: string): string {
  return /^(['"]).*\1$/s.test(raw) ? raw.slice(1, -1) : raw;
}

/** A path as a POSIX shell word: its characters escaped but the glob's and a leading `~`'s. */
export function posixWord(path: string): string {
  const tilde = path === '~' || path.startsWith('~/') ? '~' : '';
  return tilde + path.slice(tilde.length).replace(/[^A-Za-z0-9_\-./*?,:@+=%~]/g, (c) => `\\${c}`);
}

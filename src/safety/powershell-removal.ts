import { shellQuote } from '../model/shell-quote.ts';
import { type Invocation, unwrap } from './command.ts';
import { parseShell, type SimpleCommand } from './shell.ts';
import { plainWord, type Word } from './syntax.ts';
import { posixWord, unquote } from './windows-commands.ts';
import { windowsPath } from './windows-paths.ts';

/**
 * PowerShell's removal cmdlet read as the `rm` it amounts to (docs/safety.md, the removal row):
 * `Remove-Item -Recurse -Force $HOME/Documents`, `ri -r -fo ~`, `Remove-Item -Path ~ -Recurse`
 * as `rm -rf` of the paths — its `-Path` and `-LiteralPath` values (a comma-separated list) and its
 * positional operands — so the removal rules judge them as written out, in the code PowerShell is
 * handed (`pwsh -Command '…'`, powershell.ts; typed in a POSIX shell the cmdlet is no program and
 * runs nothing). Its parameters are
 * matched as PowerShell matches them: any case, any unambiguous start of the name. Without
 * `-Recurse` a folder that holds anything is not removed, and the operands are read as `rm -f`.
 */

/** The cmdlet and its aliases: in PowerShell's code `rm`, `del`, `rd`, `rmdir`, `erase` are Remove-Item too (`rm -r -fo $env:USERPROFILE\src`). */
const NAMES = new Set(['remove-item', 'ri', 'rm', 'del', 'rd', 'rmdir', 'erase']);
/** The cmdlets that list a folder's items onto the pipeline (`Get-ChildItem ~ -Recurse | Remove-Item`), and their aliases. */
const LISTERS = new Set(['get-childitem', 'gci', 'ls', 'dir', 'get-item', 'gi']);
/** Its parameters whose value is a path it removes. */
const PATHS = ['path', 'literalpath'];
/** Its other parameters that take a value: a filter, patterns, a stream, a credential. */
const VALUED = ['filter', 'include', 'exclude', 'stream', 'credential'];

/** Whether `name` (without its dash, lower-cased) is a start of `full` that names it among `all` (`-r` is -Recurse: no other parameter starts so). */
const spells = (name: string, full: string) => name.length > 0 && full.startsWith(name);

/** `Remove-Item …` as `rm -rf -- PATHS` (`rm -f` without -Recurse); null for any other command. */
export function powershellRemoval(inv: Invocation): Invocation | null {
  if (!NAMES.has(inv.program.toLowerCase())) return null;
  const operands: Word[] = [];
  let recurse = false;
  for (let i = 0; i < inv.args.length; i++) {
    const w = inv.args[i]!;
    if (!/^-[A-Za-z]/.test(w.value)) {
      operands.push(...listed(w));
      continue;
    }
    const [given, inline] = w.value.slice(1).toLowerCase().split(':', 2) as [string, string | undefined];
    if (PATHS.some((p) => spells(given, p)) || given === 'lp') {
      if (inline !== undefined) operands.push(...listed({ ...w, value: inline }));
      else if (inv.args[i + 1]) operands.push(...listed(inv.args[++i]!));
    } else if (VALUED.some((p) => spells(given, p)) && inline === undefined) i++;
    else if (spells(given, 'recurse') && inline !== '$false') recurse = true;
  }
  if (!operands.length) return null;
  return { ...inv, program: 'rm', args: [plainWord(recurse ? '-rf' : '-f'), plainWord('--'), ...operands] };
}

/** A word holding PowerShell's list of paths (`a,b`) as one word each. */
function listed(w: Word): Word[] {
  if (!w.value.includes(',')) return [w];
  return w.value
    .split(',')
    .filter(Boolean)
    .map((value) => ({ ...w, value }));
}

/**
 * The `rm` lines the code PowerShell is handed amounts to, one for each `Remove-Item` in it
 * (walk-script.ts walks them); a `Remove-Item` with no path fed by a listing of a folder
 * (`Get-ChildItem $HOME -Recurse | Remove-Item -Recurse`) removes what is in that folder.
 */
export function powershellRemovalLines(code: string, home: string, depth: number): string[] {
  const out: string[] = [];
  const commands = parseShell(code, { home, depth }).commands;
  for (const cmd of commands) {
    const inv = unwrap(cmd).invocation;
    if (!inv) continue;
    const lister =
      cmd.index > 0 && NAMES.has(inv.program.toLowerCase()) ? listedFolder(commands.find((c) => c.pipeline === cmd.pipeline && c.index === 0)) : null;
    const read = powershellRemoval(lister ? { ...inv, args: [...inv.args, lister] } : inv);
    if (!read) continue;
    // each operand as PowerShell reads it (`C:\Users\u`, `$env:APPDATA`, `~\.ssh`: windows-paths.ts), else as written (`~`, `$HOME`, a pattern), or, split from a list, its value
    out.push(`rm ${read.args.map((w) => operand(w, inv.args.includes(w) || w === lister, home)).join(' ')}`);
  }
  return out;
}

/** An operand of the removal as a POSIX word: a Windows path as the path it names, another as written. */
function operand(w: Word, written: boolean, home: string): string {
  const windows = windowsPath(unquote(w.raw), home);
  if (windows !== null) return posixWord(windows);
  return written ? w.raw : shellQuote(w.value);
}

/** The folder a listing cmdlet at the head of a pipeline lists, as a word whose contents are meant (`dir/*`), or null. */
function listedFolder(head: SimpleCommand | undefined): Word | null {
  const inv = head && unwrap(head).invocation;
  if (!inv || !LISTERS.has(inv.program.toLowerCase())) return null;
  const path = inv.args.find((w, i) => !w.raw.startsWith('-') && !/^-(?:filter|include|exclude|depth)$/i.test(inv.args[i - 1]?.raw ?? ''));
  if (!path) return null;
  const raw = unquote(path.raw).replace(/[\\/]$/, '');
  return { ...path, raw: `${raw}\\*`, value: `${path.value.replace(/\/$/, '')}/*` };
}

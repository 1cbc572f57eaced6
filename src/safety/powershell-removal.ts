import { shellQuote } from '../model/shell-quote.ts';
import { type Invocation, unwrap } from './command.ts';
import { parseShell } from './shell.ts';
import { plainWord, type Word } from './syntax.ts';

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

/** The cmdlet and its alias (`rm`, `del`, `rd`, `rmdir`, `erase` are read as the programs of those names). */
const NAMES = new Set(['remove-item', 'ri']);
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

/** The `rm` lines the code PowerShell is handed amounts to, one for each `Remove-Item` in it (walk-script.ts walks them). */
export function powershellRemovalLines(code: string, home: string, depth: number): string[] {
  const out: string[] = [];
  for (const cmd of parseShell(code, { home, depth }).commands) {
    const inv = unwrap(cmd).invocation;
    const read = inv && powershellRemoval(inv);
    if (!read) continue;
    // each operand as written (`~`, `$HOME`, a pattern), or, split from a list, its value
    out.push(`rm ${read.args.map((w) => (inv.args.includes(w) ? w.raw : shellQuote(w.value))).join(' ')}`);
  }
  return out;
}

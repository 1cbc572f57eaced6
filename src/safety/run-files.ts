import { type Invocation, programName, shellBody } from './command.ts';
import { UNKNOWN } from './expand.ts';
import type { Word } from './syntax.ts';

/**
 * Which file a command runs, read from its words (docs/safety.md, "Scripts a line writes, then
 * runs"), for written-scripts.ts: a shell's script file or the one it reads on stdin, the word the
 * program was named by, the folders a `PATH=…` puts first, direnv's folder, the program file `awk
 * -f` and `sed -f` read, and a Windows program's file run by its bare name, cmd.exe's `start` or
 * PowerShell's `-File`.
 */

/** The programs that read their program from a file an option names (`awk -f x.awk`, `sed -f x.sed`), each with how its code is written inline. */
export const PROGRAM_FILES: Record<string, { options: ReadonlySet<string>; inline: string }> = {
  awk: { options: new Set(['-f', '--file']), inline: 'awk' },
  gawk: { options: new Set(['-f', '--file']), inline: 'gawk' },
  mawk: { options: new Set(['-f']), inline: 'mawk' },
  nawk: { options: new Set(['-f']), inline: 'nawk' },
  sed: { options: new Set(['-f', '--file']), inline: 'sed -e' },
  gsed: { options: new Set(['-f', '--file']), inline: 'gsed -e' },
};

/** A Windows program's file, which cmd.exe and PowerShell run from the current folder by its bare name (`p.exe`, `i.ps1`). */
export const WINDOWS_RUNNABLE = /\.(?:exe|com|bat|cmd|ps1|msi)$/i;

/** The file cmd.exe's `start` or PowerShell's `-File` runs (`start p.exe`, `powershell -File i.ps1`), or null. */
export function windowsStarted(program: string, args: readonly Word[]): Word | null {
  const p = program.toLowerCase().replace(/\.exe$/, '');
  if (p === 'start') return args.find((a) => !a.value.startsWith('/') && WINDOWS_RUNNABLE.test(a.value)) ?? null;
  if (p !== 'powershell' && p !== 'pwsh') return null;
  const at = args.findIndex((a) => /^-f(?:ile)?$/i.test(a.value));
  return at >= 0 ? (args[at + 1] ?? null) : null;
}

/** The index of the script file a shell runs (`bash -e x.sh`), or -1: `-c`, `-s`, stdin, or none. As command.ts shellReadsStdin reads the options. */
export function shellFileAt(args: readonly Word[]): number {
  if (shellBody([...args]) !== null) return -1;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '-o' || v === '+o' || v === '-O' || v === '+O' || v === '--rcfile' || v === '--init-file') i++;
    else if (v === '--') return i + 1 < args.length && args[i + 1]!.value !== '-' ? i + 1 : -1;
    else if (v === '-s' || (/^-[A-Za-z]+$/.test(v) && v.includes('s'))) return -1;
    else if (!v.startsWith('-') && !v.startsWith('+')) return v === '/dev/stdin' ? -1 : i;
  }
  return -1;
}

/**
 * The folders the last `PATH=…` among `words` names, where the line tells them (`$PWD/bin` as
 * `./bin`; not `$PATH` itself, nor a folder built from what only the shell knows).
 */
export function pathFolders(words: readonly Word[]): string[] {
  const word = words.findLast((w) => /^PATH\+?=/.test(w.value));
  if (!word) return [];
  const values = word.value.slice(word.value.indexOf('=') + 1).split(':');
  const raws = word.raw
    .slice(word.raw.indexOf('=') + 1)
    .replace(/["']/g, '')
    .split(':');
  return values
    .map((f, i) => (f.startsWith(UNKNOWN) && raws.length === values.length && /^\$\{?PWD\}?\//.test(raws[i]!) ? `.${f.slice(f.indexOf('/'))}` : f))
    .filter((f) => f && !f.includes(UNKNOWN))
    .map((f) => f.replace(/\/+$/, '') || '/');
}

/** The word the program was named by (`./x.sh` of `sudo ./x.sh a`), or null where the peel rebuilt the words. */
export function programWord(inv: Invocation): Word | null {
  const words = inv.command.words;
  const at = inv.args.length ? words.indexOf(inv.args[0]!) - 1 : words.length - 1;
  const word = at >= 0 ? words[at] : undefined;
  return word && programName(word.value) === inv.program ? word : null;
}

/** The folder `direnv exec DIR …` loads the `.envrc` of, among a command's words; null when none is named. */
export function direnvFolder(words: readonly Word[]): string | null {
  const at = words.findIndex((w, i) => w.value.endsWith('direnv') && words[i + 1]?.value === 'exec');
  return at >= 0 ? (words[at + 2]?.value ?? null) : null;
}

/** The file a shell with only options (no script, no `-c`) reads its script from: its stdin's (`sh < x.sh`, `bash -s < x.sh`), else undefined. */
export function stdinScript(inv: Invocation): Word | undefined {
  if (inv.args.some((a) => !a.value.startsWith('-') || /^-[A-Za-z]*c/.test(a.value))) return undefined;
  return inv.command.redirects.find((r) => r.op === '<' && r.target)?.target ?? undefined;
}

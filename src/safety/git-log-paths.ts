import type { Invocation } from './command.ts';
import { generic, type PathUse, use } from './path-access.ts';
import { gitLogWords } from './search-patterns.ts';
import { UNKNOWN } from './shell.ts';
import type { Word } from './syntax.ts';

/**
 * What `git log` does with the paths it names (docs/safety.md, "Credentials and paths spelled
 * another way"): a pathspec (`git log --all --oneline -- .env`) only picks the commits that
 * touched the path, and the log shows their hashes, messages, names and counts (`--stat`,
 * `--name-only`) — nothing of the file's content, as `ls .env` shows none. Where an option makes
 * the log show the changes themselves (`-p`, `--patch`, `-U3`, `-L`, `--word-diff`, `--cc`) or
 * search their text (`-S`, `-G`: whether a secret holds a string), the paths are read as before.
 */

/** Long options that show a change's lines, or search them (git abbreviates a long option to any unambiguous start). */
const CONTENT_LONG = [
  '--patch',
  '--unified',
  '--cc',
  '--dd',
  '--remerge-diff',
  '--binary',
  '--function-context',
  '--patch-with-stat',
  '--patch-with-raw',
  '--word-diff',
  '--word-diff-regex',
  '--color-words',
  '--pickaxe-regex',
  '--pickaxe-all',
];
/** Short options (in a cluster too: `-pS`) that do the same: a patch (`-p`, `-u`, `-c`, `-W`, `-U<n>`), a line range (`-L`), a search of the changes (`-S`, `-G`). */
const CONTENT_SHORT = new Set(['p', 'u', 'c', 'W', 'U', 'L', 'S', 'G']);

/** Whether `git log`'s options (the words before `--`) make it show or search the content of what it logs. */
export function logShowsContent(words: readonly Word[]): boolean {
  for (const w of words) {
    const v = w.value;
    if (v === '--') return false;
    if (v.startsWith('--')) {
      const name = v.split('=')[0]!;
      if (CONTENT_LONG.some((c) => c === name || (name.length >= 5 && c.startsWith(name)))) return true;
    } else if (/^-[A-Za-z]/.test(v)) {
      // a cluster's letters up to the first value (`-n5`, `-pS`, `-U3`)
      const letters = /^-([A-Za-z]+)/.exec(v)![1]!;
      if ([...letters].some((ch) => CONTENT_SHORT.has(ch))) return true;
    } else if (v.includes(UNKNOWN)) {
      // a word only the shell knows (`$OPTS`) may be such an option
      return true;
    }
  }
  return false;
}

/** The paths `git log` names: its pathspecs only shown as names (`meta`) unless an option makes it show or search their content. */
export function gitLogPathUses(inv: Invocation, rest: readonly Word[]): PathUse[] {
  const uses = [...lineRanges(rest), ...generic(inv, gitLogWords(rest))];
  if (logShowsContent(rest)) return uses;
  return uses.map((u): PathUse => (u.access === 'read' ? { ...u, access: 'meta' } : u));
}

/** The files `-L<start>,<end>:<file>` and `-L:<function>:<file>` show the history of, line by line: read. */
function lineRanges(words: readonly Word[]): PathUse[] {
  const out: PathUse[] = [];
  for (let i = 0; i < words.length && words[i]!.value !== '--'; i++) {
    const v = words[i]!.value;
    const range = v === '-L' ? words[i + 1]?.value : v.startsWith('-L') ? v.slice(2) : undefined;
    const file = range === undefined ? -1 : range.lastIndexOf(':');
    if (range !== undefined && file >= 0 && file < range.length - 1) out.push(use(v === '-L' ? words[i + 1]! : words[i]!, range.slice(file + 1), 'read'));
  }
  return out;
}

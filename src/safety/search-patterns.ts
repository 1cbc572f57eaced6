import type { Invocation } from './command.ts';
import { UNKNOWN } from './expand.ts';
import { parseArgs } from './families/system-args.ts';
import { GIT_LONG_OPTIONS } from './git-long-options.ts';
import { GREP_LONG_OPTIONS, spelledOut } from './long-options.ts';
import { generic, type PathUse, use } from './path-access.ts';
import { globAlternatives } from './paths.ts';
import { bareRepeats } from './posix-bare-repeats.ts';
import type { Word } from './syntax.ts';

/**
 * What a searcher reads, for path-uses.ts: grep (egrep, fgrep, rgrep), rg and git grep read their
 * file operands; the pattern they look for — the first operand, or each `-e`/`--regexp` value —
 * is text, not a path (`grep -q .env.local .gitignore` reads .gitignore alone), and so is git
 * log's (`-S`, `-G`, `--grep`, `--author`). A file of patterns (`-f`) is read, and so is what an
 * `--include` glob (grep) or a `-g` glob (rg) selects, its braces expanded and its wildcards
 * reaching dot names. A pattern the shell may split or expand into more words — a glob, an
 * unknown expansion, or one before it — stays read: `grep .env* x` hands grep `.env.local` as a
 * file to read.
 */

/** How one searcher's command line is read. */
interface Searcher {
  /** the options that take the next word (`-e`, `--regexp`, `-A`…) */
  valued: ReadonlySet<string>;
  /** those whose value is a pattern: with one, every operand is a file */
  patterns: ReadonlySet<string>;
  /** those whose value is a file of patterns, read: with one, every operand is a file */
  patternFiles: ReadonlySet<string>;
  /** those whose value is another file read (`--exclude-from`, `--ignore-file`) */
  reads: ReadonlySet<string>;
  /** those whose value is a glob of the files searched (`--include`, `-g`); a `!glob` leaves files out */
  includes: ReadonlySet<string>;
  /** flags under which no pattern is taken (`rg --files` lists the files it would search) */
  noPattern: ReadonlySet<string>;
  /** every long option, against which an abbreviation is resolved (GNU getopt and git's parse-options take a unique prefix) */
  long: readonly string[];
}

const none: ReadonlySet<string> = new Set();

const GREP: Searcher = {
  valued: new Set([
    '-e',
    '-f',
    '-m',
    '-A',
    '-B',
    '-C',
    '-d',
    '-D',
    '--regexp',
    '--file',
    '--max-count',
    '--after-context',
    '--before-context',
    '--context',
    '--devices',
    '--directories',
    '--binary-files',
    '--label',
    '--include',
    '--exclude',
    '--exclude-dir',
    '--exclude-from',
    '--group-separator',
  ]),
  patterns: new Set(['-e', '--regexp']),
  patternFiles: new Set(['-f', '--file']),
  reads: new Set(['--exclude-from']),
  includes: new Set(['--include']),
  noPattern: none,
  long: GREP_LONG_OPTIONS,
};

/** ripgrep (13 and later): no abbreviations. */
const RG: Searcher = {
  valued: new Set([
    '-e',
    '-f',
    '-g',
    '-A',
    '-B',
    '-C',
    '-E',
    '-j',
    '-m',
    '-M',
    '-r',
    '-t',
    '-T',
    '-d',
    '--regexp',
    '--file',
    '--glob',
    '--iglob',
    '--after-context',
    '--before-context',
    '--context',
    '--encoding',
    '--threads',
    '--max-count',
    '--max-columns',
    '--replace',
    '--type',
    '--type-not',
    '--type-add',
    '--type-clear',
    '--max-depth',
    '--max-filesize',
    '--ignore-file',
    '--pre',
    '--pre-glob',
    '--sort',
    '--sortr',
    '--color',
    '--colors',
    '--context-separator',
    '--field-context-separator',
    '--field-match-separator',
    '--path-separator',
    '--engine',
    '--dfa-size-limit',
    '--regex-size-limit',
    '--hostname-bin',
    '--hyperlink-format',
    '--generate',
  ]),
  patterns: new Set(['-e', '--regexp']),
  patternFiles: new Set(['-f', '--file']),
  reads: new Set(['--ignore-file']),
  includes: new Set(['-g', '--glob', '--iglob']),
  noPattern: new Set(['--files', '--type-list', '--generate']),
  long: [],
};

const GIT_GREP: Searcher = {
  valued: new Set(['-e', '-f', '-A', '-B', '-C', '-m', '--after-context', '--before-context', '--context', '--max-count', '--max-depth', '--threads']),
  patterns: new Set(['-e']),
  patternFiles: new Set(['-f']),
  reads: none,
  includes: none,
  noPattern: none,
  long: GIT_LONG_OPTIONS.grep ?? [],
};

/** git log's options whose value is a pattern or a name searched for in commits, not a path. */
const GIT_LOG_PATTERNS = new Set(['-S', '-G', '--grep', '--author', '--committer', '--grep-reflog']);

/** What grep, egrep, fgrep and rgrep read: their file operands, pattern files and `--include` globs; not the pattern. */
export function grep(inv: Invocation): PathUse[] {
  return searched(inv, inv.args, GREP);
}

/** What rg reads: its file operands, pattern files, ignore files and what `-g` globs select; not the pattern. */
export function ripgrep(inv: Invocation): PathUse[] {
  return searched(inv, inv.args, RG);
}

/** The words after `git grep` without its pattern (what path-uses.ts reads as paths and objects), and the pattern files it reads. */
export function gitGrepWords(words: readonly Word[]): { words: Word[]; reads: PathUse[] } {
  return withoutPatterns(words, GIT_GREP);
}

/** The words after `git log` without the patterns it searches commits for (`-S .env.local`, `--grep=.env`). */
export function gitLogWords(words: readonly Word[]): Word[] {
  const p = parseArgs(words, GIT_LOG_PATTERNS);
  const patterns = new Set(p.valued.filter((o) => splitsSafely(o.word)).map((o) => o.word));
  return words.filter((w) => !patterns.has(w));
}

function searched(inv: Invocation, words: readonly Word[], s: Searcher): PathUse[] {
  const { words: rest, reads } = withoutPatterns(words, s);
  return [...reads, ...generic(inv, rest)];
}

/** A searcher's words without its patterns, and what its options read besides its operands (pattern files, ignore files, include globs). */
function withoutPatterns(words: readonly Word[], s: Searcher): { words: Word[]; reads: PathUse[] } {
  const spelled = s.long.length ? spelledOut(words, s.long) : [...words];
  const p = parseArgs(spelled, s.valued);
  const patterns = new Set<Word>();
  const reads: PathUse[] = [];
  let given = [...s.noPattern].some((f) => p.flags.has(f));
  for (const o of p.valued) {
    if (s.patterns.has(o.name)) {
      given = true;
      if (splitsSafely(o.word)) patterns.add(o.word);
    } else if (s.patternFiles.has(o.name) || s.reads.has(o.name)) {
      given ||= s.patternFiles.has(o.name);
      reads.push(use(o.word, o.value, 'read'));
    } else if (s.includes.has(o.name) && !o.value.startsWith('!')) {
      for (const alt of globAlternatives(o.value)) reads.push(use(o.word, alt.includes('/') ? alt : `**/${alt}`, 'read', { glob: true, found: true }));
    }
  }
  const first = p.operands[0];
  // the first operand is the pattern when no option gave one, and when no word up to it may split into more
  if (!given && first && spelled.slice(0, spelled.indexOf(first) + 1).every(splitsSafely)) patterns.add(first);
  return { words: spelled.filter((w) => !patterns.has(w)), reads };
}

/**
 * The lines `grep` (egrep, fgrep) keeps of what it reads, as one regular expression over a line:
 * its patterns (the first operand, or each `-e`), basic (BRE), extended (`-E`, `-P`, egrep) or
 * fixed (`-F`, fgrep), `-i` ignoring case. Null where the command line does not tell them — a file
 * of patterns, an unknown word, a pattern JavaScript cannot read — and where grep keeps the lines
 * that do not match (`-v`) or prints no lines (`-c`, `-l`, `-q`).
 */
export function grepKeeps(inv: Invocation): RegExp | null {
  const spelled = spelledOut(inv.args, GREP.long);
  const p = parseArgs(spelled, GREP.valued);
  const flag = (letter: string, ...long: string[]) => p.flags.has(letter) || long.some((l) => p.flags.has(l));
  if (flag('v', '--invert-match') || flag('c', '--count') || flag('l', '--files-with-matches') || flag('L', '--files-without-match') || flag('q', '--quiet'))
    return null;
  if (p.valued.some((o) => GREP.patternFiles.has(o.name))) return null;
  const given = p.valued.filter((o) => GREP.patterns.has(o.name)).map((o) => o.word);
  const words = given.length ? given : p.operands.slice(0, 1);
  if (!words.length || words.some((w) => w.value.includes(UNKNOWN))) return null;
  const fixed = inv.program === 'fgrep' || flag('F', '--fixed-strings');
  const perl = flag('P', '--perl-regexp');
  const extended = inv.program === 'egrep' || flag('E', '--extended-regexp') || perl;
  // each pattern word may hold several, one a line
  const patterns = words.flatMap((w) => w.value.split('\n'));
  const sources = patterns.map((pat) =>
    fixed ? pat.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : extended ? wordEdges(perl ? pat : bareRepeats(pat, true)) : fromBasic(bareRepeats(pat, false)),
  );
  try {
    return new RegExp(sources.map((src) => `(?:${src})`).join('|'), flag('i', '--ignore-case') || flag('y') ? 'i' : '');
  } catch {
    return null;
  }
}

/** A basic regular expression (grep's default) as JavaScript's: `\(`, `\|`, `\+`, `\?`, `\{` are operators there, `(`, `|`, `+`, `?`, `{` themselves. */
function fromBasic(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) {
      const n = pattern[++i]!;
      out += '(){}|+?'.includes(n) ? n : n === '<' || n === '>' ? '\\b' : `\\${n}`;
    } else out += '(){}|+?'.includes(c) ? `\\${c}` : c;
  }
  return out;
}

/** GNU's word edges `\<`, `\>` as JavaScript's `\b`. */
function wordEdges(pattern: string): string {
  return pattern.replace(/\\[<>]/g, '\\b');
}

/**
 * Whether the shell hands a word to the program as one word, as written: no unknown expansion but
 * inside one pair of double quotes (`"v?$(head -n 1 f)"`), and no glob but in an option
 * (`--include=*.ts` names no file there is).
 */
function splitsSafely(w: Word): boolean {
  return (!w.value.includes(UNKNOWN) || oneDoubleQuoted(w.raw)) && (!w.glob || w.value.startsWith('-'));
}

/** Whether a word as written is one double-quoted string, its `$( … )` read through (`"x.$(cat V)"`): what it expands to is one word. */
function oneDoubleQuoted(raw: string): boolean {
  if (raw.length < 2 || raw[0] !== '"' || raw.at(-1) !== '"') return false;
  let depth = 0;
  for (let i = 1; i < raw.length - 1; i++) {
    const c = raw[i];
    if (c === '\\') i++;
    else if (c === '$' && raw[i + 1] === '(') {
      depth++;
      i++;
    } else if (depth && c === '(') depth++;
    else if (depth && c === ')') depth--;
    else if (!depth && c === '"') return false;
  }
  return depth === 0;
}

/**
 * Command patterns of `bash.deniedPrefixes`, `deniedCommands` and `allowedPrefixes`, matched on
 * words, not characters: `npm publish` denies `npm publish --tag x` but not `npm publisher-tool`.
 * A pattern with `|` (`curl | sh`) is a pipeline.
 */

import { type GlobMatcher, globMatcher } from '../model/glob.ts';
import { programName } from './command.ts';

interface CommandPattern {
  text: string;
  /** one word list per pipeline stage */
  stages: string[][];
}

const cache = new Map<string, CommandPattern>();

/** Splits a pattern into pipeline stages of words (cached: policies repeat). */
function compilePattern(text: string): CommandPattern {
  let p = cache.get(text);
  if (!p) {
    const stages = text.split('|').map((s) => s.trim().split(/\s+/).filter(Boolean));
    p = { text, stages: stages.some((s) => !s.length) ? [] : stages };
    if (cache.size < 10_000) cache.set(text, p);
  }
  return p;
}

/** One single-stage pattern of a list, with its place in the list. */
interface ListedPattern {
  /** the place in the list: the first pattern that matches is the one reported */
  at: number;
  text: string;
  words: string[];
  /** the words joined by spaces (`git push --force`) */
  joined: string;
}

/**
 * A list of command patterns compiled once: its single-stage patterns by the program they name
 * (the few a command can match are found in one lookup), its pipeline patterns, and each entry
 * as its words read it. Cached by the list's identity: a policy's lists are read-only (Policy's
 * type), so none changes in place once a command was checked against it.
 */
interface CompiledList {
  /** patterns whose program matches only a program of that very name */
  byProgram: Map<string, ListedPattern[]>;
  /** patterns whose program word is itself a wildcard, an option, a mode or ends in `=`: tried on every command */
  always: ListedPattern[];
  /** the patterns of two stages or more (`curl | sh`), in list order */
  pipelines: CommandPattern[];
  /** every entry as its stages' words read it (`git  push -f` is `git push -f`, `curl|sh` is `curl | sh`) */
  entries: Set<string>;
  /** candidatePatterns' answers by the programs asked about (commands repeat programs) */
  candidates: Map<string, ListedPattern[]>;
}

const compiled = new WeakMap<readonly string[], CompiledList>();

/** The compiled form of a pattern list, made on its first use. */
export function compileList(list: readonly string[]): CompiledList {
  let index = compiled.get(list);
  if (!index) {
    index = { byProgram: new Map(), always: [], pipelines: [], entries: new Set(), candidates: new Map() };
    for (const [at, text] of list.entries()) {
      const p = compilePattern(text);
      index.entries.add(p.stages.map((s) => s.join(' ')).join(' | '));
      if (p.stages.length > 1) index.pipelines.push(p);
      if (p.stages.length !== 1) continue;
      const words = p.stages[0]!;
      const entry = { at, text, words, joined: words.join(' ') };
      const program = programName(words[0]!);
      if (matchesOnlyItself(program)) {
        const bucket = index.byProgram.get(program);
        if (bucket) bucket.push(entry);
        else index.byProgram.set(program, [entry]);
      } else index.always.push(entry);
    }
    compiled.set(list, index);
  }
  return index;
}

/**
 * The single-stage patterns of `list` that may match a command whose program is one of
 * `programs`, in list order; `asCommand` as in matchesPrefix (`mkfs` may match `mkfs.ext4`).
 * Every other pattern of the list fails matchesPrefix and matchesAllowed on such a command.
 */
export function candidatePatterns(list: readonly string[], programs: ReadonlyArray<string | undefined>, asCommand = false): ListedPattern[] {
  const index = compileList(list);
  // each program with its length: no two lists of programs (any characters, undefined) share a key
  let key = asCommand ? 'c' : 'p';
  for (const p of programs) key += p === undefined ? '-' : `${p.length}:${p}`;
  let out = index.candidates.get(key);
  if (out) return out;
  const found = new Set<ListedPattern>(index.always);
  for (const program of programs) {
    if (program === undefined) continue;
    for (const e of index.byProgram.get(program) ?? []) found.add(e);
    // `mkfs.ext4` is also `mkfs` as a command: each name before one of its dots
    if (asCommand)
      for (let dot = program.indexOf('.'); dot >= 0; dot = program.indexOf('.', dot + 1))
        for (const e of index.byProgram.get(program.slice(0, dot)) ?? []) found.add(e);
  }
  out = [...found].sort((a, b) => a.at - b.at);
  if (index.candidates.size < 10_000) index.candidates.set(key, out);
  return out;
}

/** Whether wordMatches(`pw`, arg) holds only when arg is `pw` itself (see its cases). */
function matchesOnlyItself(pw: string): boolean {
  return !pw.endsWith('=') && !/^-[A-Za-z]+$/.test(pw) && !/^[0-7]{3,4}$/.test(pw) && !pw.includes('*');
}

/**
 * Whether `argv` (program base name first) matches a denied pattern's `words`: the program, then
 * the other words in order with anything in between — `npm publish` denies `npm -w pkg publish`,
 * `mvn deploy` denies `mvn clean deploy`, `chmod 777` denies `chmod -R 0777 dir`. Option clusters
 * match by letters (`-f` matches `-fd`); a word ending in `=` matches as a prefix (`dd if=`); `*`
 * is a wildcard; numeric modes compare by value. `asCommand` also lets `mkfs` match `mkfs.ext4`.
 */
export function matchesPrefix(words: readonly string[], argv: readonly string[], asCommand = false): boolean {
  if (!matchesProgram(words, argv, asCommand)) return false;
  let j = 1;
  for (let k = 1; k < words.length; k++) {
    while (j < argv.length && !wordMatches(words[k]!, argv[j]!)) j++;
    if (j++ >= argv.length) return false;
  }
  return true;
}

/**
 * The stricter match of `allowedPrefixes`, which lift denials: only options may come between the
 * pattern's words (`git status` must never exempt `git reset --hard status`).
 */
export function matchesAllowed(words: readonly string[], argv: readonly string[]): boolean {
  if (!matchesProgram(words, argv, false)) return false;
  let j = 1;
  for (let k = 1; k < words.length; k++) {
    const pw = words[k]!;
    for (;;) {
      const arg = argv[j];
      if (arg === undefined) return false;
      j++;
      if (wordMatches(pw, arg)) break;
      if (!arg.startsWith('-') || arg === '-' || arg === '--') return false;
    }
  }
  return true;
}

function matchesProgram(words: readonly string[], argv: readonly string[], asCommand: boolean): boolean {
  if (!words.length || !argv.length) return false;
  const program = programName(words[0]!);
  return wordMatches(program, argv[0]!) || (asCommand && argv[0]!.startsWith(`${program}.`));
}

function wordMatches(pw: string, arg: string): boolean {
  if (pw === arg) return true;
  if (pw.endsWith('=') && arg.startsWith(pw)) return true;
  if (/^-[A-Za-z]+$/.test(pw) && /^-[A-Za-z0-9]+$/.test(arg)) return [...pw.slice(1)].every((c) => arg.includes(c));
  if (/^[0-7]{3,4}$/.test(pw)) {
    const want = parseInt(pw, 8);
    // `chmod 4777` is still rwx for everyone; `u=rwx,g=rwx,o=rwx` too
    if (/^[0-7]{3,5}$/.test(arg)) return want === parseInt(arg, 8) || (want === 0o777 && (parseInt(arg, 8) & 0o777) === 0o777);
    return want === 0o777 && symbolicAllRwx(arg);
  }
  if (pw.includes('*')) {
    return starGlob(pw, '.*').test(arg);
  }
  return false;
}

/** Whether a symbolic chmod mode gives read, write and execute to user, group and others. */
function symbolicAllRwx(mode: string): boolean {
  const who = new Set<string>();
  for (const clause of mode.split(',')) {
    const m = /^([ugoa]*)[+=]([rwxXst]*)$/.exec(clause);
    if (!m) return false;
    if (!['r', 'w', 'x'].every((c) => m[2]!.includes(c))) continue;
    for (const c of m[1] === '' || m[1]!.includes('a') ? 'ugo' : m[1]!) who.add(c);
  }
  return who.size === 3;
}

/** Whether `name` is one of `globs` (protected branch patterns such as `main` or `release/*`). */
export function matchesName(name: string, globs: readonly string[]): string | null {
  for (const g of globs) {
    if (g === name) return g;
    if (g.includes('*') && starGlob(g, '[^/]*').test(name)) return g;
  }
  return null;
}

const starCache = new Map<string, GlobMatcher>();

/** A pattern whose only wildcard is `*` (standing for `star`: anything, or anything but `/`), matched whole in linear time (model/glob.ts). */
export function starGlob(glob: string, star: '.*' | '[^/]*'): GlobMatcher {
  const key = `${star}\0${glob}`;
  let m = starCache.get(key);
  if (!m) {
    m = globMatcher(glob, { only: 'star', star: star === '.*' ? 'path' : 'name' });
    if (starCache.size < 5_000) starCache.set(key, m);
  }
  return m;
}

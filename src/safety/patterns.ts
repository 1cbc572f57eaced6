/**
 * Command patterns of `bash.deniedPrefixes`, `deniedCommands` and `allowedPrefixes`, matched on
 * words, not characters: `npm publish` denies `npm publish --tag x` but not `npm publisher-tool`.
 * A pattern with `|` (`curl | sh`) is a pipeline.
 */

import { type GlobMatcher, globMatcher } from '../model/glob.ts';

export interface CommandPattern {
  text: string;
  /** one word list per pipeline stage */
  stages: string[][];
}

const cache = new Map<string, CommandPattern>();

/** Splits a pattern into pipeline stages of words (cached: policies repeat). */
export function compilePattern(text: string): CommandPattern {
  let p = cache.get(text);
  if (!p) {
    const stages = text.split('|').map((s) => s.trim().split(/\s+/).filter(Boolean));
    p = { text, stages: stages.some((s) => !s.length) ? [] : stages };
    if (cache.size < 10_000) cache.set(text, p);
  }
  return p;
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
  const program = words[0]!.slice(words[0]!.lastIndexOf('/') + 1);
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

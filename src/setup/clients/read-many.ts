import { lstatSync, readdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { braceAlternatives, braceCover, globRegex } from '../../model/glob.ts';

/**
 * The files Gemini CLI's `read_many_files` would read for its `paths`/`include` entries (files,
 * folders, globs; relative to `base`), found on disk so that each is checked as a Read: a pattern
 * like `sub/*` reads `sub/x.pem`, which no rule over the pattern's text would see. Folders are read
 * whole; `node_modules` and `.git` are skipped unless `defaultExcludes` is off (Gemini skips them
 * too); a `*` matches dotfiles as well (the safe side). Null when more than `limit` files match.
 */
export function readManyTargets(entries: readonly string[], base: string, opts: { defaultExcludes?: boolean; limit?: number } = {}): string[] | null {
  const limit = opts.limit ?? 20_000;
  const skip = opts.defaultExcludes === false ? new Set<string>() : new Set(['node_modules', '.git']);
  const out = new Set<string>();
  let seen = 0;
  const walk = (dir: string, keep: (path: string) => boolean): boolean => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return true;
    }
    for (const name of names) {
      if (++seen > limit) return false;
      const path = join(dir, name);
      let st;
      try {
        st = lstatSync(path);
      } catch {
        continue;
      }
      if (st.isDirectory()) {
        if (!skip.has(name) && !walk(path, keep)) return false;
      } else if (keep(path)) out.add(path);
    }
    return true;
  };
  for (const entry of entries) {
    const abs = isAbsolute(entry) ? entry : resolve(base, entry);
    const wild = abs.search(/[*?[{]/);
    if (wild < 0) {
      let st;
      try {
        st = lstatSync(abs);
      } catch {
        out.add(abs); // not there (yet): checked by its name
        continue;
      }
      if (!st.isDirectory()) out.add(abs);
      else if (!walk(abs, () => true)) return null;
      continue;
    }
    const root = abs.slice(0, abs.lastIndexOf('/', wild) + 1) || '/';
    const re = globRegex(abs);
    if (!walk(root, (p) => re.test(p))) return null;
  }
  return [...out];
}

/** The most paths one of a read_many_files call's patterns is listed as, one by one; past it, braceCover's reading. */
const MAX_NAMED_PATHS = 64;

/**
 * The paths a call's patterns name, each `{a,b}` alternative apart (`*.{pem,txt}`: `*.pem`,
 * `*.txt`); a pattern of more combinations than MAX_NAMED_PATHS as one glob per alternative
 * written, the other groups wildcards (model/glob.ts braceCover), never its first ones alone.
 */
export function namedPaths(patterns: readonly string[]): string[] {
  return patterns.flatMap((p) => braceAlternatives(p, MAX_NAMED_PATHS) ?? braceCover(p));
}

import { lstatSync, readdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { globRegex } from '../../model/glob.ts';

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

/**
 * The patterns a pattern with `{a,b}` groups stands for (`*.{pem,txt}`: `*.pem`, `*.txt`), groups
 * inside groups too, at most 64; a pattern without one is itself. Here rather than the engine's
 * (safety/paths.ts globAlternatives) because the hook parts stay light: the prompt hook's bundle
 * carries this file and none of the engine.
 */
export function braceAlternatives(pattern: string): string[] {
  const out: string[] = [];
  const expand = (p: string): void => {
    if (out.length >= 64) return;
    const m = /\{([^{}]*,[^{}]*)\}/.exec(p);
    if (!m) return void out.push(p);
    for (const alt of m[1]!.split(',')) expand(p.slice(0, m.index) + alt + p.slice(m.index + m[0].length));
  };
  expand(pattern);
  return out;
}

import { posix } from 'node:path';
import { UNKNOWN } from './shell.ts';

/**
 * Path patterns of `filesystem.deniedPaths` / `readOnlyPaths`, matched the way AXME documents
 * them — a pattern matches the full path, a folder holding it, or (without a `/`) a file or
 * folder name — with globs on both sides: a path given to a shell may itself be a glob
 * (`cat ~/.ssh/*`) or hold an unknown expansion (`cat "$DIR/.env"`).
 */

export interface PathContext {
  cwd: string;
  home: string;
  /** where relative patterns are anchored (the project root; cwd when unknown) */
  root?: string | undefined;
}

/** Expands `~` and `$HOME`, resolves against `cwd` and normalises `..` and `.`. */
export function resolvePath(p: string, ctx: PathContext): string {
  let s = p;
  if (s === '~' || s.startsWith('~/')) s = ctx.home + s.slice(1);
  else if (s === '$HOME' || s.startsWith('$HOME/')) s = ctx.home + s.slice(5);
  else if (s === '${HOME}' || s.startsWith('${HOME}/')) s = ctx.home + s.slice(7);
  return posix.resolve(ctx.cwd, s);
}

// Glob tokens: a literal character, or one of these.
const STAR = -1; // `*`: any run of characters but `/`
const ANY = -2; // `?` or `[...]`: one character but `/`
const GLOBSTAR = -3; // `**`, or an unknown expansion: anything
type Token = number | string;

/** Tokenises a glob; `literalGlob` false treats `*?[` as plain characters (a path, not a pattern). */
function tokens(s: string, literalGlob: boolean): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === UNKNOWN) out.push(GLOBSTAR);
    else if (!literalGlob && c === '*') {
      if (s[i + 1] === '*') {
        i++;
        // `a/**/b` also matches `a/b`
        if (s[i + 1] === '/' && out.at(-1) === '/') i++;
        out.push(GLOBSTAR);
      } else out.push(STAR);
    } else if (!literalGlob && c === '?') out.push(ANY);
    else if (!literalGlob && c === '[') {
      const end = s.indexOf(']', i + 2);
      if (end < 0) out.push('[');
      else {
        out.push(ANY);
        i = end;
      }
    } else out.push(c);
  }
  return out;
}

/**
 * Whether some string matches both token lists (dynamic programming over both positions). Like the
 * shell, `*` and `?` at the start of a name never produce a leading `.` (no dotglob).
 */
function intersects(a: Token[], b: Token[]): boolean {
  const w = b.length + 1;
  const seen = new Uint8Array((a.length + 1) * w); // 0 unknown, 1 false, 2 true
  const stack: Array<[number, number]> = [];
  // iterative depth-first search: long paths must not overflow the stack
  const visit = (i: number, j: number): boolean => {
    if (seen[i * w + j]) return false;
    seen[i * w + j] = 1;
    stack.push([i, j]);
    return false;
  };
  visit(0, 0);
  while (stack.length) {
    const [i, j] = stack.pop()!;
    if (i === a.length && j === b.length) return true;
    const x = a[i];
    const y = b[j];
    const xWild = x === STAR || x === GLOBSTAR;
    const yWild = y === STAR || y === GLOBSTAR;
    if (xWild) visit(i + 1, j);
    if (yWild) visit(i, j + 1);
    if (x === undefined || y === undefined) continue;
    if (xWild && absorbs(x as number, y, a, i)) visit(i, j + 1);
    if (yWild && absorbs(y as number, x, b, j)) visit(i + 1, j);
    if (!xWild && !yWild && compatible(x, y, a, i, b, j)) visit(i + 1, j + 1);
  }
  return false;
}

const nameStart = (t: Token[], i: number) => i === 0 || t[i - 1] === '/';

/** Whether wildcard `w` (at `t[i]`) can produce what token `other` produces. */
function absorbs(w: number, other: Token, t: Token[], i: number): boolean {
  if (w === GLOBSTAR) return true;
  if (other === '/' || other === GLOBSTAR) return false;
  if (other === '.' && nameStart(t, i)) return false;
  return true;
}

function compatible(x: Token, y: Token, a: Token[], i: number, b: Token[], j: number): boolean {
  if (typeof x === 'string' && typeof y === 'string') return x === y;
  if (x === ANY && y === ANY) return true;
  const lit = (x === ANY ? y : x) as string;
  const [t, k] = x === ANY ? [a, i] : [b, j];
  return lit !== '/' && !(lit === '.' && nameStart(t, k));
}

export interface PathMatch {
  pattern: string;
}

/**
 * The first pattern that `path` falls under, or null. `path` is absolute; with `isGlob` its glob
 * characters are wildcards (a shell argument), otherwise literal (a tool's file path).
 */
export function matchPath(path: string, patterns: readonly string[], ctx: PathContext, isGlob = false): PathMatch | null {
  const arg = tokens(path, !isGlob);
  // an argument whose file name is only wildcards (`dir/*`, `$X`) names no file in particular
  const name = path.slice(path.lastIndexOf('/') + 1);
  const nameIsWild = !name.replace(/[*?[\]\uE000]/g, '');
  for (const pattern of patterns) {
    if (!pattern) continue;
    if (pattern.includes('/')) {
      const full = resolvePath(pattern, { ...ctx, cwd: ctx.root ?? ctx.cwd }).replace(/\/$/, '');
      const pt = tokens(full, false);
      if (intersects(arg, pt) || intersects(arg, [...pt, '/', GLOBSTAR])) return { pattern };
    } else if (!nameIsWild || !isGlob) {
      const pt = tokens(pattern, false);
      if (intersects(arg, [GLOBSTAR, '/', ...pt]) || intersects(arg, [GLOBSTAR, '/', ...pt, '/', GLOBSTAR])) return { pattern };
    }
  }
  return null;
}

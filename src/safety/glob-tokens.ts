import { UNKNOWN } from './shell.ts';

/**
 * Globs as token lists, and whether two of them can name the same path (paths.ts matches a path
 * that is a glob or partly unknown against the path patterns with these).
 */

// Glob tokens: a literal character, or one of these.
const STAR = -1; // `*`: any run of characters but `/`
const ANY = -2; // `?` or `[...]`: one character but `/`
export const GLOBSTAR = -3; // an unknown expansion (or a pattern's `**`): anything at all
const DEEP = -4; // a shell or tool glob's `**`: any path, but like `*` it never enters a dot name
const PART = -5; // an unknown expansion inside the file name (`foo$X`): any characters but `/`
/** A bracket class (`[0-9]`, `[!a-z]`): one character of `chars`, or with `negated` one not among them; never `/`, nor a `.` starting a name. */
interface CharClass {
  chars: string;
  negated: boolean;
}
export type Token = number | string | CharClass;

/**
 * Tokenises a glob. `literalGlob` treats `*?[` as plain characters (a path, not a pattern);
 * `shellGlob` gives `**` the shell's meaning (no dot names) instead of a pattern's (anything).
 * Past `wholeFoldersFrom` (the home folder's length, for a path in it), an unknown expansion filling
 * whole folders after a known one is some non-dot folders, or none (wholeFolders).
 */
export function tokens(s: string, literalGlob: boolean, shellGlob = false, wholeFoldersFrom = Number.POSITIVE_INFINITY): Token[] {
  const out: Token[] = [];
  const nameStart = s.lastIndexOf('/');
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    // `"$DIR/.env"` may be any folder; `foo$X` is a file name starting with foo
    if (c === UNKNOWN) {
      const end = i > wholeFoldersFrom ? wholeFolders(s, i, nameStart) : i;
      if (end > i) {
        // `~/$D/contrib`: the variable fills whole folders after a known one — some non-dot folders, or none
        out.pop();
        out.push(DEEP);
        i = end - 1;
      } else out.push(i > nameStart ? PART : GLOBSTAR);
    } else if (!literalGlob && c === '*') {
      if (s[i + 1] === '*') {
        i++;
        // `a/**/b` also matches `a/b`
        if (s[i + 1] === '/' && out.at(-1) === '/') i++;
        out.push(shellGlob ? DEEP : GLOBSTAR);
      } else out.push(STAR);
    } else if (!literalGlob && c === '?') out.push(ANY);
    else if (!literalGlob && c === '[') {
      const end = s.indexOf(']', i + 2);
      if (end < 0) out.push('[');
      // `[.]`: a class of one character is that character (ripgrep's `[.]env` names `.env`)
      else if (end === i + 2 && s[i + 1] !== '!' && s[i + 1] !== '^') {
        out.push(s[i + 1]!);
        i = end;
      } else {
        out.push(charClass(s.slice(i + 1, end)) ?? ANY);
        i = end;
      }
    } else out.push(c);
  }
  return out;
}

/**
 * Where a run of unknown expansions at `i` ends (at its `/`) when it fills whole folders after a
 * known one and known names follow (`/home/u/\uE000/contrib`, `/home/u/\uE000/\uE000/.ssh/k`); else
 * `i`. Such a folder is read as some non-dot folders or none: `$PG_SRC_DIR` is not `.ssh`, while a
 * dot name written after it (`~/$D/.ssh/keys`) stays one.
 */
function wholeFolders(s: string, i: number, nameStart: number): number {
  if (i < 2 || s[i - 1] !== '/' || i > nameStart) return i;
  let end = i;
  while (s[end] === UNKNOWN || (s[end] === '/' && s[end + 1] === UNKNOWN)) end++;
  // the run ends at a `/` that known text follows
  return s[end] === '/' && end + 1 < s.length && s[end + 1] !== UNKNOWN ? end : i;
}

/** How many characters a class may hold to be read as its characters (past that, or with a named class or an escape: any character, `?`). */
const CLASS_MAX = 256;

/** The class a bracket expression's text stands for (`0-9`, `!a-z`, `^.`), or null where it is read as `?`. */
function charClass(body: string): CharClass | null {
  const negated = body[0] === '!' || body[0] === '^';
  const text = negated ? body.slice(1) : body;
  if (/[[\\\uE000]/.test(text)) return null;
  let chars = '';
  for (let k = 0; k < text.length; k++) {
    if (text[k + 1] === '-' && k + 2 < text.length) {
      const [lo, hi] = [text.charCodeAt(k), text.charCodeAt(k + 2)];
      if (hi < lo || hi - lo > CLASS_MAX) return null;
      for (let code = lo; code <= hi; code++) chars += String.fromCharCode(code);
      k += 2;
    } else chars += text[k];
  }
  return chars.length > CLASS_MAX ? null : { chars, negated };
}

const isWild = (t: Token | undefined): boolean => t === STAR || t === GLOBSTAR || t === DEEP || t === PART;

/**
 * Whether some string matches both token lists: the two globs read side by side one character at
 * a time (the product of their automata). A state is a position in each and whether the next
 * character starts a name (after `/`, or at the very start); a wildcard may stop (a move that
 * produces nothing) or produce the next character and stay; both sides produce the same
 * character: the literal either side stands at, or, where both stand at a wildcard or `?`, a `/`, a
 * `.` or any other character (to a wildcard every other character is alike). So `*.default-release`
 * meets `*` (`x.default-release`: the two `*` share `x`, then the glob's own `.` is the pattern's
 * `*`'s). Like the shell, `*`, `?` and `**` never produce a `.` at the start of a name (no dotglob).
 */
export function intersects(a: Token[], b: Token[]): boolean {
  const w = b.length + 1;
  const seen = new Uint8Array((a.length + 1) * w * 2);
  const stack: number[] = [];
  const push = (i: number, j: number, fresh: boolean) => {
    const k = ((i * w + j) << 1) | (fresh ? 1 : 0);
    if (!seen[k]) {
      seen[k] = 1;
      stack.push(k);
    }
  };
  push(0, 0, true);
  while (stack.length) {
    const k = stack.pop()!;
    const fresh = (k & 1) !== 0;
    const i = Math.floor((k >> 1) / w);
    const j = (k >> 1) % w;
    if (i === a.length && j === b.length) return true;
    const x = a[i];
    const y = b[j];
    // a wildcard may stop producing characters
    if (isWild(x)) push(i + 1, j, fresh);
    if (isWild(y)) push(i, j + 1, fresh);
    if (x === undefined || y === undefined) continue;
    for (const c of candidates(x, y)) {
      const di = advance(x, c, fresh);
      const dj = di < 0 ? -1 : advance(y, c, fresh);
      if (dj >= 0) push(i + di, j + dj, c === '/');
    }
  }
  return false;
}

/** One character of each kind a wildcard or `?` tells apart: a `/`, a `.`, any other. */
const CHARACTER_KINDS: readonly string[] = ['/', '.', 'a'];

/** Characters one of which may stand for "any other" where negated classes exclude some. */
const OTHERS = 'aAz0_-~\u0001\uE001';

/**
 * The characters worth trying where tokens `x` and `y` both produce one: the literal either
 * stands at, else a class's characters, else one of each kind the wildcards, `?` and negated
 * classes tell apart (CHARACTER_KINDS, "other" being one no negated class excludes).
 */
function candidates(x: Token, y: Token): readonly string[] {
  if (typeof x === 'string') return [x];
  if (typeof y === 'string') return [y];
  if (typeof x === 'object' && !x.negated) return [...x.chars];
  if (typeof y === 'object' && !y.negated) return [...y.chars];
  const excluded = (typeof x === 'object' ? x.chars : '') + (typeof y === 'object' ? y.chars : '');
  if (!excluded) return CHARACTER_KINDS;
  return ['/', '.', [...OTHERS].find((c) => !excluded.includes(c)) ?? 'a'];
}

/** How far token `t` moves on producing `c` (at the start of a name when `fresh`): 1 (a literal, `?`, a class), 0 (a wildcard going on), or -1 (it cannot). */
function advance(t: Token, c: string, fresh: boolean): number {
  if (typeof t === 'string') return t === c ? 1 : -1;
  if (typeof t === 'object') return c === '/' || (c === '.' && fresh) || t.chars.includes(c) === t.negated ? -1 : 1;
  if (t === ANY) return c === '/' || (c === '.' && fresh) ? -1 : 1;
  return produces(t, c, fresh) ? 0 : -1;
}

/**
 * Whether wildcard `w` can produce character `c` (at the start of a name when `fresh`). An
 * unknown expansion inside a file name (`lodash@$V`, `bin:$PATH`) produces no `.`: a word built
 * from a variable is not taken for a secret's name (`*.pem`, `.env`) unless its literal part
 * says so (`"$X".pem`, `"$DIR/.env"`).
 */
function produces(w: number, c: string, fresh: boolean): boolean {
  if (w === GLOBSTAR) return true;
  if (w === PART) return c !== '/' && c !== '.';
  if (c === '.' && fresh) return false;
  return w === DEEP || c !== '/';
}

/**
 * Globs matched in linear time. A glob is compiled to a small automaton (one state per
 * character or wildcard) and a path is read once, keeping the set of states it can be in: the
 * work is at most (path length × glob length), whatever the glob. A regular expression built from
 * a glob backtracks instead — `****************************Q` against a long path never ends —
 * and every pattern here comes from stored or remote text (anchors, safety rules, workspace
 * manifests), so none is ever turned into a RegExp.
 */

/** A compiled glob: whether a path matches it. */
export interface GlobMatcher {
  test(path: string): boolean;
}

/** How a glob is read; the defaults are the anchors' (docs/staleness.md). */
export interface GlobSyntax {
  /** which characters are wildcards: all (`*`, `**`, `?`, `[...]`, `{a,b}` when `braces`), or `*` alone (`star`) */
  only?: 'star';
  /** what a lone `*` matches: `name` (no `/`, the default) or `path` (anything) */
  star?: 'name' | 'path';
  /** `{a,b}` alternatives (default true) */
  braces?: boolean;
  /** `**` followed by `/` may also match no folder at all: `a/**\/b` matches `a/b` (default true) */
  emptyGlobstar?: boolean;
  /** where a match may start: the start of the path (default), or also after any `/` */
  from?: 'start' | 'folder';
  /** where a match may end: the end of the path (default), or also before any `/` (a folder and everything under it) */
  to?: 'end' | 'folder';
}

/** At most this many wildcard characters (`*`, `?`, `[`, `{`) in a stored glob (an anchor). */
export const GLOB_MAX_WILDCARDS = 16;

/** Why `glob` cannot be a stored pattern (too many wildcards, a run of three or more `*`), or null. */
export function globProblem(glob: string): string | null {
  if (/\*{3,}/.test(glob)) return 'three or more "*" in a row mean no more than "**": write * (within one folder) or ** (across folders)';
  const wild = glob.replace(/[^*?[{]/g, '').length;
  if (wild > GLOB_MAX_WILDCARDS) return `at most ${GLOB_MAX_WILDCARDS} wildcards (*, ?, [, {) in one glob; this one has ${wild}`;
  return null;
}

const SPLIT = 0;
const ONE = 1; // consumes one character that `test` accepts, then goes to `next`
const MATCH = 2;

interface State {
  kind: typeof SPLIT | typeof ONE | typeof MATCH;
  to: number[];
  /** whether the state reads this character (a code point) */
  accepts: (c: number) => boolean;
}

const SLASH = 0x2f;
const never = () => false;
const anyChar = () => true;
const notSlash = (c: number) => c !== SLASH;

/** The matcher of `glob` read with `syntax`. */
export function globMatcher(glob: string, syntax: GlobSyntax = {}): GlobMatcher {
  if (!(syntax.only === 'star' ? /\*/ : syntax.braces === false ? /[*?[]/ : /[*?[{]/).test(glob))
    return literal(glob, syntax.from === 'folder', syntax.to === 'folder');
  const states: State[] = [];
  const add = (kind: State['kind'], to: number[], accepts: (c: number) => boolean = never): number => states.push({ kind, to, accepts }) - 1;
  const match = add(MATCH, []);
  const chars = [...glob];
  const starOnly = syntax.only === 'star';
  const braces = !starOnly && syntax.braces !== false;
  const emptyGlobstar = syntax.emptyGlobstar !== false;
  const loop = (accepts: (c: number) => boolean, next: number): number => {
    const split = add(SPLIT, []);
    states[split]!.to = [add(ONE, [split], accepts), next];
    return split;
  };

  // runs of plain characters every match contains (outside braces): a path without one is refused at once
  const required: string[] = [];
  /** The states of chars[from, to) (no braces inside), ending in `next`; built from the end. */
  const sequence = (from: number, to: number, next: number, top = false): number => {
    // tokens first, left to right (a class or `**` spans several characters), then the states backwards
    const tokens: Array<{ t: 'char'; c: number } | { t: 'one'; accepts: (c: number) => boolean } | { t: 'star' | 'globstar' | 'folders' }> = [];
    for (let i = from; i < to; i++) {
      const c = chars[i]!;
      if (c === '*') {
        if (starOnly || chars[i + 1] !== '*') {
          tokens.push({ t: 'star' });
          continue;
        }
        while (chars[i + 1] === '*') i++;
        if (emptyGlobstar && chars[i + 1] === '/' && i + 1 < to) {
          tokens.push({ t: 'folders' });
          i++;
        } else tokens.push({ t: 'globstar' });
      } else if (!starOnly && c === '?') tokens.push({ t: 'one', accepts: notSlash });
      else if (!starOnly && c === '[') {
        const cls = charClass(chars, i, to);
        if (cls) {
          tokens.push({ t: 'one', accepts: cls.accepts });
          i = cls.end;
        } else tokens.push({ t: 'char', c: c.codePointAt(0)! });
      } else tokens.push({ t: 'char', c: c.codePointAt(0)! });
    }
    if (top) {
      let run = '';
      for (const tok of [...tokens, null]) {
        if (tok?.t === 'char') run += String.fromCodePoint(tok.c);
        else if (run) {
          if (run.length > 1) required.push(run);
          run = '';
        }
      }
    }
    let at = next;
    for (let k = tokens.length - 1; k >= 0; k--) {
      const tok = tokens[k]!;
      if (tok.t === 'char') at = add(ONE, [at], (x) => x === tok.c);
      else if (tok.t === 'one') at = add(ONE, [at], tok.accepts);
      else if (tok.t === 'star') at = loop(syntax.star === 'path' ? anyChar : notSlash, at);
      else if (tok.t === 'globstar') at = loop(anyChar, at);
      else {
        // `**/`: any folders, or none — (?:.*/)?
        const slash = add(ONE, [at], (x) => x === SLASH);
        at = add(SPLIT, [loop(anyChar, slash), at]);
      }
    }
    return at;
  };

  // braces split the glob into parts; each `{a,b}` is a split into its alternatives (not nested)
  const parts: Array<{ from: number; to: number } | Array<{ from: number; to: number }>> = [];
  let start = 0;
  for (let i = 0; i < chars.length; i++) {
    if (!braces || chars[i] !== '{') continue;
    const end = chars.indexOf('}', i);
    if (end < 0) break;
    parts.push({ from: start, to: i });
    const alts: Array<{ from: number; to: number }> = [];
    let a = i + 1;
    for (let j = i + 1; j <= end; j++) {
      if (j === end || chars[j] === ',') {
        alts.push({ from: a, to: j });
        a = j + 1;
      }
    }
    parts.push(alts);
    start = end + 1;
    i = end;
  }
  parts.push({ from: start, to: chars.length });
  let entry = match;
  for (let k = parts.length - 1; k >= 0; k--) {
    const p = parts[k]!;
    const next = entry;
    entry = Array.isArray(p)
      ? add(
          SPLIT,
          p.map((alt) => sequence(alt.from, alt.to, next)),
        )
      : sequence(p.from, p.to, next, true);
  }
  return compiled(states, entry, match, required, syntax.from === 'folder', syntax.to === 'folder');
}

/** `[...]` starting at `i` (a `]` right after `[` or `[!` is a member): what it accepts and where it ends, or null when it is not closed. Never `/`. */
function charClass(chars: string[], i: number, to: number): { accepts: (c: number) => boolean; end: number } | null {
  let j = i + 1;
  const negate = chars[j] === '!' || chars[j] === '^';
  if (negate) j++;
  const first = j;
  while (j < to && (chars[j] !== ']' || j === first)) j++;
  if (j >= to) return null;
  const members = chars.slice(first, j);
  const ranges: Array<[number, number]> = [];
  for (let k = 0; k < members.length; k++) {
    const lo = members[k]!.codePointAt(0)!;
    if (members[k + 1] === '-' && k + 2 < members.length) {
      ranges.push([lo, members[k + 2]!.codePointAt(0)!]);
      k += 2;
    } else ranges.push([lo, lo]);
  }
  const inside = (p: number) => ranges.some(([a, b]) => p >= a && p <= b);
  return { accepts: (c) => c !== SLASH && inside(c) !== negate, end: j };
}

/** The automaton as a matcher: the states a path can be in, advanced one character at a time. */
function compiled(states: State[], entry: number, match: number, required: string[], fromFolder: boolean, toFolder: boolean): GlobMatcher {
  const n = states.length;
  const reads = states.map((st) => (st.kind === ONE ? st.accepts : null));
  const nextOf = Int32Array.from(states, (st) => (st.kind === ONE ? st.to[0]! : -1));
  const mark = new Uint32Array(n);
  let generation = 0;
  // every split pushes its targets once per step: at most one entry per edge, and the first
  const stack = new Int32Array(1 + states.reduce((sum, st) => sum + st.to.length, 0));
  let current = new Int32Array(n);
  let following = new Int32Array(n);
  /** Adds `s` and every state it reaches without reading (splits) to `into` from `size`; returns the new size. */
  const close = (s: number, into: Int32Array, size: number): number => {
    let top = 0;
    stack[top++] = s;
    while (top) {
      const x = stack[--top]!;
      if (mark[x] === generation) continue;
      mark[x] = generation;
      const st = states[x]!;
      if (st.kind === SPLIT) for (let k = st.to.length - 1; k >= 0; k--) stack[top++] = st.to[k]!;
      else into[size++] = x;
    }
    return size;
  };
  const holdsMatch = (set: Int32Array, size: number) => {
    for (let i = 0; i < size; i++) if (set[i] === match) return true;
    return false;
  };
  return {
    test(path: string): boolean {
      for (const r of required) if (!path.includes(r)) return false;
      if (generation > 0xfffffff0) {
        mark.fill(0);
        generation = 0;
      }
      generation++;
      let size = close(entry, current, 0);
      for (let at = 0; at < path.length; ) {
        const c = path.codePointAt(at)!;
        at += c > 0xffff ? 2 : 1;
        if (c === SLASH && toFolder && holdsMatch(current, size)) return true;
        generation++;
        let next = 0;
        for (let i = 0; i < size; i++) {
          const s = current[i]!;
          if (reads[s]?.(c)) next = close(nextOf[s]!, following, next);
        }
        if (c === SLASH && fromFolder) next = close(entry, following, next);
        // nothing can match any more (unless a match may start after a later `/`)
        if (next === 0 && !fromFolder) return false;
        const t = current;
        current = following;
        following = t;
        size = next;
      }
      return holdsMatch(current, size);
    },
  };
}

/** A glob without wildcards: the same answers as its automaton, by string comparison. */
function literal(text: string, fromFolder: boolean, toFolder: boolean): GlobMatcher {
  const endsAt = (path: string, at: number) => at === path.length || (toFolder && path[at] === '/');
  return {
    test(path: string): boolean {
      if (!fromFolder) return path.startsWith(text) && endsAt(path, text.length);
      for (let at = path.indexOf(text); at >= 0; at = path.indexOf(text, at + 1)) {
        if ((at === 0 || path[at - 1] === '/') && endsAt(path, at + text.length)) return true;
        if (at >= path.length) break; // an empty text is found at every position, the end included
      }
      return false;
    },
  };
}

/** `globMatcher` with the anchors' syntax, under the name callers used when it returned a RegExp. */
export const globRegex = (glob: string): GlobMatcher => globMatcher(glob);

/** The characters that open, separate and close a brace group; bash's parser marks the unquoted ones with others. */
export interface BraceMarks {
  open: string;
  comma: string;
  close: string;
}

const PLAIN_BRACES: BraceMarks = { open: '{', comma: ',', close: '}' };

/**
 * The texts a text with `{a,b}` groups stands for, groups inside groups too, as bash, ripgrep
 * and the clients' glob tools expand them (`*.{pem,txt}`: `*.pem`, `*.txt`); a `{` that opens no
 * group (`{a}`, `{}`, no closing `}`) is itself. Null when they are more than `max`: counted
 * first, so a text of many groups costs no more than its length to refuse, and the caller never
 * reads the first ones as if they were every one.
 */
export function braceAlternatives(text: string, max: number, marks: BraceMarks = PLAIN_BRACES): string[] | null {
  if (!text.includes(marks.open)) return [text];
  return braceCount(braceParts(text, marks), max, marks) > max ? null : expandParts(braceParts(text, marks), marks);
}

/** How many texts `parts` stand for, counted up to `max` + 1. */
function braceCount(parts: ReadonlyArray<string | string[]>, max: number, marks: BraceMarks): number {
  let n = 1;
  for (const part of parts) {
    if (typeof part === 'string') continue;
    let sum = 0;
    for (const alt of part) if ((sum += alt.includes(marks.open) ? braceCount(braceParts(alt, marks), max, marks) : 1) > max) return max + 1;
    if ((n *= sum) > max) return max + 1;
  }
  return n;
}

/** Every text `parts` stand for, in order (each group's alternatives in turn, the first group outermost). */
function expandParts(parts: ReadonlyArray<string | string[]>, marks: BraceMarks): string[] {
  let out = [''];
  for (const part of parts)
    out =
      typeof part === 'string'
        ? out.map((head) => head + part)
        : out.flatMap((head) => part.flatMap((alt) => expandParts(braceParts(alt, marks), marks).map((a) => head + a)));
  return out;
}

/**
 * Globs that together match every text `text`'s `{a,b}` groups stand for, one per alternative
 * written rather than one per combination: each alternative in its place, every other group a
 * wildcard (`*`, or `**` when one of its alternatives names folders). As many as the
 * alternatives, however many combinations they make: for a glob whose braceAlternatives are
 * too many to list, it is a reading that leaves none out.
 */
export function braceCover(text: string, marks: BraceMarks = PLAIN_BRACES): string[] {
  const parts = braceParts(text, marks);
  const out = new Set<string>();
  parts.forEach((part, at) => {
    if (typeof part === 'string') return;
    for (const alt of part)
      for (const one of braceCover(alt, marks))
        out.add(parts.map((p, i) => (i === at ? one : typeof p === 'string' ? p : p.some((a) => a.includes('/')) ? '**' : '*')).join(''));
  });
  return out.size ? [...out] : [text];
}

/** `text` as its plain runs and its top-level groups (each a list of its alternatives, as written). */
function braceParts(text: string, marks: BraceMarks): Array<string | string[]> {
  const parts: Array<string | string[]> = [];
  let plain = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] !== marks.open) {
      plain += text[i++];
      continue;
    }
    let depth = 0;
    let end = -1;
    const commas: number[] = [];
    for (let j = i; j < text.length; j++) {
      if (text[j] === marks.open) depth++;
      else if (text[j] === marks.comma && depth === 1) commas.push(j);
      else if (text[j] === marks.close && --depth === 0) {
        end = j;
        break;
      }
    }
    if (end < 0 || !commas.length) {
      plain += text[i++];
      continue;
    }
    if (plain) parts.push(plain);
    plain = '';
    parts.push([i, ...commas].map((c, k) => text.slice(c + 1, k < commas.length ? commas[k] : end)));
    i = end + 1;
  }
  if (plain) parts.push(plain);
  return parts;
}

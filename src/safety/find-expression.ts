import { globMatcher } from '../model/glob.ts';
import { RM_LIKE_PROGRAMS } from './removers.ts';

/**
 * What a find expression may remove, read the way find evaluates it: tests joined by `-a`, `-o`,
 * `,`, negated by `!`/`-not`, grouped by `(`…`)`, each test true, false or — where it depends on
 * what the command line does not tell (`-mtime`, `-size`, `-newer`) — maybe. A removing action
 * (`-delete`, `-exec rm`) that evaluation may reach for a file removes it. `-maxdepth` limits how
 * deep it goes; `-prune` stops it going into a folder unless `-delete` or `-depth` makes it work
 * from the inside out (then, as find's manual says, it has no effect).
 */

/** A file find may visit: its path as find prints it, its base name, whether it is a folder, its depth below the root. */
export interface FoundFile {
  path: string;
  name: string;
  dir: boolean;
  depth: number;
  /** the file lies somewhere below this folder, its path past it unknown (`path` stands in): a path test may match it */
  under?: string;
}

/** How files the expression meets are read: whether `-empty` holds (`no` for the files of the history, which are never empty). */
export interface FindReading {
  empty: Tri;
  /** every `-exec`/`-ok` counts as the action asked about, not only a removing one (what the found files are handed to) */
  everyExec?: boolean;
}

export type Tri = 'yes' | 'no' | 'maybe';

type Node =
  | { kind: 'and' | 'or' | 'list'; left: Node; right: Node }
  | { kind: 'not'; of: Node }
  | { kind: 'test'; value: (f: FoundFile) => Tri; prune?: boolean; removes?: boolean };

/**
 * For a find expression (`args` past the roots): whether it may remove `file`, given the folders
 * above it (`above`, root first). An expression that cannot be read may remove anything.
 */
export function findRemoves(args: readonly string[], reading: FindReading = { empty: 'no' }): (file: FoundFile, above: readonly FoundFile[]) => boolean {
  const parsed = parseFind(args, reading);
  if (!parsed) return () => true;
  return (file, above) => {
    if (parsed.maxDepth !== null && file.depth > parsed.maxDepth) return false;
    // find does not go into a folder an evaluation certainly prunes (without -delete or -depth)
    if (!parsed.depthFirst && above.some((d) => evaluate(parsed.expr, d, 'yes').prunes)) return false;
    return evaluate(parsed.expr, file, 'yes').removes;
  };
}

interface Outcome {
  value: Tri;
  /** a removing action may run */
  removes: boolean;
  /** `-prune` certainly ran */
  prunes: boolean;
}

function evaluate(n: Node, f: FoundFile, reached: Tri): Outcome {
  if (n.kind === 'test') {
    const value = n.value(f);
    return { value, removes: !!n.removes, prunes: !!n.prune && reached === 'yes' };
  }
  if (n.kind === 'not') {
    const o = evaluate(n.of, f, reached);
    return { ...o, value: o.value === 'yes' ? 'no' : o.value === 'no' ? 'yes' : 'maybe' };
  }
  const left = evaluate(n.left, f, reached);
  // `a -a b`: b runs where a held; `a -o b`: where a failed; `a , b`: always, and the value is b's
  const goesOn: Tri = n.kind === 'list' ? 'yes' : n.kind === 'and' ? left.value : left.value === 'yes' ? 'no' : left.value === 'no' ? 'yes' : 'maybe';
  if (goesOn === 'no') return left;
  const right = evaluate(n.right, f, reached === 'yes' && goesOn === 'yes' ? 'yes' : 'maybe');
  const value: Tri =
    n.kind === 'list'
      ? right.value
      : n.kind === 'and'
        ? left.value === 'yes'
          ? right.value
          : right.value === 'no'
            ? 'no'
            : 'maybe'
        : left.value === 'no'
          ? right.value
          : right.value === 'yes'
            ? 'yes'
            : 'maybe';
  return { value, removes: left.removes || right.removes, prunes: left.prunes || right.prunes };
}

/** Tests and actions that take no argument; every other `-word` takes one, but `-exec`'s, which run to `;` or `+`. */
const NO_ARGUMENT = new Set([
  '-true',
  '-false',
  '-print',
  '-print0',
  '-ls',
  '-delete',
  '-prune',
  '-quit',
  '-depth',
  '-d',
  '-xdev',
  '-mount',
  '-follow',
  '-noleaf',
  '-readable',
  '-writable',
  '-executable',
  '-nouser',
  '-nogroup',
  '-empty',
  '-ignore_readdir_race',
  '-noignore_readdir_race',
  '-daystart',
  '-nowarn',
  '-warn',
]);
/** The programs a find's `-exec` runs that take a file's content away: removed, shredded or emptied, and the removal programs that act as `rm -rf` (removers.ts). */
export const REMOVERS = new RegExp(`(^|/)(rm|shred|unlink|rmdir|truncate|${RM_LIKE_PROGRAMS.join('|')})$`);

interface Parsed {
  expr: Node;
  maxDepth: number | null;
  depthFirst: boolean;
}

/**
 * The longest expression read (in words) and its deepest group: the reading recurses once per
 * operator and group, so a longer one (`-name a -o` 60,000 times) is not read — it may remove
 * anything.
 */
const READ_WORDS_MAX = 2048;
const READ_GROUPS_MAX = 64;

/** Parses a find expression; null when it cannot be read (an unbalanced group, too long or too deep). */
function parseFind(args: readonly string[], reading: FindReading): Parsed | null {
  if (args.length > READ_WORDS_MAX) return null;
  let open = 0;
  for (const v of args) if ((open += v === '(' ? 1 : v === ')' ? -1 : 0) > READ_GROUPS_MAX) return null;
  let i = 0;
  let maxDepth: number | null = null;
  let depthFirst = false;
  const yes = (): Tri => 'yes';
  const primary = (): Node | null => {
    const v = args[i++];
    if (v === undefined) return null;
    if (v === '(') {
      const e = list();
      return e && args[i++] === ')' ? e : null;
    }
    if (v === '!' || v === '-not') {
      const of = primary();
      return of && { kind: 'not', of };
    }
    if (v === '-exec' || v === '-execdir' || v === '-ok' || v === '-okdir') {
      const removes = REMOVERS.test(args[i] ?? '');
      while (i < args.length && args[i] !== ';' && args[i] !== '+') i++;
      i++;
      return { kind: 'test', value: () => (removes ? 'yes' : 'maybe'), removes: removes || !!reading.everyExec };
    }
    if (v === '-delete') {
      depthFirst = true;
      return { kind: 'test', value: yes, removes: true };
    }
    if (v === '-prune') return { kind: 'test', value: yes, prune: true };
    if (v === '-depth' || v === '-d') depthFirst = true;
    if (v === '-false') return { kind: 'test', value: () => 'no' };
    if (v === '-empty') return { kind: 'test', value: () => reading.empty };
    if (NO_ARGUMENT.has(v) || !v.startsWith('-')) return { kind: 'test', value: v === '-quit' ? () => 'maybe' : yes };
    const arg = args[i++] ?? '';
    if (v === '-maxdepth') maxDepth = /^\d+$/.test(arg) ? Number(arg) : null;
    return { kind: 'test', value: testOf(v, arg) };
  };
  const and = (): Node | null => {
    let left = primary();
    while (left && i < args.length && ![')', '-o', '-or', ','].includes(args[i]!)) {
      if (args[i] === '-a' || args[i] === '-and') i++;
      const right = primary();
      left = right && { kind: 'and', left, right };
    }
    return left;
  };
  const or = (): Node | null => {
    let left = and();
    while (left && (args[i] === '-o' || args[i] === '-or')) {
      i++;
      const right = and();
      left = right && { kind: 'or', left, right };
    }
    return left;
  };
  const list = (): Node | null => {
    let left = or();
    while (left && args[i] === ',') {
      i++;
      const right = or();
      left = right && { kind: 'list', left, right };
    }
    return left;
  };
  const expr = args.length ? list() : { kind: 'test' as const, value: yes };
  return expr && i >= args.length ? { expr, maxDepth, depthFirst } : null;
}

/** What a test with one argument makes of a file: the name, path and type tests read, the rest maybe. */
function testOf(test: string, arg: string): (f: FoundFile) => Tri {
  const tri = (b: boolean): Tri => (b ? 'yes' : 'no');
  switch (test) {
    case '-name':
    case '-iname':
      return (f) => tri(globMatches(arg, f.name, test === '-iname'));
    case '-path':
    case '-ipath':
    case '-wholename':
    case '-iwholename':
      return (f) => (f.under === undefined ? tri(globMatches(arg, f.path, test.startsWith('-i'))) : mayLieBelow(arg, f.under, test.startsWith('-i')));
    case '-regex':
    case '-iregex': {
      const re = emacsRegex(arg, test === '-iregex');
      return (f) => (re && f.under === undefined ? tri(re.test(f.path)) : 'maybe');
    }
    case '-type':
    case '-xtype':
      return (f) => (/^[fd](,[fd])*$/.test(arg) ? tri(arg.split(',').includes(f.dir ? 'd' : 'f')) : 'maybe');
    case '-maxdepth':
    case '-mindepth':
    case '-regextype':
      return () => 'yes';
    default:
      return () => 'maybe';
  }
}

/** Whether a path glob may match a path below `folder`: its literal start (up to the first wildcard) agrees with the folder's path. */
function mayLieBelow(pattern: string, folder: string, ignoreCase: boolean): Tri {
  const cut = pattern.search(/[*?[\\]/);
  const lead = cut < 0 ? pattern : pattern.slice(0, cut);
  const [a, b] = ignoreCase ? [lead.toLowerCase(), `${folder}/`.toLowerCase()] : [lead, `${folder}/`];
  return a.startsWith(b) || b.startsWith(a) ? 'maybe' : 'no';
}

/**
 * find's default (emacs) regular expression as a JavaScript one matching the whole path, or null
 * when it uses what is not translated or could take long to match (more than 3 quantifiers, a
 * quantified group).
 */
function emacsRegex(re: string, ignoreCase: boolean): RegExp | null {
  let out = '';
  for (let k = 0; k < re.length; k++) {
    const c = re[k]!;
    if (c === '\\') {
      const n = re[++k] ?? '';
      if ('()|{}'.includes(n)) out += n;
      else if (/[.*+?[\]^$\\/]/.test(n)) out += `\\${n}`;
      else return null;
    } else if ('(){}|/'.includes(c)) out += `\\${c}`;
    else out += c;
  }
  // backtracking grows with the quantifiers and past a quantified group without bound: such a regex stays unread (maybe)
  const quantifiers = out.replace(/\\./g, '').match(/[*+?{]/g)?.length ?? 0;
  if (quantifiers > 3 || /\)[*+?{]/.test(out.replace(/\\./g, ''))) return null;
  try {
    return new RegExp(`^(?:${out})$`, ignoreCase ? 'i' : '');
  } catch {
    return null;
  }
}

/** Whether a find glob (`*`, `?`, `[...]`; `*` crosses `/` as find's does) matches `text` whole, in linear time (model/glob.ts). */
export function globMatches(pattern: string, text: string, ignoreCase: boolean): boolean {
  return ignoreCase ? globMatcher(pattern.toLowerCase(), FIND_GLOB).test(text.toLowerCase()) : globMatcher(pattern, FIND_GLOB).test(text);
}

const FIND_GLOB = { star: 'path', braces: false, emptyGlobstar: false } as const;

/**
 * A name a find glob matches (`*.bak` gives `x.bak`, `.*rc` `.xrc`, `[!a]x` `bx`), or null when
 * none is found: one instance, so what holds of it holds of a name the glob selects.
 */
export function globSample(pattern: string, ignoreCase = false): string | null {
  let out = '';
  for (let k = 0; k < pattern.length; k++) {
    const c = pattern[k]!;
    if (c === '*' || c === '?') out += 'x';
    else if (c === '\\') out += pattern[++k] ?? '';
    else if (c === '[') {
      const end = pattern.indexOf(']', k + 2);
      if (end < 0) {
        out += c;
        continue;
      }
      const set = pattern.slice(k + 1, end);
      const negated = set.startsWith('!') || set.startsWith('^');
      const chosen = negated ? [...'xyz_0'].find((x) => !globMatches(`[${set}]`, x, ignoreCase)) : set[0];
      if (chosen === undefined) return null;
      out += chosen;
      k = end;
    } else out += c;
  }
  return globMatches(pattern, out, ignoreCase) ? out : null;
}

/**
 * The longest expression (in words) tried name by name (namedSamples, removesSelected): each name
 * is tried against the whole expression, so the work grows with the square of its length. A
 * longer removing expression may remove anything (`find / … -delete` of 200 names is denied).
 */
export const TRIED_WORDS_MAX = 128;

/** A name to try a find expression on, and how a rule shows it: the glob it is an instance of. */
export interface NameSample {
  name: string;
  shown: string;
}

/** The names a find expression's name and path tests select (one instance each), and two names no test names, with and without a leading dot. */
export function namedSamples(expression: readonly string[]): NameSample[] {
  const out = new Map([
    ['\u0001', '*'],
    ['.\u0001', '.*'],
  ]);
  expression.forEach((v, i) => {
    const arg = expression[i + 1];
    if (arg === undefined || !/^-i?(name|path|wholename)$/.test(v)) return;
    const sample = globSample(arg, v.startsWith('-i'));
    const name = sample?.slice(sample.lastIndexOf('/') + 1);
    if (name && !out.has(name)) out.set(name, arg.slice(arg.lastIndexOf('/') + 1));
  });
  return [...out].map(([name, shown]) => ({ name, shown }));
}

/**
 * `target` (an absolute path at or below `rootAbs`, the starting point `root` resolved) as find
 * meets it from `root`: the file, and the folders it goes through, root first.
 */
export function foundBelow(root: string, rootAbs: string, target: string, dir: boolean): { file: FoundFile; above: FoundFile[] } {
  const base = root.replace(/(.)\/+$/, '$1');
  const parts = target === rootAbs ? [] : target.slice(rootAbs === '/' ? 1 : rootAbs.length + 1).split('/');
  let at: FoundFile = { path: base, name: rootAbs.slice(rootAbs.lastIndexOf('/') + 1) || '/', dir: parts.length > 0 || dir, depth: 0 };
  const above: FoundFile[] = [];
  for (const [d, name] of parts.entries()) {
    above.push(at);
    at = foundIn(at, name, d < parts.length - 1 || dir);
  }
  return { file: at, above };
}

/** The file `name` in the folder `parent` as find meets it. */
export function foundIn(parent: FoundFile, name: string, dir: boolean): FoundFile {
  return { path: `${parent.path === '/' ? '' : parent.path}/${name}`, name, dir, depth: parent.depth + 1 };
}

/**
 * Whether what the name or path test `test PATTERN` of a removing find selects under `root` may
 * be removed, read as find evaluates `expression`: a name pruned before `-o` (`-path ./.git -prune
 * -o …`, `\( -name node_modules -o -name .git \) -prune -o …`) or negated (`-not -path
 * './.git/*'`) is kept out; pruned and and-ed with the action (`-name .git -prune -exec rm -rf {}
 * +`) it is removed. A pattern with no instance to try may be.
 */
export function removesSelected(expression: readonly string[], test: string, pattern: string, root: string, reading: FindReading = { empty: 'no' }): boolean {
  if (expression.length > TRIED_WORDS_MAX) return true;
  const sample = globSample(pattern, test.startsWith('-i'));
  if (sample === null) return true;
  const removes = findRemoves(expression, reading);
  const base = root.replace(/(.)\/+$/, '$1');
  const prefix = base === '/' ? '/' : `${base}/`;
  // a path test's instance is placed as find prints it below the root (a pattern starting with `*` takes the root in: `*/.*` is `./x/.y`); a name's directly in it and one folder down
  const path = sample.startsWith(prefix) ? sample : pattern.startsWith('*') ? `${prefix}${sample}` : null;
  const targets = /path$/.test(test) ? (path === null ? null : [path]) : [`${prefix}${sample}`, `${prefix}\u0001/${sample}`];
  if (targets === null) return true;
  return targets.some((t) =>
    [true, false].some((dir) => {
      const { file, above } = foundBelow(base, base, t, dir);
      return removes(file, above);
    }),
  );
}

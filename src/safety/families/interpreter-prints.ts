import type { Lang } from './interpreter-argv.ts';
import { STRING_OPEN } from './interpreter-syntax.ts';
import { readArgs, readString } from './interpreter-values.ts';
import { withLiteralVariables } from './interpreter-variables.ts';

/**
 * What interpreter code prints to stdout, where it prints literals only (families/interpreter.ts
 * printedByCode): the text a later stage of the pipeline reads (`python3 -c 'print("…")' | sh`).
 */

/** The calls that print, per language, each with whether it ends its output with a newline. */
const PRINTS: Partial<Record<Lang, Array<[string, boolean]>>> = {
  python: [
    ['(?<![\\w.])print\\b', true],
    ['\\bsys\\.stdout\\.write\\b', false],
  ],
  js: [
    ['\\bconsole\\.(?:log|info|error|warn)\\b', true],
    ['\\bprocess\\.stdout\\.write\\b', false],
  ],
  perl: [
    ['(?<![\\w$@%>:])say\\b', true],
    ['(?<![\\w$@%>:])print\\b', false],
  ],
  ruby: [
    ['(?<![\\w.$@:])puts\\b', true],
    ['(?<![\\w.$@:])print\\b', false],
  ],
  php: [['(?<![\\w>$:\\\\])(?:echo|print)\\b', false]],
};

const SCANNERS = Object.fromEntries(
  Object.entries(PRINTS).map(([lang, calls]) => [lang, new RegExp(`(${STRING_OPEN[lang as Lang]})|${calls.map(([re]) => `(${re})`).join('|')}`, 'g')]),
) as Partial<Record<Lang, RegExp>>;

/** At most this much code is read, and this much printed text kept. */
const MAX_CODE = 64 * 1024;
const MAX_TEXT = 64 * 1024;

/**
 * The text `code` prints: each print call's literal arguments (side by side, Python's with a
 * blank between), in the order they stand; null when it has none, or one prints what is not a
 * literal (a variable, a call the value reader does not know), or a literal is followed by more
 * of the expression (`puts "x".tr(…)`).
 */
export function printedByCode(code: string, lang: Lang): string | null {
  const re = SCANNERS[lang];
  if (!re || code.length > MAX_CODE) return null;
  const src = withLiteralVariables(code, lang);
  let out = '';
  let printed = false;
  re.lastIndex = 0;
  for (let m = re.exec(src); m; m = re.exec(src)) {
    if (m[1] !== undefined) {
      const s = readString(src, m.index, lang);
      re.lastIndex = Math.max(s?.end ?? 0, m.index + 1);
      continue;
    }
    const g = m.findIndex((x, n) => n > 1 && x !== undefined);
    const newline = PRINTS[lang]![g - 2]![1];
    const args = readArgs(src, m.index + m[0].length, lang);
    const strs = args.values.map((v) => (v && 'str' in v ? v.str : null));
    if (!strs.length || strs.some((s) => s === null) || !/^[ \t]*(?:[;\n)}]|$)/.test(src.slice(args.end))) return null;
    out += strs.join(lang === 'python' ? ' ' : '') + (newline ? '\n' : '');
    printed = true;
    if (out.length > MAX_TEXT) return null;
    re.lastIndex = Math.max(args.end, m.index + 1);
  }
  return printed ? out : null;
}

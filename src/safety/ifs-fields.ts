import { SPLIT, UNKNOWN } from './expand.ts';

/**
 * Bash's field splitting by IFS, where the command line set it (shell-vars.ts, builtin-sets.ts):
 * an unquoted expansion split into words, a line `read` splits among its names.
 */

/** What IFS holds when the command line does not set it. */
const DEFAULT_IFS = ' \t\n';
const IFS_WHITESPACE = new Set(DEFAULT_IFS);
const separators = new Map<string, RegExp>();

/**
 * What separates two fields for an IFS (bash's field splitting): a run of its whitespace, or one
 * of its other characters with its whitespace around. An IFS only the shell knows, or none set,
 * is the default.
 */
function ifsSeparator(ifs: string | undefined): RegExp {
  const chars = ifs === undefined || ifs.includes(UNKNOWN) ? DEFAULT_IFS : ifs;
  let re = separators.get(chars);
  if (re) return re;
  const set = (cs: string[]) => `[${cs.map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}]`;
  const unique = [...new Set(chars)];
  const white = unique.filter((c) => IFS_WHITESPACE.has(c));
  const other = unique.filter((c) => !IFS_WHITESPACE.has(c));
  const w = white.length ? set(white) : '';
  const source = !other.length ? `${w}+` : w ? `${w}*${set(other)}${w}*|${w}+` : set(other);
  re = new RegExp(source, 'g');
  if (separators.size < 64) separators.set(chars, re);
  return re;
}

/**
 * An unquoted expansion's value with SPLIT where the IFS the command line set (`IFS=,; c="rm,-rf,/";
 * $c`; undefined: not set, the default blanks) splits it into words; an empty IFS splits nothing.
 */
export function ifsMarked(value: string, ifs: string | undefined): string {
  return ifs === '' ? value : value.replace(ifsSeparator(ifs), SPLIT);
}

/**
 * The fields `read` splits a line into by `ifs` (undefined: the default; empty: the line whole):
 * the IFS whitespace at its ends trimmed; with `max` names, the last field is the rest of the line.
 */
export function ifsFields(line: string, ifs: string | undefined, max = Number.POSITIVE_INFINITY): string[] {
  if (ifs === '') return [line];
  const chars = ifs === undefined || ifs.includes(UNKNOWN) ? DEFAULT_IFS : ifs;
  const white = [...chars].filter((c) => IFS_WHITESPACE.has(c));
  let start = 0;
  let end = line.length;
  while (start < end && white.includes(line[start]!)) start++;
  while (end > start && white.includes(line[end - 1]!)) end--;
  const text = line.slice(start, end);
  const re = ifsSeparator(ifs);
  const out: string[] = [];
  let pos = 0;
  while (out.length < max - 1) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) break;
    out.push(text.slice(pos, m.index));
    pos = m.index + m[0].length;
  }
  out.push(text.slice(pos));
  return out;
}

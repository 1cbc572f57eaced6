import type { Invocation } from './command.ts';

/**
 * What jq and awk print when all they are handed is literals, so that what they feed a shell is
 * read as the shell's script (fed-input.ts fedText), as `printf '\162\155'` and a Perl one-liner's
 * `pack("H*", …)` are: jq's `-n` filter of a string, decoded by `@base64d` or not (`jq -rn
 * '"cm0g…" | @base64d'`), and awk's `BEGIN` block printing literals and character codes (`awk
 * 'BEGIN{printf "%c%c -rf ~", 114, 109}'`). Anything else they print is left unread (null).
 */

/** A string literal's text with its escapes (`\n`, `\t`, `\"`, `\\`, `\/`). */
function unescape(body: string): string {
  return body.replace(/\\(.)/g, (_, c: string) => ({ n: '\n', t: '\t', r: '\r' })[c] ?? c);
}

const JQ_STRING = /^\s*"((?:[^"\\]|\\.)*)"\s*(\|\s*@base64d\s*)?$/;

/** `jq -rn '"…"'` and `jq -rn '"…" | @base64d'`: the string, decoded. */
function jqPrints(args: readonly string[]): string | null {
  const flags = args.filter((a) => /^-[a-zA-Z]+$/.test(a)).join('');
  const nullInput = flags.includes('n') || args.includes('--null-input');
  const raw = /[rj]/.test(flags) || args.includes('--raw-output') || args.includes('--join-output');
  const filter = args.find((a) => !a.startsWith('-'));
  if (!nullInput || !raw || filter === undefined) return null;
  const m = JQ_STRING.exec(filter);
  if (!m) return null;
  const text = unescape(m[1]!);
  return m[2] ? Buffer.from(text, 'base64').toString('utf8') : text;
}

/** An awk expression list's literals (strings, numbers), split at commas outside strings; null where one is anything else. */
function literals(list: string): (string | number)[] | null {
  const out: (string | number)[] = [];
  const item = /\s*(?:"((?:[^"\\]|\\.)*)"|(-?\d+(?:\.\d+)?))\s*(?:,|$)/y;
  item.lastIndex = 0;
  while (item.lastIndex < list.length) {
    const at = item.lastIndex;
    const m = item.exec(list);
    if (!m || item.lastIndex === at) return null;
    out.push(m[1] !== undefined ? unescape(m[1]) : Number(m[2]));
  }
  return out;
}

/** printf's `%c` (a code's character, a string's first), `%s`, `%d`, `%%`. */
function format(fmt: string, values: readonly (string | number)[]): string | null {
  let i = 0;
  let bad = false;
  const text = fmt.replace(/%([%csd])/g, (_, k: string) => {
    if (k === '%') return '%';
    const v = values[i++];
    if (v === undefined) return '';
    if (k === 'c') return typeof v === 'number' ? String.fromCharCode(v) : v.charAt(0);
    if (k === 'd') return typeof v === 'number' ? String(Math.trunc(v)) : ((bad = true), '');
    return String(v);
  });
  return bad || /%[^%csd]/.test(fmt) ? null : text;
}

const AWK_BEGIN = /^\s*BEGIN\s*\{\s*(printf|print)\b\s*\(?(.*?)\)?\s*;?\s*\}\s*$/s;

/** `awk 'BEGIN{printf "…", 114, 109}'`, `awk 'BEGIN{print "…"}'`: what the block prints. */
function awkPrints(args: readonly string[]): string | null {
  const program = args.find((a) => !a.startsWith('-'));
  const m = program === undefined ? null : AWK_BEGIN.exec(program);
  const values = m ? literals(m[2]!) : null;
  if (!m || !values?.length) return null;
  if (m[1] === 'print') return `${values.join(' ')}\n`;
  return typeof values[0] === 'string' ? format(values[0], values.slice(1)) : null;
}

const AWKS = new Set(['awk', 'gawk', 'mawk', 'nawk', 'busybox-awk']);
const JQS = new Set(['jq', 'gojq', 'jaq']);

/** What `inv` prints of literals (module comment), or null. */
export function literalPrints(inv: Invocation): string | null {
  const args = inv.args.map((w) => w.value);
  if (JQS.has(inv.program)) return jqPrints(args);
  return AWKS.has(inv.program) ? awkPrints(args) : null;
}

/**
 * Bash's operators on a known value inside `${name…}` (shell-words.ts reads the rest): the
 * removal of a prefix or suffix (`${x#pat}`, `${x##pat}`, `${x%pat}`, `${x%%pat}`), replacement
 * (`${x/pat/text}`, `${x//pat/text}`, `${x/#pat/text}`, `${x/%pat/text}`), case (`${x^^}`,
 * `${x,,}`, `${x^}`, `${x,}`) and substrings (`${x:1}`, `${x:1:3}`, `${x: -3}`). A pattern is a
 * glob (`*`, `?`, `[…]`) of plain text; one holding quotes, escapes or expansions, and a case
 * operator given a pattern, are the shell's: null.
 */

/** What `${name<rest>}` gives for `value`; null where `rest` is no operator read here. */
export function applyParameterOperator(value: string, rest: string): string | null {
  if (rest === '^^' || rest === ',,' || rest === '^' || rest === ',') {
    const upper = rest[0] === '^';
    const changed = upper ? value.toUpperCase() : value.toLowerCase();
    return rest.length === 2 ? changed : changed.slice(0, 1) + value.slice(1);
  }
  const substring = /^:\s*(-?[0-9]+)(?::\s*(-?[0-9]+))?$/.exec(rest);
  if (substring) {
    const length = value.length;
    let from = Number(substring[1]);
    if (from < 0) from = Math.max(0, length + from);
    if (substring[2] === undefined) return value.slice(from);
    const count = Number(substring[2]);
    return count < 0 ? value.slice(from, Math.max(from, length + count)) : value.slice(from, from + count);
  }
  const strip = /^(##?|%%?)(.*)$/s.exec(rest);
  if (strip) {
    const pattern = globPattern(strip[2]!);
    if (!pattern) return null;
    return strip[1]![0] === '#' ? stripPrefix(value, pattern, strip[1]!.length === 2) : stripSuffix(value, pattern, strip[1]!.length === 2);
  }
  const replace = /^\/([/#%]?)([^/]*)(?:\/(.*))?$/s.exec(rest);
  if (replace) {
    const pattern = globPattern(replace[2]!);
    const text = replace[3] ?? '';
    if (!pattern || !replace[2] || /[$`'"\\]/.test(text)) return null;
    return replaced(value, pattern, text, replace[1]!);
  }
  return null;
}

/** A glob as an anchored-anywhere regular expression source; null where it holds what the shell reads (quotes, escapes, expansions, extglobs). */
function globPattern(glob: string): string | null {
  if (/[$`'"\\~]|[?*+@!]\(/.test(glob)) return null;
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') out += '[\\s\\S]*';
    else if (c === '?') out += '[\\s\\S]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) out += '\\[';
      else {
        const set = glob.slice(i + 1, end).replace(/^!/, '^');
        if (/\[:/.test(set)) return null;
        out += `[${set.replace(/[\\\]]/g, '\\$&')}]`;
        i = end;
      }
    } else out += c.replace(/[.+^${}()|\\/\]]/g, '\\$&');
  }
  return out;
}

/** `${x#pat}` (shortest) and `${x##pat}` (longest): the value without the prefix the pattern matches. */
function stripPrefix(value: string, pattern: string, longest: boolean): string {
  const re = new RegExp(`^(?:${pattern})$`);
  for (let k = longest ? value.length : 0; longest ? k >= 0 : k <= value.length; k += longest ? -1 : 1) if (re.test(value.slice(0, k))) return value.slice(k);
  return value;
}

/** `${x%pat}` (shortest) and `${x%%pat}` (longest): the value without the suffix the pattern matches. */
function stripSuffix(value: string, pattern: string, longest: boolean): string {
  const re = new RegExp(`^(?:${pattern})$`);
  for (let k = longest ? 0 : value.length; longest ? k <= value.length : k >= 0; k += longest ? 1 : -1) if (re.test(value.slice(k))) return value.slice(0, k);
  return value;
}

/** `${x/pat/text}`: the first longest match replaced; `//` every one, `/#` one at the start, `/%` one at the end. */
function replaced(value: string, pattern: string, text: string, anchor: string): string {
  const source = anchor === '#' ? `^(?:${pattern})` : anchor === '%' ? `(?:${pattern})$` : `(?:${pattern})`;
  const re = new RegExp(source, anchor === '/' ? 'g' : '');
  return value.replace(re, (m) => (m === '' && anchor !== '#' && anchor !== '%' ? m : text));
}

import type { Lang } from './interpreter-argv.ts';
import { STRING_OPEN } from './interpreter-syntax.ts';
import { readExpr, readString } from './interpreter-values.ts';

/**
 * Variables assigned a literal once in interpreter code, read where they are used
 * (`p=".claude/settings.json"; json.dump(d, open(p, "w"))` is `open(".claude/settings.json", "w")`).
 * A name assigned more than once, or assigned anything but a literal, is left as it is.
 */

/** Where an assignment's value starts, per language (group 1: the name). */
const ASSIGN: Partial<Record<Lang, RegExp>> = {
  python: /(?:^|[;\n])[ \t]*([A-Za-z_]\w*)[ \t]*=(?!=)[ \t]*/g,
  ruby: /(?:^|[;\n])[ \t]*([a-z_]\w*)[ \t]*=(?![=~])[ \t]*/g,
  julia: /(?:^|[;\n])[ \t]*([A-Za-z_]\w*)[ \t]*=(?!=)[ \t]*/g,
  js: /(?:^|[;\n{])\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=(?!=)\s*/g,
  r: /(?:^|[;\n])[ \t]*([A-Za-z_][\w.]*)[ \t]*(?:<-|=(?!=))[ \t]*/g,
};

const MAX_CODE = 64 * 1024;
const MAX_NAMES = 32;

/** `code` with each variable assigned one literal replaced, where it is read, by that literal. */
export function withLiteralVariables(code: string, lang: Lang): string {
  const assign = ASSIGN[lang];
  if (!assign || code.length > MAX_CODE) return code;
  const values = new Map<string, string | null>();
  for (const m of code.matchAll(assign)) {
    const name = m[1]!;
    const at = m.index + m[0].length;
    const e = readExpr(code, at, lang);
    // the assignment ends its statement (in JavaScript, or its declarator: `const f = "x", g = …`)
    const rest = code.slice(e.end).match(lang === 'js' ? /^[ \t]*(?:[;\n,]|$)/ : /^[ \t]*(?:[;\n]|$)/);
    values.set(name, values.has(name) || e.value === null || !rest ? null : e.value);
  }
  const known = [...values].filter((e): e is [string, string] => e[1] !== null).slice(0, MAX_NAMES);
  if (!known.length) return code;
  const byName = new Map(known);
  const names = known.map(([n]) => n.replace(/[$.]/g, '\\$&')).join('|');
  const re = new RegExp(`(${STRING_OPEN[lang]})|(?<![\\w.$])(${names})(?![\\w$])(?!\\s*(?:=(?!=)|<-))`, 'g');
  let out = '';
  let pos = 0;
  for (let m = re.exec(code); m; m = re.exec(code)) {
    if (m[1] !== undefined) {
      const s = readString(code, m.index, lang);
      re.lastIndex = Math.max(s?.end ?? 0, m.index + 1);
      continue;
    }
    out += code.slice(pos, m.index) + JSON.stringify(byName.get(m[2]!));
    pos = m.index + m[0].length;
  }
  return out + code.slice(pos);
}

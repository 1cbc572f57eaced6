/**
 * A Makefile's text expanded as make expands it (makefile-rules.ts): its variables (`$(X)`,
 * `${X}`, `$X`, `$(X:.c=.o)`), a recipe's automatic ones (`$@`, `$<`, `$^`, `$(@D)`), and the
 * cheap functions (`$(wildcard …)`, `$(patsubst …)`, `$(addprefix …)`, `$(shell cmd)` as the
 * shell's `$(cmd)`, `$(call …)` of a variable the file defines, `$(foreach …)` over a list it
 * tells); another function is unknown. A variable with several values (set in each
 * branch of a conditional the environment decides) gives a text for each, up to MAX_VALUES.
 */

/** A value a variable may have: its text, and whether it is expanded where used (`=`) or was when set (`:=`). */
export interface Value {
  text: string;
  recursive: boolean;
}

/** A variable's values: one where the file tells it, several where a conditional the environment decides sets it. */
export type Vars = Map<string, Value[]>;

/** What the shell reads for an expansion a project's file does not tell: a variable no line sets, so a word the guard does not know. */
export const UNKNOWN_SHELL_WORD = '${__axme_unknown__}';
/** The marker of an unknown expansion while expanding (U+E001, private use): the shell sees UNKNOWN_SHELL_WORD. */
export const UNKNOWN = '\uE001';

/** How many values one variable or line is read with before it is unknown. */
export const MAX_VALUES = 8;
/** How deep variables expand inside each other. */
const MAX_NESTING = 16;
/** How long an expansion grows before it is unknown. */
const MAX_TEXT = 64 * 1024;

/** The environment's variables a Makefile may use unset (`$(HOME)`), and names of credentials, which the rules read where they are sent. */
const ENVIRONMENT = /^(?:HOME|USER|LOGNAME|PWD|OLDPWD|PATH|TMPDIR|XDG_\w+|GITHUB_\w+|CI)$|TOKEN|SECRET|PASSW(?:OR)?D|API_?KEY|CREDENTIAL/;

/**
 * A variable the Makefile never sets: make's value is the environment's, and empty without one.
 * The environment's own (`$(HOME)`) and a credential's name are the shell's variable (`${HOME}`);
 * any other is empty, as where the environment does not set it (`$(PURIFY) gcc …` is `gcc …`).
 */
export function unset(name: string): string {
  return ENVIRONMENT.test(name) && /^[A-Za-z_]\w*$/.test(name) ? `\${${name}}` : '';
}

/** The automatic variables of one target's recipe. */
export interface Auto {
  '@': string;
  '<': string;
  '^': string;
  '+': string;
  '?': string;
  '*': string;
  '|': string;
}

/** An expansion as the shell reads it: what the file does not tell is a word the guard does not know. */
export function shellText(text: string): string {
  return text.replaceAll(UNKNOWN, UNKNOWN_SHELL_WORD);
}

/** Several values as one text (a target's or a variable's name, where one is expected): unknown when there are more than one. */
export function joinValues(values: string[]): string {
  return values.length === 1 ? values[0]! : UNKNOWN;
}

export function words(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/** Every combination of the parts' values, up to MAX_VALUES (past it, one unknown). */
function combine(parts: string[][]): string[] {
  let out = [''];
  for (const p of parts) {
    if (p.length === 1) out = out.map((o) => o + p[0]);
    else out = out.flatMap((o) => p.map((v) => o + v));
    if (out.length > MAX_VALUES || out.some((o) => o.length > MAX_TEXT)) return [UNKNOWN];
  }
  return out;
}

/** The texts `text` expands to, each a value of its variables (`auto`: a recipe's automatic variables). */
export function expand(vars: Vars, text: string, auto: Auto | null, depth: number): string[] {
  if (depth > MAX_NESTING) return [UNKNOWN];
  const parts: string[][] = [];
  let from = 0;
  for (let i = text.indexOf('$'); i >= 0 && i < text.length; i = text.indexOf('$', from)) {
    parts.push([text.slice(from, i)]);
    const c = text[i + 1];
    if (c === undefined) {
      from = i + 1;
      parts.push(['$']);
      break;
    }
    if (c === '$') {
      parts.push(['$']);
      from = i + 2;
      continue;
    }
    if (c !== '(' && c !== '{') {
      parts.push(reference(vars, c, auto, depth));
      from = i + 2;
      continue;
    }
    const end = closing(text, i + 1);
    if (end < 0) {
      parts.push([UNKNOWN]);
      from = text.length;
      break;
    }
    parts.push(call(vars, text.slice(i + 2, end), auto, depth));
    from = end + 1;
  }
  parts.push([text.slice(from)]);
  return combine(parts);
}

/** The index of the bracket that closes the one at `open`, counting the same kind inside; -1 when none does. */
function closing(text: string, open: number): number {
  const [o, c] = text[open] === '(' ? ['(', ')'] : ['{', '}'];
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === o) depth++;
    else if (text[i] === c && --depth === 0) return i;
  }
  return -1;
}

/** A variable's values (`$X`, `$(X)`, `$@`): a recipe's automatic one, the file's, else the environment's (`${X}` to the shell). */
function reference(vars: Vars, name: string, auto: Auto | null, depth: number): string[] {
  const a = /^([@<^+?*|])([DF]?)$/.exec(name);
  if (a) {
    if (!auto) return [UNKNOWN];
    const v = auto[a[1] as keyof Auto];
    return [a[2] === 'D' ? words(v).map(dirOf).join(' ') : a[2] === 'F' ? words(v).map(fileOf).join(' ') : v];
  }
  const values = vars.get(name);
  if (!values) return [unset(name)];
  const out = values.flatMap((v) => (v.recursive ? expand(vars, v.text, auto, depth + 1) : [v.text]));
  return out.length > MAX_VALUES ? [UNKNOWN] : out;
}

/** `$(…)`: a variable (`$(X)`, `$(X:.c=.o)`, a computed name), or one of make's functions; another function is unknown. */
function call(vars: Vars, inner: string, auto: Auto | null, depth: number): string[] {
  const fn = /^([a-z-]+)[ \t]+([\s\S]*)$/.exec(inner);
  if (!fn) {
    const sub = /^([^:]+):([^=]*)=(.*)$/.exec(inner);
    const names = expand(vars, sub ? sub[1]! : inner, auto, depth + 1);
    const values = names.flatMap((n) => (n.includes(UNKNOWN) ? [UNKNOWN] : reference(vars, n.trim(), auto, depth + 1)));
    if (!sub) return values;
    const [from, to] = [sub[2]!, sub[3]!];
    const pattern = from.includes('%') ? from : `%${from}`;
    const replacement = from.includes('%') ? to : `%${to}`;
    return values.map((v) => patsubst(pattern, replacement, v));
  }
  const name = fn[1]!;
  if (name === 'call') return callOf(vars, splitArgs(fn[2]!), auto, depth);
  if (name === 'foreach') return foreachOf(vars, splitArgs(fn[2]!), auto, depth);
  const args = splitArgs(fn[2]!).map((a) => expand(vars, a, auto, depth + 1));
  if (args.some((a) => a.length > 1)) return [UNKNOWN];
  const arg = args.map((a) => a[0]!);
  switch (name) {
    case 'shell':
      return [`$(${arg.join(',')})`];
    case 'wildcard':
    case 'strip':
      return [words(arg.join(',')).join(' ')];
    case 'sort':
      return [[...new Set(words(arg[0] ?? ''))].sort().join(' ')];
    case 'subst':
      return [(arg[2] ?? '').replaceAll(arg[0] ?? '', arg[1] ?? '')];
    case 'patsubst':
      return [patsubst(arg[0] ?? '', arg[1] ?? '', arg[2] ?? '')];
    case 'firstword':
      return [words(arg[0] ?? '')[0] ?? ''];
    case 'lastword':
      return [words(arg[0] ?? '').at(-1) ?? ''];
    case 'notdir':
      return [
        words(arg[0] ?? '')
          .map(fileOf)
          .join(' '),
      ];
    case 'dir':
      return [
        words(arg[0] ?? '')
          .map(dirOf)
          .join(' '),
      ];
    case 'addprefix':
      return [
        words(arg[1] ?? '')
          .map((w) => (arg[0] ?? '') + w)
          .join(' '),
      ];
    case 'addsuffix':
      return [
        words(arg[1] ?? '')
          .map((w) => w + (arg[0] ?? ''))
          .join(' '),
      ];
    case 'info':
    case 'warning':
    case 'error':
      return [''];
    default:
      return [UNKNOWN];
  }
}

/** How many words a `$(foreach …)` walks before it is unknown. */
const MAX_FOREACH = 256;

/**
 * `$(call name,a,b)`: the value of the file's variable `name` expanded with `$(1)`, `$(2)`… the
 * arguments (`$(0)` the name); unknown where the file does not define `name` with one value.
 */
function callOf(vars: Vars, raw: string[], auto: Auto | null, depth: number): string[] {
  const name = expand(vars, raw[0] ?? '', auto, depth + 1);
  const def = name.length === 1 ? vars.get(name[0]!.trim()) : undefined;
  const args = raw.slice(1).map((a) => expand(vars, a, auto, depth + 1));
  if (def?.length !== 1 || args.some((a) => a.length !== 1)) return [UNKNOWN];
  const local: Vars = new Map(vars);
  local.set('0', [{ text: name[0]!.trim(), recursive: false }]);
  args.forEach((a, i) => local.set(String(i + 1), [{ text: a[0]!, recursive: false }]));
  return def[0]!.recursive ? expand(local, def[0]!.text, auto, depth + 1) : [def[0]!.text];
}

/**
 * `$(foreach v,list,text)`: `text` expanded once for each word of `list`, `$(v)` that word; unknown
 * where the list names a variable the file does not define (the environment's), or is too long.
 */
function foreachOf(vars: Vars, raw: string[], auto: Auto | null, depth: number): string[] {
  if (raw.length < 3) return [UNKNOWN];
  const listText = raw[1]!;
  const name = expand(vars, raw[0]!, auto, depth + 1);
  const list = expand(vars, listText, auto, depth + 1);
  const named = [...listText.matchAll(/\$[({]([^\s:(){}$,]+)[)}]|\$([A-Za-z_])/g)].map((m) => m[1] ?? m[2]!);
  if (name.length !== 1 || list.length !== 1 || (name[0]! + list[0]!).includes(UNKNOWN) || named.some((n) => !vars.has(n))) return [UNKNOWN];
  const items = words(list[0]!);
  if (items.length > MAX_FOREACH) return [UNKNOWN];
  const body = raw.slice(2).join(',');
  const out: string[] = [];
  for (const item of items) {
    const local: Vars = new Map(vars);
    local.set(name[0]!.trim(), [{ text: item, recursive: false }]);
    const texts = expand(local, body, auto, depth + 1);
    if (texts.length !== 1) return [UNKNOWN];
    out.push(texts[0]!);
  }
  return [out.join(' ')];
}

/** A function's arguments, split at the commas outside brackets. */
export function splitArgs(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '{') depth++;
    else if (c === ')' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(text.slice(from, i));
      from = i + 1;
    }
  }
  out.push(text.slice(from));
  return out;
}

/** `$(patsubst %.c,%.o,…)`: each word the pattern matches, replaced (a pattern without `%` matches a word whole). */
function patsubst(pattern: string, replacement: string, text: string): string {
  const at = pattern.indexOf('%');
  return words(text)
    .map((w) => {
      if (at < 0) return w === pattern ? replacement : w;
      const [pre, post] = [pattern.slice(0, at), pattern.slice(at + 1)];
      if (w.length < pre.length + post.length || !w.startsWith(pre) || !w.endsWith(post)) return w;
      return replacement.replace('%', w.slice(pre.length, w.length - post.length));
    })
    .join(' ');
}

function dirOf(w: string): string {
  const at = w.lastIndexOf('/');
  return at < 0 ? './' : w.slice(0, at + 1);
}

function fileOf(w: string): string {
  return w.slice(w.lastIndexOf('/') + 1);
}

/**
 * The system family's check on a command line's own functions (docs/safety.md): a fork bomb — a
 * function whose body starts itself (or a function that starts it again) in the background or in
 * a pipeline, called on the line: `:(){ :|:& };:`, `bomb(){ bomb | bomb & }; bomb`, `f(){ f & f;
 * }; f`. Each call starts processes that start more, until the machine can start none: every
 * program of the user, the agent's client too, fails until it is restarted. A recursive function
 * whose call waits (`walk(){ …; walk "$d"; }`) and a function that starts another program in the
 * background (`f(){ npm test & }; f`) pass.
 *
 * The parser (shell.ts) gives the commands a line runs, not where `&` sends them nor which body
 * each stands in, so the line is read here for those alone: its words and operators, quotes,
 * substitutions, comments and heredoc bodies skipped as text.
 */

type Token = { op: string } | { word: string };

/** The operators that end a word; `(`/`)` only group here. */
const OPS = ['&&', '||', ';;', '|&', '&', '|', ';', '(', ')', '\n'];
const BLANK = /[ \t\r]/;
/** Characters that mean nothing but themselves here, in a run. */
const PLAIN = /[^ \t\r\n\\'"`$<>&|;()]+/y;
/** Words that start a command without being its program. */
const RESERVED = new Set(['{', '}', '!', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'for', 'in', 'case', 'esac', 'time', 'coproc']);

/**
 * The index after the quote, substitution or backquote opening at `i` (balanced, quotes inside
 * skipped); `subs` gets the text of each substitution met (`$(…)`, `<(…)`, backquotes), which runs a line of its own.
 */
function skipQuoted(src: string, i: number, subs: string[]): number {
  const c = src[i]!;
  if (c === "'") {
    const end = src.indexOf("'", i + 1);
    return end < 0 ? src.length : end + 1;
  }
  if (c === '"' || c === '`') {
    let k = i + 1;
    while (k < src.length && src[k] !== c) {
      if (src[k] === '\\') k += 2;
      else if (c === '"' && (src[k] === '`' || (src[k] === '$' && (src[k + 1] === '(' || src[k + 1] === '{')))) k = skipQuoted(src, k, subs);
      else k++;
    }
    if (c === '`') subs.push(src.slice(i + 1, k));
    return Math.min(src.length, k + 1);
  }
  // `$(…)`, `${…}`, `$((…))`, `<(…)`: to the bracket that closes it
  const open = src[i + 1]!;
  const close = open === '(' ? ')' : '}';
  let depth = 0;
  let k = i + 1;
  while (k < src.length) {
    const d = src[k]!;
    // what is substituted within it is read when it is
    if (d === "'" || d === '"' || d === '`') {
      k = skipQuoted(src, k, []);
      continue;
    }
    if (d === '\\') k++;
    else if (d === open) depth++;
    else if (d === close && --depth === 0) {
      if (open === '(') subs.push(src.slice(i + 2, k));
      return k + 1;
    }
    k++;
  }
  return src.length;
}

/** The words and operators of a line; redirections with their targets, comments and heredoc bodies dropped; `subs` gets the text of each substitution (`$(…)`, `<(…)`, backquotes). */
function tokens(src: string, subs: string[]): Token[] {
  const out: Token[] = [];
  const heredocs: Array<{ delim: string; strip: boolean }> = [];
  let i = 0;
  let word = '';
  let redirect = false;
  const end = () => {
    if (!word) return;
    if (redirect) redirect = false;
    else out.push({ word });
    word = '';
  };
  while (i < src.length) {
    // a run of plain characters at once
    PLAIN.lastIndex = i;
    const run = PLAIN.exec(src);
    if (run && (word || src[i] !== '#')) {
      word += run[0];
      i += run[0].length;
      continue;
    }
    const c = src[i]!;
    if (BLANK.test(c)) {
      end();
      i++;
    } else if (c === '#' && !word) {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (c === '\\') {
      if (src[i + 1] !== '\n') word += src.slice(i, i + 2);
      i += 2;
    } else if (c === "'" || c === '"' || c === '`' || (/[$<>]/.test(c) && src[i + 1] === '(') || (c === '$' && src[i + 1] === '{')) {
      const next = skipQuoted(src, i, subs);
      word += src.slice(i, next);
      i = next;
    } else if (c === '<' || c === '>' || (c === '&' && src[i + 1] === '>')) {
      // a redirection (its descriptor, `2>`, is no word): its operator, then its target word, which is no command
      if (/^\d+$/.test(word)) word = '';
      end();
      const m = /^(&>>?|<<-?|<<<|<>|>>|>\||[<>]&?)/.exec(src.slice(i, i + 3))!;
      i += m[0].length;
      const duplicated = m[0].endsWith('&') ? /^(\d+-?|-)/.exec(src.slice(i, i + 12)) : null;
      if (duplicated) i += duplicated[0].length;
      else if (m[0] === '<<' || m[0] === '<<-') {
        const rest = /^[ \t]*(['"]?)([^\s'";&|<>()]+)\1/.exec(src.slice(i, i + 256));
        if (rest) {
          heredocs.push({ delim: rest[2]!, strip: m[0] === '<<-' });
          i += rest[0].length;
        }
      } else redirect = true;
    } else {
      const op = OPS.find((o) => src.startsWith(o, i));
      if (!op) {
        word += c;
        i++;
        continue;
      }
      end();
      i += op.length;
      out.push({ op: op === '\n' ? ';' : op });
      // a heredoc's body follows the line it is named on: text, not commands
      if (op === '\n')
        for (const h of heredocs.splice(0)) {
          for (;;) {
            const eol = src.indexOf('\n', i);
            const line = src.slice(i, eol < 0 ? src.length : eol);
            i = eol < 0 ? src.length : eol + 1;
            if ((h.strip ? line.replace(/^\t+/, '') : line) === h.delim || eol < 0) break;
          }
        }
    }
  }
  end();
  return out;
}

/** A call of a function: who calls it (null: the line itself) and whether it starts it beside itself (`&`, a pipeline). */
interface Call {
  caller: string | null;
  callee: string;
  spawned: boolean;
}

const isOp = (t: Token | undefined, op?: string): t is { op: string } => t !== undefined && 'op' in t && (op === undefined || t.op === op);
const wordOf = (t: Token | undefined): string | null => (t && 'word' in t ? t.word : null);

/** The function a definition starting at token `i` names, and the index of its body's `{` or `(`; null if none starts there. */
function definitionAt(ts: readonly Token[], i: number): { name: string; at: number } | null {
  let name: string | null = null;
  let at = i;
  if (wordOf(ts[i]) === 'function' && wordOf(ts[i + 1])) {
    name = wordOf(ts[i + 1]);
    at = i + 2;
    if (isOp(ts[at], '(') && isOp(ts[at + 1], ')')) at += 2;
  } else if (wordOf(ts[i]) && isOp(ts[i + 1], '(') && isOp(ts[i + 2], ')')) {
    name = wordOf(ts[i]);
    at = i + 3;
  }
  if (!name) return null;
  while (isOp(ts[at], ';')) at++;
  return wordOf(ts[at]) === '{' || isOp(ts[at], '(') ? { name, at } : null;
}

/** The functions a line defines and every call of one of them, read from its tokens in one pass. */
function callsOf(ts: readonly Token[]): Call[] {
  // the function whose body each token is in (the innermost), from its `{` or `(` to the one that closes it
  const owner: Array<string | null> = new Array(ts.length).fill(null);
  const names = new Set<string>();
  const open: Array<{ name: string; brace: boolean; depth: number }> = [];
  for (let i = 0; i < ts.length; i++) {
    const def = definitionAt(ts, i);
    const top = open.at(-1);
    if (def) {
      names.add(def.name);
      open.push({ name: def.name, brace: wordOf(ts[def.at]) === '{', depth: 1 });
      for (let k = i; k < def.at; k++) owner[k] = top?.name ?? null;
      i = def.at;
      continue;
    }
    const t = ts[i]!;
    if (top) {
      if (top.brace ? wordOf(t) === '{' : isOp(t, '(')) top.depth++;
      else if ((top.brace ? wordOf(t) === '}' : isOp(t, ')')) && --top.depth === 0) {
        open.pop();
        continue;
      }
    }
    owner[i] = top?.name ?? null;
  }
  const calls: Call[] = [];
  let start = true;
  for (let i = 0; i < ts.length; i++) {
    const w = wordOf(ts[i]);
    if (w === null) {
      start = true;
      continue;
    }
    if (!start || RESERVED.has(w) || /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(w)) continue;
    start = false;
    // a definition's name is no call
    if (!names.has(w) || definitionAt(ts, i)) continue;
    // the operators after the command's words and before them
    let k = i + 1;
    while (k < ts.length && !isOp(ts[k])) k++;
    let b = i - 1;
    while (b >= 0 && !isOp(ts[b])) b--;
    const opAt = (at: number) => {
      const t = ts[at];
      return isOp(t) ? t.op : null;
    };
    const after = opAt(k);
    const before = opAt(b);
    const spawned = after === '&' || after === '|' || after === '|&' || before === '|' || before === '|&';
    calls.push({ caller: owner[i] ?? null, callee: w, spawned });
  }
  return calls;
}

/** The calls between bodies as lists: what each function calls, and what calls it. */
interface CallGraph {
  nodes: Set<string>;
  out: Map<string, string[]>;
  into: Map<string, string[]>;
}

function graphOf(calls: readonly Call[]): CallGraph {
  const g: CallGraph = { nodes: new Set(), out: new Map(), into: new Map() };
  const add = (m: Map<string, string[]>, a: string, b: string) => {
    const list = m.get(a);
    if (list) list.push(b);
    else m.set(a, [b]);
  };
  for (const c of calls) {
    g.nodes.add(c.callee);
    if (c.caller === null) continue;
    g.nodes.add(c.caller);
    add(g.out, c.caller, c.callee);
    add(g.into, c.callee, c.caller);
  }
  return g;
}

/**
 * The functions that start each other in a circle (the strongly connected parts of the graph,
 * Kosaraju's two passes, without recursion): each function's part.
 */
function circles(g: CallGraph): Map<string, number> {
  // the first pass: the order in which each function's calls are done
  const done: string[] = [];
  const seen = new Set<string>();
  for (const n of g.nodes) {
    if (seen.has(n)) continue;
    seen.add(n);
    const stack: Array<{ n: string; k: number }> = [{ n, k: 0 }];
    while (stack.length) {
      const top = stack.at(-1)!;
      const next = g.out.get(top.n)?.[top.k++];
      if (next === undefined) {
        done.push(top.n);
        stack.pop();
      } else if (!seen.has(next)) {
        seen.add(next);
        stack.push({ n: next, k: 0 });
      }
    }
  }
  // the second: what reaches each, latest done first, is its part
  const part = new Map<string, number>();
  for (let d = done.length - 1; d >= 0; d--) {
    const root = done[d]!;
    if (part.has(root)) continue;
    part.set(root, d);
    const stack = [root];
    while (stack.length)
      for (const m of g.into.get(stack.pop()!) ?? [])
        if (!part.has(m)) {
          part.set(m, d);
          stack.push(m);
        }
  }
  return part;
}

/** The functions the line's own calls start, through the bodies' calls. */
function startedByLine(calls: readonly Call[], g: CallGraph): Set<string> {
  const started = new Set(calls.filter((c) => c.caller === null).map((c) => c.callee));
  const todo = [...started];
  while (todo.length)
    for (const next of g.out.get(todo.pop()!) ?? [])
      if (!started.has(next)) {
        started.add(next);
        todo.push(next);
      }
  return started;
}

/** A line that may define a function. */
const DEFINES = /\(\s*\)|\bfunction\b/;

/** How deep substitutions within substitutions are read. */
const MAX_NESTING = 8;

/** The hit of a line (or, `depth` deep, a substitution in it) that defines a fork bomb and calls it, or null. */
export function checkForkBomb(src: string, depth = 0): { rule: string; reason: string } | null {
  // no definition, no bomb: `name()` or `function name`
  if (depth > MAX_NESTING || !DEFINES.test(src)) return null;
  const subs: string[] = [];
  const calls = callsOf(tokens(src, subs));
  // `echo "$(f(){ f|f& }; f)"`: a substitution runs its own line
  for (const sub of subs) {
    const hit = checkForkBomb(sub, depth + 1);
    if (hit) return hit;
  }
  // a body that starts beside itself a function that starts that body again (itself, or through others)
  const spawning = calls.filter((c) => c.caller !== null && c.spawned);
  if (!spawning.length) return null;
  const g = graphOf(calls);
  const part = circles(g);
  const started = startedByLine(calls, g);
  const bomb = spawning.find((c) => part.get(c.caller!) === part.get(c.callee) && started.has(c.caller!))?.caller;
  if (!bomb) return null;
  return {
    rule: `fork bomb ${bomb}`,
    reason: `\`${bomb}\` starts itself again beside itself (in the background or a pipeline), and each copy does the same: the processes multiply until the machine can start none, and every program of the user fails until it is restarted`,
  };
}

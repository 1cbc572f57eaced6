import { shellQuote } from '../model/shell-quote.ts';
import { justRecipes, readJustfile } from './justfile-recipes.ts';

/**
 * The task runners besides make and the package managers whose file a command line may write and
 * then run (`printf 'default:\n  rm -rf ~\n' > justfile && just`): which files each reads, and
 * what it runs of a file's text — just's recipes (justfile-recipes.ts), the commands of a
 * Taskfile's tasks (`cmds:`, `cmd:`), poe's tasks in pyproject.toml (`x = "…"`, `cmd`, `shell`),
 * a Rakefile as the Ruby it is (rake's `sh` is Ruby's `system`). Of a Taskfile, poe's tasks and a
 * Rakefile every task is read, whichever the command names: a task runs others (`task: other`,
 * `sequence`, a Rake prerequisite), and reading all of them is the safe side.
 * written-scripts.ts reads a file the line wrote with it.
 */

export type TaskRunner = 'just' | 'task' | 'poe' | 'rake';

/** The file names each runner looks for in the folder it runs in, and its options that name the file or the folder. */
const RUNNERS: Record<TaskRunner, { names: readonly string[]; file: RegExp | null; dir: RegExp | null }> = {
  just: { names: ['justfile', 'Justfile', '.justfile', 'JUSTFILE'], file: /^(?:-f|--justfile)$/, dir: /^(?:-d|--working-directory)$/ },
  task: {
    names: [
      'Taskfile.yml',
      'taskfile.yml',
      'Taskfile.yaml',
      'taskfile.yaml',
      'Taskfile.dist.yml',
      'taskfile.dist.yml',
      'Taskfile.dist.yaml',
      'taskfile.dist.yaml',
    ],
    file: /^(?:-t|--taskfile)$/,
    dir: /^(?:-d|--dir)$/,
  },
  poe: { names: ['pyproject.toml'], file: null, dir: /^(?:-C|--root|--directory)$/ },
  rake: { names: ['rakefile', 'Rakefile', 'rakefile.rb', 'Rakefile.rb'], file: /^(?:-f|--rakefile)$/, dir: /^(?:-C|--directory)$/ },
};

/** The runner `program` is, or null. */
export function taskRunnerOf(program: string): TaskRunner | null {
  return Object.hasOwn(RUNNERS, program) ? (program as TaskRunner) : null;
}

/** The files `runner` run with `args` reads (relative to the folder it runs in), and the words after its options (the tasks it names). */
export function taskFilesRead(runner: TaskRunner, args: readonly string[]): { files: string[]; words: string[] } {
  const spec = RUNNERS[runner];
  let file: string | null = null;
  let dir = '';
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const eq = /^(--[\w-]+)=(.*)$/.exec(a);
    const [name, value] = eq ? [eq[1]!, eq[2]!] : [a, args[i + 1]];
    if (spec.file?.test(name) || spec.dir?.test(name)) {
      if (spec.file?.test(name)) file = value ?? null;
      else dir = value ? `${value.replace(/\/+$/, '')}/` : '';
      if (!eq) i++;
    } else if (!a.startsWith('-')) words.push(a);
  }
  const files = file !== null ? [file.startsWith('/') ? file : dir + file] : spec.names.map((n) => dir + n);
  return { files, words };
}

/** What `runner` runs of a file's `text` for the tasks `words` name, as a command line the guard walks; null where it runs nothing read. */
export function taskScript(runner: TaskRunner, text: string, words: readonly string[]): string | null {
  if (runner === 'just') {
    const jf = readJustfile(text);
    const lines = jf ? justRecipes(jf, words).flatMap((r) => r.lines) : [];
    return lines.length ? lines.join('\n') : null;
  }
  // rake's `sh "…"` (`sh(…)`, `sh %q(…)`), a statement of its own, runs its string in a shell, as Ruby's `system` does
  if (runner === 'rake') return `ruby -e ${shellQuote(text.replace(/(^|[;{]|\bdo\b|\bthen\b)([ \t]*)sh(?=[ \t]*[("'%]|[ \t]+\w)/gm, '$1$2system'))}`;
  const lines = runner === 'task' ? taskfileCommands(text) : poeCommands(text);
  return lines.length ? lines.join('\n') : null;
}

/** A YAML scalar as its text: quotes taken off. */
function scalar(value: string): string {
  const v = value.trim();
  const q = /^"((?:[^"\\]|\\.)*)"$|^'((?:[^']|'')*)'$/.exec(v);
  if (!q) return v;
  return q[1] !== undefined ? q[1].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c)) : q[2]!.replace(/''/g, "'");
}

/** A YAML flow sequence's items (`[a, "b, c"]`), split at top-level commas. */
function flowItems(inner: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote = '';
  for (const ch of inner) {
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === ',') {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += ch;
  }
  out.push(cur);
  return out.map(scalar).filter(Boolean);
}

/** The indentation of a line. */
function indent(line: string): number {
  return /^ */.exec(line)![0].length;
}

/**
 * Every command of a Taskfile's tasks: the items of each `cmds:` (a flow `[a, b]` or a block of
 * `- …`, a `cmd:` or `defer:` item's value; a `task:` item calls a task, read anyway), each
 * `cmd:`, a `|` or `>` block scalar as its lines.
 */
function taskfileCommands(text: string): string[] {
  const lines = text.split(/\r?\n/);
  const out: string[] = [];
  /** a value, or the block scalar it opens on the lines after `at` (deeper than `depth`) */
  const valueAt = (value: string, at: number, depth: number): string => {
    if (!/^[|>][-+]?\s*$/.test(value.trim())) return scalar(value);
    const body: string[] = [];
    for (let j = at + 1; j < lines.length && (!lines[j]!.trim() || indent(lines[j]!) > depth); j++) body.push(lines[j]!.trim());
    return body.join('\n');
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const depth = indent(line);
    const m = /^\s*(?:-\s+)?(cmds|cmd|defer)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const value = m[2]!.trim();
    if (m[1] !== 'cmds') {
      if (value) out.push(valueAt(value, i, depth));
      continue;
    }
    const flow = /^\[(.*)\]$/.exec(value);
    if (flow) {
      out.push(...flowItems(flow[1]!));
      continue;
    }
    // a block of items: `- cmd`, `- cmd: …` (read by the `cmd:` match above), `- task: x`
    for (let j = i + 1; j < lines.length && (!lines[j]!.trim() || indent(lines[j]!) > depth || /^\s*-\s/.test(lines[j]!)); j++) {
      const item = /^(\s*)-\s+(.*)$/.exec(lines[j]!);
      if (!item || item[1]!.length < depth) break;
      if (/^[\w-]+\s*:(\s|$)/.test(item[2]!)) continue;
      out.push(valueAt(item[2]!, j, item[1]!.length));
    }
  }
  return out.filter((c) => c.trim());
}

/** A TOML string (`"…"`, `'…'`, `"""…"""` on one line) as its text; null for another value. */
function tomlString(value: string): string | null {
  const v = value.trim();
  const m = /^"""([\s\S]*)"""|^'''([\s\S]*)'''|^"((?:[^"\\]|\\.)*)"|^'([^']*)'/.exec(v);
  if (!m) return null;
  if (m[3] !== undefined) return m[3].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
  return (m[1] ?? m[2] ?? m[4])!;
}

/**
 * Every command of poe's tasks in a pyproject.toml: under `[tool.poe.tasks]` a task given as a
 * string (`x = "…"`, a cmd task) or an inline table's `cmd`/`shell`; under `[tool.poe.tasks.x]`
 * its `cmd` and `shell`.
 */
function poeCommands(text: string): string[] {
  const out: string[] = [];
  let table = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?$/.exec(line);
    if (header) {
      table = header[1]!.replace(/["']/g, '');
      continue;
    }
    if (!table.startsWith('tool.poe.tasks')) continue;
    const kv = /^["']?([\w.-]+)["']?\s*=\s*(.*)$/.exec(line);
    if (!kv) continue;
    const [key, value] = [kv[1]!, kv[2]!];
    if (table === 'tool.poe.tasks') {
      const s = tomlString(value);
      if (s !== null) out.push(s);
      for (const m of value.matchAll(/\b(?:cmd|shell)\s*=\s*("(?:[^"\\]|\\.)*"|'[^']*')/g)) out.push(tomlString(m[1]!)!);
    } else if (key === 'cmd' || key === 'shell') {
      const s = tomlString(value);
      if (s !== null) out.push(s);
    }
  }
  return out.filter((c) => c.trim());
}

import { isDeepStrictEqual } from 'node:util';
import { parse as parseToml } from 'smol-toml';
import { AxmeError } from '../../model/errors.ts';

/**
 * Codex's `.codex/config.toml`: the server is the table `[mcp_servers.axme]`. The user's file is
 * never rewritten: the table is appended when absent, and when present exactly its lines (from
 * its header to its last key, before the next table header) are replaced or removed — every other
 * byte stays, comments and formatting included. A file that holds `mcp_servers.axme` in a form
 * this does not edit (an inline table, dotted keys, an array of tables) is refused (CONFIG)
 * rather than guessed at. Every edit is checked with a TOML parser: the new text must parse to
 * the old one's data plus (or minus) exactly axme's table, or nothing is written (CONFIG). Pure:
 * text in, text out.
 */

export interface TomlTableFormat {
  kind: 'toml';
}

const TABLE = ['mcp_servers', 'axme'];

/** A TOML basic string: backslash, double quote and control characters escaped. */
export function tomlString(value: string): string {
  const escaped = value.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => {
    const named: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };
    return named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return `"${escaped}"`;
}

/** Codex's server: a command it starts (stdio), or a Streamable HTTP URL with the variable its bearer token is read from. */
export type CodexEntry = { command: string; args: string[]; env_vars?: string[] } | { url: string; bearer_token_env_var?: string };

/** The lines of the `[mcp_servers.axme]` table for `entry`. */
export function codexTable(entry: CodexEntry): string[] {
  if ('url' in entry)
    return [
      '[mcp_servers.axme]',
      `url = ${tomlString(entry.url)}`,
      ...(entry.bearer_token_env_var ? [`bearer_token_env_var = ${tomlString(entry.bearer_token_env_var)}`] : []),
    ];
  return [
    '[mcp_servers.axme]',
    `command = ${tomlString(entry.command)}`,
    `args = [${entry.args.map(tomlString).join(', ')}]`,
    ...(entry.env_vars?.length ? [`env_vars = [${entry.env_vars.map(tomlString).join(', ')}]`] : []),
  ];
}

/** The file's text with the axme table set to `entry`; CONFIG when the edit would change anything else. */
export function mergeCodexServer(text: string | null, entry: CodexEntry, path: string): string {
  const before = text === null || text.trim() === '' ? {} : parsed(text, path);
  const out = mergeText(text, entry, path);
  const after = parsed(out, path, codexTable(entry));
  const table = after.mcp_servers?.axme ?? {};
  const old = before.mcp_servers?.axme ?? {};
  // axme's keys as given; any other key of the table is a sub-table of the user's, kept as it was
  const same = Object.entries(table).every(([k, v]) =>
    k in entry ? isDeepStrictEqual(v, plain((entry as Record<string, unknown>)[k])) : isDeepStrictEqual(v, old[k]),
  );
  const complete = Object.entries(entry).every(([k, v]) => v === undefined || k in table);
  if (!same || !complete || !isDeepStrictEqual(withoutAxme(after), withoutAxme(before))) throw unsafe(path, 'add', codexTable(entry));
  return out;
}

/** The file's text without the axme table (null: nothing else is left); the same text when there is none. CONFIG when the edit would change anything else. */
export function removeCodexServer(text: string, path: string): string | null {
  const before = parsed(text, path);
  const out = removeText(text, path);
  const after = out === null ? {} : parsed(out, path, []);
  if (after.mcp_servers?.axme !== undefined || !isDeepStrictEqual(withoutAxme(after), withoutAxme(before))) throw unsafe(path, 'remove');
  return out;
}

function mergeText(text: string | null, entry: CodexEntry, path: string): string {
  const table = codexTable(entry);
  if (text === null || text === '') return `${table.join('\n')}\n`;
  const { lines, range } = locate(text, path);
  // its own sub-tables ([mcp_servers.axme.env]) are the user's: kept
  if (range) return [...lines.slice(0, range.start), ...table, ...lines.slice(range.mainEnd)].join('\n');
  // appended after a blank line, ending as the file ends (with a newline or without), so uninstall gives back every byte
  return text.endsWith('\n') ? `${text}\n${table.join('\n')}\n` : `${text}\n\n${table.join('\n')}`;
}

function removeText(text: string, path: string): string | null {
  const { lines, range } = locate(text, path);
  if (!range) return text;
  let start = range.start;
  const atEnd = lines.slice(range.end).every((l) => l === '') && range.end >= lines.length - 1;
  // the blank line mergeText put before a table it appended at the end
  if (atEnd && start > 0 && lines[start - 1] === '') start--;
  // a table between blank lines: one blank line stays between what was before and after it
  let end = range.end;
  if (!atEnd && start > 0 && lines[start - 1]!.trim() === '' && lines[end]!.trim() === '') end++;
  const rest = [...lines.slice(0, start), ...lines.slice(end)].join('\n');
  return rest.trim() === '' ? null : rest;
}

type Toml = { mcp_servers?: { axme?: Record<string, unknown> } } & Record<string, unknown>;

/** The parsed text as plain data; CONFIG when it is not TOML (the original, or what an edit made of it). */
function parsed(text: string, path: string, edited?: string[]): Toml {
  let value: unknown;
  try {
    value = parseToml(text);
  } catch (err) {
    if (edited) throw unsafe(path, edited.length ? 'add' : 'remove', edited.length ? edited : undefined);
    throw new AxmeError(
      'CONFIG',
      `${path} is not valid TOML (${(err as Error).message.split('\n')[0]}): fix it or move it away, then run the command again; nothing was changed`,
      { path },
    );
  }
  return plain(value) as Toml;
}

/** The data without `mcp_servers.axme` (and without an `mcp_servers` left empty). */
function withoutAxme(data: Toml): Toml {
  const servers = { ...data.mcp_servers };
  delete servers.axme;
  const rest: Toml = { ...data, mcp_servers: servers };
  if (!Object.keys(servers).length) delete rest.mcp_servers;
  return rest;
}

/** Objects without prototypes (the parser's) as plain ones, dates as their text, so that parses compare. */
function plain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plain);
  if (v instanceof Date) return `date:${dateText(v)}`;
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

function dateText(d: Date): string {
  try {
    return d.toISOString();
  } catch {
    return String(d);
  }
}

function unsafe(path: string, edit: 'add' | 'remove', table?: string[]): AxmeError {
  const what = table ? `add the table by hand (${table.join(' / ')})` : 'remove the [mcp_servers.axme] table by hand';
  return new AxmeError(
    'CONFIG',
    `${path}: axme cannot ${edit} its [mcp_servers.axme] table without changing other settings (multi-line strings or a layout it does not edit safely): ${what}, or write the settings around it in plain form, then run the command again; nothing was changed`,
    { path },
  );
}

interface Located {
  lines: string[];
  /** the lines of the axme table: [start, mainEnd) without, [start, end) with its sub-tables `[mcp_servers.axme.*]` */
  range: { start: number; mainEnd: number; end: number } | null;
}

function locate(text: string, path: string): Located {
  const lines = text.split('\n');
  const refuse = (line: number, what: string) =>
    new AxmeError(
      'CONFIG',
      `${path}:${line + 1}: ${what}: axme edits only a [mcp_servers.axme] table of its own; change it to that form (or remove it), then run the command again; nothing was changed`,
      { path },
    );
  let table: string[] = [];
  let ours = false;
  let start = -1;
  let lastContent = -1;
  let end = -1;
  let mainEnd = -1;
  // where a line starts: inside a multi-line string, or inside an array or inline table spread over lines
  let state: ScanState = { open: null, depth: 0 };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const inside = state.open !== null || state.depth > 0;
    if (inside) {
      state = scan(line, state);
      if (ours) lastContent = i;
      continue;
    }
    const header = /^\s*(\[\[?)(.*?)(\]\]?)\s*(#.*)?$/.exec(line);
    const key = header ? parseKey(header[2]!) : null;
    if (header && key) {
      const isArray = header[1] === '[[';
      const inOurs = startsWith(key, TABLE);
      if (ours && !inOurs) {
        end = lastContent + 1;
        ours = false;
      }
      if (isArray && (inOurs || (key.length === 1 && key[0] === TABLE[0]))) throw refuse(i, `[[${header[2]!.trim()}]] is an array of tables`);
      if (inOurs && key.length === TABLE.length) {
        if (start >= 0) throw refuse(i, 'a second [mcp_servers.axme] table');
        start = i;
      } else if (inOurs && start < 0) throw refuse(i, `[${header[2]!.trim()}] comes before [mcp_servers.axme]`);
      if (inOurs && key.length > TABLE.length && mainEnd < 0) mainEnd = lastContent + 1;
      if (inOurs) {
        ours = true;
        lastContent = i;
      }
      table = key;
      continue;
    }
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    if (ours) lastContent = i;
    state = scan(line, state);
    const assigned = /^\s*((?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*'))*)\s*=/.exec(line);
    const lineKey = assigned ? parseKey(assigned[1]!) : null;
    if (!lineKey || ours) continue;
    const full = [...table, ...lineKey];
    if (startsWith(full, TABLE) || startsWith(TABLE, full))
      throw refuse(i, `${full.join('.')} is set outside a [mcp_servers.axme] table (an inline table or dotted keys)`);
  }
  if (ours) end = lastContent + 1;
  return { lines, range: start < 0 ? null : { start, mainEnd: mainEnd < 0 ? end : mainEnd, end } };
}

/** The parts of a TOML key (`a."b".c`), or null when it is not one. */
function parseKey(text: string): string[] | null {
  const parts: string[] = [];
  let rest = text.trim();
  for (;;) {
    const m = /^(?:([A-Za-z0-9_-]+)|"((?:[^"\\]|\\.)*)"|'([^']*)')\s*/.exec(rest);
    if (!m) return null;
    parts.push(m[1] ?? (m[2] !== undefined ? unescapeBasic(m[2]) : m[3]!));
    rest = rest.slice(m[0].length);
    if (rest === '') return parts;
    if (!rest.startsWith('.')) return null;
    rest = rest.slice(1).trimStart();
  }
}

function unescapeBasic(s: string): string {
  try {
    return JSON.parse(`"${s}"`) as string;
  } catch {
    return s;
  }
}

function startsWith(key: string[], prefix: string[]): boolean {
  return prefix.length <= key.length && prefix.every((p, i) => key[i] === p);
}

interface ScanState {
  /** the multi-line string a line ends inside */
  open: '"""' | "'''" | null;
  /** how many arrays or inline tables are open */
  depth: number;
}

/** The state after `line`: strings, escapes and comments skipped, brackets outside them counted. */
function scan(line: string, from: ScanState): ScanState {
  let { open, depth } = from;
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (open) {
      if (open === '"""' && c === '\\') i += 2;
      else if (line.startsWith(open, i)) {
        // a closing delimiter may follow up to two quotes of the content
        let run = 3;
        while (run < 5 && line[i + run] === open[0]) run++;
        i += run;
        open = null;
      } else i++;
      continue;
    }
    if (c === '#') break;
    if (line.startsWith('"""', i) || line.startsWith("'''", i)) {
      open = line.slice(i, i + 3) as ScanState['open'];
      i += 3;
    } else if (c === '"' || c === "'") {
      i++;
      while (i < line.length && line[i] !== c) i += c === '"' && line[i] === '\\' ? 2 : 1;
      i++;
    } else {
      if (c === '[' || c === '{') depth++;
      else if ((c === ']' || c === '}') && depth > 0) depth--;
      i++;
    }
  }
  return { open, depth };
}

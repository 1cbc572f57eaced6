import { AxmeError } from '../../model/errors.ts';

/**
 * Codex's `.codex/config.toml`: the server is the table `[mcp_servers.axme]`. The user's file is
 * never rewritten: the table is appended when absent, and when present exactly its lines (from
 * its header to its last key, before the next table header) are replaced or removed — every other
 * byte stays, comments and formatting included. A file that holds `mcp_servers.axme` in a form
 * this does not edit (an inline table, dotted keys, an array of tables) is refused (CONFIG)
 * rather than guessed at. Pure: text in, text out.
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
  if ('url' in entry) return ['[mcp_servers.axme]', `url = ${tomlString(entry.url)}`, ...(entry.bearer_token_env_var ? [`bearer_token_env_var = ${tomlString(entry.bearer_token_env_var)}`] : [])];
  return ['[mcp_servers.axme]', `command = ${tomlString(entry.command)}`, `args = [${entry.args.map(tomlString).join(', ')}]`, ...(entry.env_vars?.length ? [`env_vars = [${entry.env_vars.map(tomlString).join(', ')}]`] : [])];
}

/** The file's text with the axme table set to `entry`. */
export function mergeCodexServer(text: string | null, entry: CodexEntry, path: string): string {
  const table = codexTable(entry);
  if (text === null || text === '') return `${table.join('\n')}\n`;
  const { lines, range } = locate(text, path);
  // its own sub-tables ([mcp_servers.axme.env]) are the user's: kept
  if (range) return [...lines.slice(0, range.start), ...table, ...lines.slice(range.mainEnd)].join('\n');
  // appended after a blank line (one the file's end does not already give)
  const body = text.endsWith('\n') ? text : `${text}\n`;
  return `${body}${/(^|\n)[ \t]*\n$/.test(body) ? '' : '\n'}${table.join('\n')}\n`;
}

/** The file's text without the axme table (null: nothing else is left); the same text when there is none. */
export function removeCodexServer(text: string, path: string): string | null {
  const { lines, range } = locate(text, path);
  if (!range) return text;
  let start = range.start;
  // the blank line mergeCodexServer put before a table it appended at the end
  if (range.end >= lines.length - 1 && lines.slice(range.end).every((l) => l === '') && start > 0 && lines[start - 1]!.trim() === '') start--;
  // a table between blank lines: one blank line stays between what was before and after it
  let end = range.end;
  if (end < lines.length - 1 && start > 0 && lines[start - 1]!.trim() === '' && lines[end]!.trim() === '') end++;
  const rest = [...lines.slice(0, start), ...lines.slice(end)].join('\n');
  return rest.trim() === '' ? null : rest;
}

interface Located {
  lines: string[];
  /** the lines of the axme table: [start, mainEnd) without, [start, end) with its sub-tables `[mcp_servers.axme.*]` */
  range: { start: number; mainEnd: number; end: number } | null;
}

function locate(text: string, path: string): Located {
  const lines = text.split('\n');
  const refuse = (line: number, what: string) =>
    new AxmeError('CONFIG', `${path}:${line + 1}: ${what}: axme edits only a [mcp_servers.axme] table of its own; change it to that form (or remove it), then run the command again; nothing was changed`, { path });
  let table: string[] = [];
  let ours = false;
  let start = -1;
  let lastContent = -1;
  let end = -1;
  let mainEnd = -1;
  let multiline: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (multiline) {
      if (countOf(line, multiline) % 2 === 1) multiline = null;
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
    for (const q of ['"""', "'''"]) if (countOf(line, q) % 2 === 1) multiline = q;
    const assigned = /^\s*((?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*'))*)\s*=/.exec(line);
    const lineKey = assigned ? parseKey(assigned[1]!) : null;
    if (!lineKey || ours) continue;
    const full = [...table, ...lineKey];
    if (startsWith(full, TABLE) || startsWith(TABLE, full)) throw refuse(i, `${full.join('.')} is set outside a [mcp_servers.axme] table (an inline table or dotted keys)`);
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

function countOf(line: string, what: string): number {
  return line.split(what).length - 1;
}

import { readFileSync } from 'node:fs';
import { applyEdits, modify, parse as parseJsonc, type JSONPath, type ParseError } from 'jsonc-parser';
import { AxmeError } from '../model/errors.ts';

/** The JSON files of agents' settings: read, checked and written back in their own layout. */

export type Json = Record<string, unknown>;

/** Reads a JSON object file; null when absent; CONFIG error naming the file when it is broken. */
export function readJsonFile(path: string): { text: string; value: Json } | null {
  const text = readTextFile(path);
  if (text === null) return null;
  return { text, value: parseJsonObject(text, path) };
}

/**
 * Parses the text of a JSON object file (empty: `{}`); CONFIG error naming the file when it is
 * broken. Comments and trailing commas are accepted (VS Code's and Gemini CLI's settings allow
 * them: JSONC), and kept when the file is written back (renderJson).
 */
export function parseJsonObject(text: string, path: string): Json {
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (err) {
    const errors: ParseError[] = [];
    value = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
    if (errors.length) throw new AxmeError('CONFIG', `${path} is not valid JSON (${(err as Error).message}): fix it or move it away, then run the command again; nothing was changed`, { path });
  }
  if (!isObject(value)) throw new AxmeError('CONFIG', `${path} must hold a JSON object: fix it or move it away, then run the command again; nothing was changed`, { path });
  return value;
}

/** Reads a text file; null when absent. */
export function readTextFile(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new AxmeError('CONFIG', `cannot read ${path}: ${(err as Error).message}`, { path });
  }
}

/**
 * JSON in the file's own indentation (two spaces for a new file), ending with a newline. A file
 * with comments (JSONC) is edited in place instead — only the keys whose values changed are
 * rewritten — so the user's comments and layout stay.
 */
export function renderJson(value: Json, previous: string | undefined): string {
  const indent = previous ? (/\n([ \t]+)"/.exec(previous)?.[1] ?? '  ') : '  ';
  if (previous !== undefined && previous.trim() !== '' && !isStrictJson(previous)) return editJsonc(previous, value, indent);
  return `${JSON.stringify(value, null, indent)}\n`;
}

function isStrictJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** `text` (JSONC) changed into `value` by the fewest edits: keys added, removed or replaced where they differ. */
function editJsonc(text: string, value: Json, indent: string): string {
  const formattingOptions = { insertSpaces: !indent.includes('\t'), tabSize: indent.includes('\t') ? 1 : indent.length, eol: '\n' };
  let out = text;
  const set = (path: JSONPath, v: unknown) => {
    out = applyEdits(out, modify(out, path, v, { formattingOptions }));
  };
  const walk = (path: JSONPath, before: unknown, after: unknown): void => {
    if (isObject(before) && isObject(after)) {
      for (const k of Object.keys(before)) if (!(k in after)) set([...path, k], undefined);
      for (const [k, v] of Object.entries(after)) {
        if (!(k in before)) set([...path, k], v);
        else walk([...path, k], before[k], v);
      }
    } else if (JSON.stringify(before) !== JSON.stringify(after)) set(path, after);
  };
  walk([], parseJsonc(text, [], { allowTrailingComma: true, disallowComments: false }), value);
  return out;
}


export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

import { readFileSync } from 'node:fs';
import { AxmeError } from '../model/errors.ts';

/** The JSON files of agents' settings: read, checked and written back in their own layout. */

export type Json = Record<string, unknown>;

/** Reads a JSON object file; null when absent; CONFIG error naming the file when it is broken. */
export function readJsonFile(path: string): { text: string; value: Json } | null {
  const text = readTextFile(path);
  if (text === null) return null;
  return { text, value: parseJsonObject(text, path) };
}

/** Parses the text of a JSON object file (empty: `{}`); CONFIG error naming the file when it is broken. */
export function parseJsonObject(text: string, path: string): Json {
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (err) {
    throw new AxmeError('CONFIG', `${path} is not valid JSON (${(err as Error).message}): fix it or move it away, then run the command again; nothing was changed`, { path });
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

/** JSON in the file's own indentation (two spaces for a new file), ending with a newline. */
export function renderJson(value: Json, previous: string | undefined): string {
  const indent = previous ? (/\n([ \t]+)"/.exec(previous)?.[1] ?? '  ') : '  ';
  return `${JSON.stringify(value, null, indent)}\n`;
}


export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

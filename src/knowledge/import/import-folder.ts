import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { AxmeError } from '../../model/errors.ts';

/** The folder an import reads: `path` as given, or relative to `cwd` (the caller's folder). */
export function resolveFolder(path: string, cwd: string = process.cwd()): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/**
 * Refuses a folder that does not exist or is not a folder (INVALID_INPUT: what was expected, and
 * how to name the folder). Shared by the importers (AXME Code, ADRs).
 */
export function requireFolder(root: string, expected: string, usage: string): void {
  let dir = false;
  try {
    dir = statSync(root).isDirectory();
  } catch {
    throw new AxmeError('INVALID_INPUT', `${root} does not exist: ${expected}. Give its path: ${usage}`, { path: root });
  }
  if (!dir) throw new AxmeError('INVALID_INPUT', `${root} is not a folder: ${expected}`, { path: root });
}

/** The first line of an error's message: what a report of left-out files says. */
export function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}

import { readFileSync } from 'node:fs';

/**
 * A machine-local JSON file holding one object of strings (`{ "origin": "<commit>" }`): its string
 * entries, or none when the file is missing, damaged or not such an object (its writer starts over).
 */
export function readStringMap(path: string): Record<string, string> {
  let v: unknown;
  try {
    v = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return {};
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
  return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

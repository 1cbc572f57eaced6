import type { FileIndex, Notes, ScanInput } from './facts.ts';

/** Folders the scan never looks into, at any depth: dependencies, build output, caches. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set([
  'node_modules',
  'dist',
  'build',
  'out',
  'target',
  'vendor',
  'coverage',
  '__pycache__',
  '.venv',
  'venv',
]);

/** Dot-folders the scan does look into (every other one is skipped). */
export const KEPT_DOT_DIRS: ReadonlySet<string> = new Set(['.github', '.husky', '.circleci']);

/** Manifests are looked for in folders at most this deep ("a/b/c" is 3). */
export const MANIFEST_DEPTH = 3;

/** Folders that hold tests. */
export const TEST_DIRS: ReadonlySet<string> = new Set(['test', 'tests', '__tests__', 'spec']);

/**
 * True when a path sits in a test folder or test data (`test/`, `fixtures/`, `testdata/`, ...):
 * manifests and entry points there describe fixtures, not the project.
 */
export function inTestTree(path: string): boolean {
  const parts = path.split('/');
  for (let i = 0; i < parts.length - 1; i++) if (TEST_DIRS.has(parts[i]!) || parts[i] === 'fixtures' || parts[i] === 'testdata') return true;
  return false;
}

/**
 * True when the scan leaves `path` out: a skipped folder anywhere on its way, a dot-folder other
 * than the kept ones, or a name with control characters (it could not be shown on one line).
 */
export function isSkipped(path: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return true;
  const parts = path.split('/');
  for (let i = 0; i < parts.length - 1; i++) {
    const d = parts[i]!;
    if (SKIPPED_DIRS.has(d)) return true;
    if (d.startsWith('.') && !KEPT_DOT_DIRS.has(d)) return true;
  }
  return false;
}

/** Folder of a path: "a/b/c.json" -> "a/b", "c.json" -> ".". */
export function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '.' : path.slice(0, i);
}

/** Last segment of a path. */
export function baseOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Number of folders above a file: "a.json" 0, "a/b.json" 1. */
export function depthOf(path: string): number {
  let n = 0;
  for (const c of path) if (c === '/') n++;
  return n;
}

/** `name` inside folder `dir` ("." is the top level). */
export function inDir(dir: string, name: string): string {
  return dir === '.' ? name : `${dir}/${name}`;
}

/** The index of an input's file list: the one it carries, else a new one. */
export function indexOf(input: ScanInput): FileIndex {
  return input.index ?? buildIndex(input.files);
}

/** The input with its index built once, for detectors that look things up many times. */
export function withIndex(input: ScanInput): ScanInput {
  return input.index ? input : { ...input, index: buildIndex(input.files) };
}

function buildIndex(files: readonly string[]): FileIndex {
  const set = new Set(files);
  const byDir = new Map<string, string[]>();
  for (const f of files) {
    const d = dirOf(f);
    let list = byDir.get(d);
    if (!list) byDir.set(d, (list = []));
    list.push(baseOf(f));
  }
  return { files, has: (p) => set.has(p), children: (d) => byDir.get(d) ?? [] };
}

/** The nearest folder from `dir` up to the top level that holds one of `names`, with the name found. */
export function findUp(ix: FileIndex, dir: string, names: readonly string[]): { dir: string; name: string } | null {
  for (let d = dir; ; d = dirOf(d)) {
    for (const n of names) if (ix.has(inDir(d, n))) return { dir: d, name: n };
    if (d === '.') return null;
  }
}

export type JsonObject = Record<string, unknown>;

/** A JSON manifest as an object, or null (a note says why when it exists but cannot be parsed). */
export function readJsonObject(input: ScanInput, path: string, notes: Notes | null, opts: { jsonc?: boolean } = {}): JsonObject | null {
  const text = input.read(path);
  if (text === null) return null;
  try {
    const v: unknown = JSON.parse(opts.jsonc ? stripJsonComments(text) : text);
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as JsonObject;
    notes?.add(`\`${path}\` is not a JSON object: skipped`);
  } catch (err) {
    notes?.add(`\`${path}\` is not valid JSON (${oneLine(err instanceof Error ? err.message : String(err))}): skipped`);
  }
  return null;
}

/** JSON with comments and trailing commas (tsconfig.json, biome.jsonc) as plain JSON. */
export function stripJsonComments(text: string): string {
  const noComments = scanJson(text, (c, after) => (c === '/' && after[0] === '/' ? 'line' : c === '/' && after[0] === '*' ? 'block' : c));
  return scanJson(noComments, (c, after) => (c === ',' && /^\s*[}\]]/.test(after) ? '' : c));
}

/**
 * Copies JSON text, strings verbatim; outside strings `f` decides per character: the text to
 * emit, or 'line' / 'block' to drop a comment.
 */
function scanJson(text: string, f: (c: string, after: string) => string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      out += text.slice(start, i + 1);
      continue;
    }
    const r = c === '/' || c === ',' ? f(c, text.slice(i + 1, i + 1 + 4096)) : c;
    if (r === 'line') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (r === 'block') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
      out += ' ';
    } else out += r;
  }
  return out;
}

/** First line of a message, at most 120 characters. */
export function oneLine(s: string): string {
  const line = s.split('\n')[0]!.trim();
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

/** Own string property of an object, else null. */
export function str(o: unknown, key: string): string | null {
  if (typeof o !== 'object' || o === null || !Object.hasOwn(o, key)) return null;
  const v = (o as JsonObject)[key];
  return typeof v === 'string' ? v : null;
}

/** Own object property of an object, else null. */
export function obj(o: unknown, key: string): JsonObject | null {
  if (typeof o !== 'object' || o === null || !Object.hasOwn(o, key)) return null;
  const v = (o as JsonObject)[key];
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : null;
}

/** Sorted, unique. */
export function sortedUnique(list: Iterable<string>): string[] {
  return [...new Set(list)].sort(byCodeUnit);
}

/** Deterministic string order (code units; no locale). */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

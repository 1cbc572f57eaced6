import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type GlobMatcher, globMatcher, globProblem } from '../../model/glob.ts';
import { MEMORY_REF } from '../../model/refs.ts';
import { writeFileAtomicSync } from '../../store/atomic-file.ts';
import { type RepoLocation, readRefSync } from '../../store/locate.ts';
import type { RecallEntry } from './recall-lines.ts';

/**
 * The anchored items of a store, for the pre-edit recall (issue 32): every current decision,
 * memory and backlog item with anchors, as the recall shows it, with its anchors — kept in
 * `<git-common-dir>/axme/anchors.json`, keyed by the memory tip and HEAD (staleness compares the
 * code up to HEAD). The pre-tool-use hook reads it with two small file reads and matches the
 * edited path here, loading the store only when the key moved. Derived data: deleting it changes
 * no answer. No zod, no git: it runs on the hook's fast path.
 */

export interface AnchoredEntry extends RecallEntry {
  /** as stored: `src/db.ts`, `src/db/`, `src/**\/*.sql`, `src/db.ts#pool`, `dep:pg` */
  anchors: string[];
}

interface IndexFile {
  key: string;
  items: AnchoredEntry[];
}

const FILE = 'anchors.json';
// 2: entries carry their slug (the key of what a session was given)
const FORMAT = 2;

/** The key of the index for the store and checkout at `loc`: null when the refs cannot be read without git (reftable). */
export function anchorIndexKey(loc: RepoLocation): string | null {
  const tip = readRefSync(loc.commonDir, MEMORY_REF);
  if (tip === 'unknown') return null;
  let head: string;
  try {
    head = readFileSync(join(loc.gitDir, 'HEAD'), 'utf8').trim();
  } catch {
    return null;
  }
  if (head.startsWith('ref: ')) {
    const oid = readRefSync(loc.commonDir, head.slice(5).trim());
    if (oid === 'unknown') return null;
    head = oid ?? 'unborn';
  }
  return `anchors ${FORMAT}; ${MEMORY_REF}=${tip ?? 'none'}; HEAD=${head}`;
}

/** The cached index under `key`, or null (missing, damaged, or another key). */
export function readAnchorIndex(commonDir: string, key: string): AnchoredEntry[] | null {
  try {
    const f = JSON.parse(readFileSync(join(commonDir, 'axme', FILE), 'utf8')) as Partial<IndexFile>;
    return f.key === key && Array.isArray(f.items) ? f.items : null;
  } catch {
    return null;
  }
}

/** Keeps the index for `key` (a failure to write only costs the next call a rebuild). */
export function writeAnchorIndex(commonDir: string, key: string, items: AnchoredEntry[]): void {
  try {
    writeFileAtomicSync(join(commonDir, 'axme', FILE), `${JSON.stringify({ key, items } satisfies IndexFile)}\n`);
  } catch {
    // derived data
  }
}

const globs = new Map<string, GlobMatcher | null>();

/** True when the stored anchor `raw` names the repository-relative `file` (model/anchor.ts's meaning, without its schema). */
export function anchorNames(raw: string, file: string): boolean {
  const norm = (p: string) =>
    p
      .trim()
      .replace(/\\/g, '/')
      .replace(/^(?:\.\/)+/, '')
      .replace(/^\/+/, '');
  const s = raw.trim();
  if (s.startsWith('dep:')) return false;
  const f = norm(file);
  const hash = s.indexOf('#');
  if (hash > 0 && hash < s.length - 1) return f === norm(s.slice(0, hash));
  const p = norm(s);
  if (/[*?[{]/.test(p)) {
    let m = globs.get(p);
    if (m === undefined) globs.set(p, (m = globProblem(p) ? null : globMatcher(p)));
    return m?.test(f) ?? false;
  }
  const dir = p.replace(/\/+$/, '');
  return dir !== '' && (f === dir || f.startsWith(`${dir}/`));
}

/** The entries whose anchors name `file`. */
export function anchoredTo(items: readonly AnchoredEntry[], file: string): AnchoredEntry[] {
  return items.filter((e) => e.anchors.some((a) => anchorNames(a, file)));
}

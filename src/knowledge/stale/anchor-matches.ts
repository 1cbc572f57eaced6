import { type Anchor, anchorCovers, anchorProblem, parseAnchor } from '../../model/anchor.ts';
import { isManifest } from '../../model/manifests.ts';
import { nearNames } from '../../model/near-names.ts';
import { declaredVersions, depKey } from './dep-versions.ts';
import { nearestPath, nearestWord } from './nearest-path.ts';
import type { UnmatchedAnchor } from './types.ts';

/**
 * The code anchors are matched against: a commit's files, or the working tree's. `files` holds at
 * least every file an anchor of the call could name and every dependency manifest (the whole tree
 * is fine); `allFiles` the whole tree, asked only to suggest the nearest path of an anchor that
 * matches nothing; `read` the text of some of them (null: not there).
 */
export interface CodeFiles {
  files(): Promise<readonly string[]>;
  allFiles(): Promise<readonly string[]>;
  read(paths: readonly string[]): Promise<Map<string, string | null>>;
}

/**
 * The anchors of `anchors` that name nothing in `code` (docs/staleness.md#anchors-that-name-nothing):
 * a path that is no file and no folder with a file, a glob no file matches, a `path#symbol` whose
 * file does not exist or does not contain the symbol, a `dep:<name>` no manifest declares. Each
 * with the nearest thing that exists, when one is close. An anchor past the limits (anchorProblem)
 * is not matched here: it is refused on save and named by verify's `unverifiable`.
 */
export async function unmatchedAnchors(anchors: readonly string[], code: CodeFiles): Promise<UnmatchedAnchor[]> {
  const parsed = anchors.filter((a) => anchorProblem(a) === null).map(parseAnchor);
  if (!parsed.length) return [];
  const files = await code.files();
  const fileSet = new Set(files);
  let dirs: Set<string> | undefined;
  const isDir = (p: string) => (dirs ??= foldersOf(files)).has(p);
  const covered = (a: Anchor) => files.some((f) => anchorCovers(a, f));
  const missing: Array<{ a: Anchor; problem: UnmatchedAnchor['problem'] }> = [];
  const greps: Array<Anchor & { type: 'grep' }> = [];
  const deps: Array<Anchor & { type: 'dep' }> = [];
  for (const a of parsed) {
    if (a.type === 'dep') deps.push(a);
    else if (a.type === 'grep') {
      if (fileSet.has(a.path)) greps.push(a);
      else missing.push({ a, problem: 'no-file' });
    } else if (a.type === 'path') {
      const p = a.path.replace(/\/+$/, '');
      if (p !== '' && !fileSet.has(p) && !isDir(p)) missing.push({ a, problem: 'no-file' });
    } else if (!covered(a)) missing.push({ a, problem: 'no-file' });
  }
  const manifests = deps.length ? files.filter(isManifest) : [];
  const texts = await code.read([...new Set([...greps.map((g) => g.path), ...manifests])]);
  for (const g of greps) if (!(texts.get(g.path) ?? '').includes(g.symbol)) missing.push({ a: g, problem: 'no-symbol' });
  if (deps.length) {
    const declared = manifests.map((m) => ({ m, names: declaredVersions(m, texts.get(m) ?? '') }));
    for (const d of deps) if (!declared.some(({ m, names }) => names.has(depKey(m, d.name)))) missing.push({ a: d, problem: 'no-dependency' });
  }
  if (!missing.length) return [];
  const all = missing.some((x) => x.problem === 'no-file') ? await code.allFiles() : files;
  const allDirs = all === files ? (dirs ??= foldersOf(files)) : foldersOf(all);
  const out: UnmatchedAnchor[] = [];
  for (const { a, problem } of missing) {
    let nearest: string | undefined;
    if (a.type === 'dep') {
      const names = [...new Set(manifests.flatMap((m) => [...declaredVersions(m, texts.get(m) ?? '').keys()]))];
      const near = nearNames(a.name, names)[0];
      nearest = near === undefined ? undefined : `dep:${near}`;
    } else if (a.type === 'grep') {
      if (problem === 'no-symbol') {
        const w = nearestWord(a.symbol, texts.get(a.path) ?? '');
        nearest = w === undefined ? undefined : `${a.path}#${w}`;
      } else {
        const p = nearestPath(a.path, all, allDirs, false);
        nearest = p === undefined ? undefined : `${p}#${a.symbol}`;
      }
    } else if (a.type === 'path') nearest = nearestPath(a.path.replace(/\/+$/, ''), all, allDirs, a.path.endsWith('/'));
    else nearest = nearestGlob(a.glob, all, allDirs);
    out.push({
      anchor: a.raw,
      problem,
      ...(nearest !== undefined && nearest !== a.raw ? { nearest: nearest + (a.type === 'path' && a.path.endsWith('/') ? '/' : '') } : {}),
    });
  }
  // in the order the item gives them
  const order = new Map(anchors.map((a, i) => [a, i]));
  return out.sort((x, y) => (order.get(x.anchor) ?? 0) - (order.get(y.anchor) ?? 0));
}

/** Every folder that holds a file of `files` (at any depth). */
function foldersOf(files: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const f of files) {
    for (let i = f.indexOf('/'); i > 0; i = f.indexOf('/', i + 1)) out.add(f.slice(0, i));
  }
  return out;
}

/** A glob with its folder part (before the first wildcard) mistyped: the glob with the nearest folder, when that one matches a file. */
function nearestGlob(glob: string, files: readonly string[], dirs: ReadonlySet<string>): string | undefined {
  const parts = glob.split('/');
  const wild = parts.findIndex((s) => /[*?[{]/.test(s));
  const prefix = parts.slice(0, wild).join('/');
  if (wild <= 0 || dirs.has(prefix)) return undefined;
  const near = nearestPath(prefix, files, dirs, true);
  if (near === undefined) return undefined;
  const fixed = [near, ...parts.slice(wild)].join('/');
  const a = parseAnchor(fixed);
  return files.some((f) => anchorCovers(a, f)) ? fixed : undefined;
}

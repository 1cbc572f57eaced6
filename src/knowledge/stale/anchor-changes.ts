import { parseAnchor } from '../../model/anchor.ts';
import { globMatcher } from '../../model/glob.ts';
import { isManifest } from '../../model/manifests.ts';
import { type ChangeLog, type FileChange, pathsUnder } from './change-log.ts';
import type { ChangeView } from './code-history.ts';
import { declaredVersions, depKey } from './dep-versions.ts';
import type { AnchorChange } from './types.ts';

/**
 * How one anchor moved since learned_at, from the index of changed files. What needs file
 * contents (a grep anchor's symbol, a dependency's range, whether a folder or a glob still has
 * files) is asked as `reads` (`<commit>:<path>`, read for every item at once) and decided in
 * `finish`. A grep anchor is stale only when its file is gone, renamed or no longer contains the
 * symbol: a file touched that still contains it is not (the symbol is what the item is about).
 */
export interface AnchorCheck {
  reads: string[];
  /** HEAD's file list is needed (a glob whose files were deleted) */
  headPaths: boolean;
  finish(blobs: Map<string, string | null>, headPaths: string[]): AnchorChange[];
}

const none: AnchorCheck = { reads: [], headPaths: false, finish: () => [] };
const done = (changes: AnchorChange[]): AnchorCheck => ({ reads: [], headPaths: false, finish: () => changes });

/**
 * The check of anchor `raw` of an item learned at `learnedAt`, against `view`, up to `head`.
 * `learned` names the files learned from content learned_at did not have (uncommitted then): the
 * commits up to the one that committed that content are not changes of them. `own` tells the
 * commits the session that saved the item made (session-commits.ts): those a file had before any
 * other change of it carried the item out, and are not changes of it either. A `path#symbol`
 * anchor is judged by HEAD's content alone, whoever committed it.
 */
export function checkAnchor(
  raw: string,
  view: ChangeView,
  learnedAt: string,
  head: string,
  learned: Readonly<Record<string, string>> = {},
  own: (i: number) => boolean = () => false,
): AnchorCheck {
  const a = parseAnchor(raw);
  if (a.type === 'dep') return depCheck(raw, a.name, view, learnedAt, head, learned, own);
  if (a.type === 'glob') return globCheck(raw, a.glob, view, head, learned, own);
  if (a.type === 'grep') {
    const t = followFile(view, a.path);
    if (!t.hits.length) return none;
    const base = { anchor: raw, path: a.path, commits: shas(view, t.hits) };
    if (t.gone) return done([{ ...base, change: 'deleted' }]);
    const spec = `${head}:${t.path}`;
    return {
      reads: [spec],
      headPaths: false,
      finish: (blobs) => {
        const text = blobs.get(spec);
        const to = t.path !== a.path ? { to: t.path } : {};
        if (text === null || text === undefined) return [{ ...base, change: 'deleted' }];
        if (!text.includes(a.symbol)) return [{ ...base, ...to, change: 'no-match' }];
        return to.to ? [{ ...base, ...to, change: 'renamed' }] : [];
      },
    };
  }
  const p = a.path.replace(/\/+$/, '');
  if (p === '') return none;
  if (!a.path.endsWith('/') && view.log.byPath.has(p)) {
    const t = followFile(view, p);
    const moves = t.hits.filter((i) => view.log.commits[i]!.files.some((f) => f.status === 'R' && t.names.has(f.path) && f.path !== p));
    t.hits = afterLearned(view, t.hits, p, learned[p], own).hits;
    // renamed by the session's own commits: still said, the anchor names a file that is not there
    if (!t.hits.length && !t.gone && t.path !== p) t.hits = moves;
    if (!t.hits.length) return none;
    const change: Pick<AnchorChange, 'change' | 'path' | 'to'> = t.gone
      ? { change: 'deleted', ...(t.path !== p ? { path: t.path } : {}) }
      : t.path !== p
        ? { change: 'renamed', to: t.path }
        : { change: 'touched' };
    return {
      reads: [],
      headPaths: false,
      finish: () => [{ anchor: raw, ...change, commits: shas(view, t.hits), ...diffstat(view, t.hits, (f) => t.names.has(f)) }],
    };
  }
  return folderCheck(raw, p, view, head, learned, own);
}

/**
 * The commits of `hits` (oldest first) after the newest one that left `path` with the content it
 * was learned from (`blob`): the ones before it led to what was learned, not away from it; and
 * after the session's own commits that follow (`own`), which carried the item out. `base`: the
 * blob the last commit left out gave `path`, when one was.
 */
function afterLearned(
  view: ChangeView,
  hits: number[],
  path: string,
  blob: string | undefined,
  own: (i: number) => boolean,
): { hits: number[]; base?: string } {
  let last = -1;
  if (blob)
    hits.forEach((i, k) => {
      if (view.log.commits[i]!.files.some((f) => f.path === path && f.blob === blob)) last = k;
    });
  let k = last + 1;
  while (k < hits.length && own(hits[k]!)) k++;
  const base = k > 0 ? view.log.commits[hits[k - 1]!]!.files.find((f) => f.path === path)?.blob : undefined;
  return { hits: hits.slice(k), ...(base ? { base } : {}) };
}

/**
 * `hits` (oldest first) without the commits that only led to what a folder or glob anchor's item
 * was learned from, or carried it out: each file of the commit that the anchor `concerns` either
 * was learned from uncommitted content (`learned`) and the commit is at or before the newest one
 * that left that file as learned, or the commit is the saving session's (`own`) and no other
 * commit changed that file before it. A commit that also changed another file under the anchor
 * still counts.
 */
function notLearned(
  view: ChangeView,
  hits: number[],
  concerns: (path: string) => boolean,
  learned: Readonly<Record<string, string>>,
  own: (i: number) => boolean,
): number[] {
  if (!Object.keys(learned).some(concerns) && !hits.some(own)) return hits;
  const newest = new Map<string, number>();
  hits.forEach((i, k) => {
    for (const f of view.log.commits[i]!.files) if (learned[f.path] !== undefined && f.blob === learned[f.path]) newest.set(f.path, k);
  });
  const filesOf = (i: number) => view.log.commits[i]!.files.filter((f) => concerns(f.path) || (f.from !== undefined && concerns(f.from)));
  const led = (f: FileChange, k: number) => f.from === undefined && k <= (newest.get(f.path) ?? -1);
  // per path, the first commit that changed it and is neither the session's nor led to what was learned
  const other = new Map<string, number>();
  hits.forEach((i, k) => {
    if (own(i)) return;
    for (const f of filesOf(i)) if (!led(f, k)) for (const p of [f.path, f.from ?? f.path]) if (!other.has(p)) other.set(p, k);
  });
  const first = (p: string) => other.get(p) ?? Infinity;
  return hits.filter((i, k) => {
    const mine = own(i);
    return !filesOf(i).every((f) => led(f, k) || (mine && k < first(f.path) && k < first(f.from ?? f.path)));
  });
}

/** A file followed through renames since learned_at: the commits that touched it, where it is now, whether it is gone. */
function followFile(view: ChangeView, start: string): { hits: number[]; path: string; gone: boolean; names: Set<string> } {
  const { log } = view;
  const hits: number[] = [];
  const names = new Set([start]);
  let path = start;
  let gone = false;
  let bound = Infinity;
  for (let moved = true; moved; ) {
    moved = false;
    const list = (log.byPath.get(path) ?? []).filter((i) => i < bound && view.since(i)).reverse();
    for (const i of list) {
      hits.push(i);
      const f = log.commits[i]!.files.find((x) => x.from === path && x.status === 'R') ?? log.commits[i]!.files.find((x) => x.path === path);
      if (!f) continue;
      if (f.from === path && f.path !== path) {
        path = f.path;
        names.add(path);
        bound = i;
        gone = false;
        moved = true;
        break;
      }
      gone = f.status === 'D';
    }
  }
  return { hits, path, gone, names };
}

function folderCheck(
  raw: string,
  dir: string,
  view: ChangeView,
  head: string,
  learned: Readonly<Record<string, string>>,
  own: (i: number) => boolean,
): AnchorCheck {
  const inside = (f: string) => f.startsWith(`${dir}/`);
  const hits = notLearned(view, sinceOf(view, pathsUnder(view.log, dir)), inside, learned, own);
  if (!hits.length) return none;
  const spec = `${head}:${dir}`;
  return {
    reads: [spec],
    headPaths: false,
    finish: (blobs) => {
      const base = { anchor: raw, commits: shas(view, hits), ...diffstat(view, hits, inside) };
      if (blobs.get(spec) != null) return [{ ...base, change: 'touched' }];
      const targets = new Set<string>();
      for (const i of hits) {
        for (const f of view.log.commits[i]!.files) {
          if (f.status !== 'R' || !f.from || !inside(f.from) || inside(f.path)) continue;
          const rest = f.from.slice(dir.length);
          targets.add(f.path.endsWith(rest) ? f.path.slice(0, f.path.length - rest.length) : '');
        }
      }
      const [to] = targets;
      return [targets.size === 1 && to ? { ...base, change: 'renamed', to: `${to}/` } : { ...base, change: 'deleted' }];
    },
  };
}

const globMatches = new WeakMap<ChangeLog, Map<string, string[]>>();

function globCheck(
  raw: string,
  glob: string,
  view: ChangeView,
  head: string,
  learned: Readonly<Record<string, string>>,
  own: (i: number) => boolean,
): AnchorCheck {
  let memo = globMatches.get(view.log);
  if (!memo) globMatches.set(view.log, (memo = new Map()));
  const re = globMatcher(glob);
  let matched = memo.get(glob);
  if (!matched) memo.set(glob, (matched = view.log.paths.filter((p) => re.test(p))));
  const match = (f: string) => re.test(f);
  const hits = notLearned(view, sinceOf(view, matched), match, learned, own);
  if (!hits.length) return none;
  const base = () => ({ anchor: raw, commits: shas(view, hits), ...diffstat(view, hits, match) });
  const deletes = hits.some((i) =>
    view.log.commits[i]!.files.some((f) => (f.status === 'D' && match(f.path)) || (f.status === 'R' && match(f.from!) && !match(f.path))),
  );
  return { reads: [], headPaths: deletes, finish: (_b, headPaths) => [{ ...base(), change: !deletes || headPaths.some(match) ? 'touched' : 'no-match' }] };
}

function depCheck(
  raw: string,
  name: string,
  view: ChangeView,
  learnedAt: string,
  head: string,
  learned: Readonly<Record<string, string>>,
  own: (i: number) => boolean,
): AnchorCheck {
  // what a manifest declared is read from the content it was learned from (uncommitted then), or
  // that the saving session's commits left it with
  const manifests = view.log.paths
    .filter(isManifest)
    .map((m) => {
      const after = afterLearned(view, sinceOf(view, [m]), m, learned[m], own);
      return { m, hits: after.hits, from: after.base ?? learned[m] ?? `${learnedAt}:${m}` };
    })
    .filter((x) => x.hits.length);
  if (!manifests.length) return none;
  return {
    reads: manifests.flatMap(({ m, from }) => [from, `${head}:${m}`]),
    headPaths: false,
    finish: (blobs) => {
      const out: AnchorChange[] = [];
      for (const { m, hits, from } of manifests) {
        const key = depKey(m, name);
        const was = declaredVersions(m, blobs.get(from) ?? '').get(key);
        const to = declaredVersions(m, blobs.get(`${head}:${m}`) ?? '').get(key);
        if (was === to) continue;
        out.push({
          anchor: raw,
          change: 'dep-changed',
          path: m,
          ...(was !== undefined ? { from_version: was } : {}),
          ...(to !== undefined ? { to_version: to } : {}),
          commits: shas(view, hits),
        });
      }
      return out;
    },
  };
}

/** The commits since learned_at that touched any of `paths`, oldest first. */
function sinceOf(view: ChangeView, paths: string[]): number[] {
  const set = new Set<number>();
  for (const p of paths) for (const i of view.log.byPath.get(p) ?? []) if (view.since(i)) set.add(i);
  return [...set].sort((a, b) => b - a);
}

/** The commit IDs of `hits` (none for a comparison of snapshots). */
function shas(view: ChangeView, hits: number[]): string[] {
  return hits.map((i) => view.log.commits[i]!.sha).filter(Boolean);
}

function diffstat(view: ChangeView, hits: number[], concerned: (path: string) => boolean): { diffstat?: AnchorChange['diffstat'] } {
  const files = new Set<string>();
  let insertions = 0;
  let deletions = 0;
  for (const i of hits) {
    for (const f of view.log.commits[i]!.files as FileChange[]) {
      if (!concerned(f.path) && !(f.from !== undefined && concerned(f.from))) continue;
      files.add(f.path);
      insertions += f.insertions;
      deletions += f.deletions;
    }
  }
  return files.size ? { diffstat: { files: files.size, insertions, deletions } } : {};
}

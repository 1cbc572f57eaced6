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
 * commits up to the one that committed that content are not changes of them.
 */
export function checkAnchor(raw: string, view: ChangeView, learnedAt: string, head: string, learned: Readonly<Record<string, string>> = {}): AnchorCheck {
  const a = parseAnchor(raw);
  if (a.type === 'dep') return depCheck(raw, a.name, view, learnedAt, head, learned);
  if (a.type === 'glob') return globCheck(raw, a.glob, view, head, learned);
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
    t.hits = afterLearned(view, t.hits, p, learned[p]);
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
  return folderCheck(raw, p, view, head, learned);
}

/**
 * The commits of `hits` (oldest first) after the newest one that left `path` with the content it
 * was learned from (`blob`): the ones before it led to what was learned, not away from it.
 */
function afterLearned(view: ChangeView, hits: number[], path: string, blob: string | undefined): number[] {
  if (!blob) return hits;
  let last = -1;
  hits.forEach((i, k) => {
    if (view.log.commits[i]!.files.some((f) => f.path === path && f.blob === blob)) last = k;
  });
  return hits.slice(last + 1);
}

/**
 * `hits` (oldest first) without the commits that only led to what a folder or glob anchor's item
 * was learned from: each file of the commit that the anchor `concerns` was learned from
 * uncommitted content (`learned`), and the commit is at or before the newest one that left that
 * file as learned. A commit that also changed another file under the anchor still counts.
 */
function notLearned(view: ChangeView, hits: number[], concerns: (path: string) => boolean, learned: Readonly<Record<string, string>>): number[] {
  if (!Object.keys(learned).some(concerns)) return hits;
  const newest = new Map<string, number>();
  hits.forEach((i, k) => {
    for (const f of view.log.commits[i]!.files) if (learned[f.path] !== undefined && f.blob === learned[f.path]) newest.set(f.path, k);
  });
  return hits.filter((i, k) => {
    const files = view.log.commits[i]!.files.filter((f) => concerns(f.path) || (f.from !== undefined && concerns(f.from)));
    return !files.every((f) => f.from === undefined && k <= (newest.get(f.path) ?? -1));
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

function folderCheck(raw: string, dir: string, view: ChangeView, head: string, learned: Readonly<Record<string, string>>): AnchorCheck {
  const inside = (f: string) => f.startsWith(`${dir}/`);
  const hits = notLearned(view, sinceOf(view, pathsUnder(view.log, dir)), inside, learned);
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

function globCheck(raw: string, glob: string, view: ChangeView, head: string, learned: Readonly<Record<string, string>>): AnchorCheck {
  let memo = globMatches.get(view.log);
  if (!memo) globMatches.set(view.log, (memo = new Map()));
  const re = globMatcher(glob);
  let matched = memo.get(glob);
  if (!matched) memo.set(glob, (matched = view.log.paths.filter((p) => re.test(p))));
  const match = (f: string) => re.test(f);
  const hits = notLearned(view, sinceOf(view, matched), match, learned);
  if (!hits.length) return none;
  const base = () => ({ anchor: raw, commits: shas(view, hits), ...diffstat(view, hits, match) });
  const deletes = hits.some((i) =>
    view.log.commits[i]!.files.some((f) => (f.status === 'D' && match(f.path)) || (f.status === 'R' && match(f.from!) && !match(f.path))),
  );
  return { reads: [], headPaths: deletes, finish: (_b, headPaths) => [{ ...base(), change: !deletes || headPaths.some(match) ? 'touched' : 'no-match' }] };
}

function depCheck(raw: string, name: string, view: ChangeView, learnedAt: string, head: string, learned: Readonly<Record<string, string>>): AnchorCheck {
  // a manifest learned from uncommitted content: what it declared is read from that content
  const from = (m: string) => learned[m] ?? `${learnedAt}:${m}`;
  const manifests = view.log.paths
    .filter(isManifest)
    .map((m) => ({ m, hits: afterLearned(view, sinceOf(view, [m]), m, learned[m]) }))
    .filter((x) => x.hits.length);
  if (!manifests.length) return none;
  return {
    reads: manifests.flatMap(({ m }) => [from(m), `${head}:${m}`]),
    headPaths: false,
    finish: (blobs) => {
      const out: AnchorChange[] = [];
      for (const { m, hits } of manifests) {
        const key = depKey(m, name);
        const was = declaredVersions(m, blobs.get(from(m)) ?? '').get(key);
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

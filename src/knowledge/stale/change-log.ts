/**
 * Code commits and the files each one changed, parsed from one `git log --raw --numstat -M -z`
 * (or `git diff-tree --stdin`) run, indexed by path. The staleness engine reads every anchor of
 * every item from this one index instead of running git per item.
 */

/** One file a commit changed. */
export interface FileChange {
  /** A added, M modified, D deleted, R renamed (from `from`), T type changed */
  status: string;
  path: string;
  /** a rename's old path */
  from?: string;
  insertions: number;
  deletions: number;
  /** the file's blob after the commit (all zeros when deleted), from the raw line */
  blob?: string;
}

/** A code commit with the files it changed (a merge: only what differs from git's re-merge of its parents, code-history.ts). */
export interface CodeCommit {
  /** empty for a comparison of two snapshots (learned_at not in HEAD's history) */
  sha: string;
  date: string;
  subject: string;
  files: FileChange[];
}

/** Commits newest first, and which of them changed each path (old and new paths of a rename). */
export interface ChangeLog {
  commits: CodeCommit[];
  /** path -> indices into `commits`, ascending (newest first) */
  byPath: Map<string, number[]>;
  /** every path in byPath, sorted (folder anchors take a range of it, globs test it) */
  paths: string[];
}

/** The format of the header of each commit: \x01 sha \x02 committer date \x02 subject. */
const LOG_FORMAT = '--format=%x01%H%x02%cI%x02%s';
/**
 * The options giving the files of each commit, with the lines added and removed, in the form
 * parseCommits reads. `--numstat` diffs the blobs (about 60% more than `--raw` alone), but a
 * second run for the commits of stale anchors only costs more when many items are stale.
 */
export const LOG_DIFF_OPTIONS = ['--raw', '--numstat', '-M', '-z', '--no-abbrev', LOG_FORMAT];

const NUMSTAT = /^(\d+|-)\t(\d+|-)\t([\s\S]*)$/;

/** The records of a `LOG_DIFF_OPTIONS` output, in the order git printed them. */
export function parseCommits(out: string): CodeCommit[] {
  const commits: CodeCommit[] = [];
  for (const chunk of out.split('\x01')) {
    if (chunk === '') continue;
    const tokens = chunk.split('\0');
    const [sha = '', date = '', subject = ''] = tokens[0]!.split('\x02');
    const files = new Map<string, FileChange>();
    const counts = new Map<string, [number, number]>();
    for (let i = 1; i < tokens.length; i++) {
      const t = tokens[i]!.replace(/^\n/, '');
      if (t === '') continue;
      if (t.startsWith(':')) {
        const status = t.slice(t.lastIndexOf(' ') + 1);
        const blob = t.split(' ')[3];
        const first = tokens[++i] ?? '';
        if (status[0] === 'R' || status[0] === 'C') {
          const path = tokens[++i] ?? '';
          files.set(path, { status: status[0], path, from: first, insertions: 0, deletions: 0, ...(blob ? { blob } : {}) });
        } else files.set(first, { status: status[0] ?? 'M', path: first, insertions: 0, deletions: 0, ...(blob ? { blob } : {}) });
        continue;
      }
      const m = NUMSTAT.exec(t);
      if (!m) continue;
      let path = m[3]!;
      if (path === '') {
        i++; // the old path of a rename
        path = tokens[++i] ?? '';
      }
      counts.set(path, [m[1] === '-' ? 0 : Number(m[1]), m[2] === '-' ? 0 : Number(m[2])]);
    }
    for (const [path, [insertions, deletions]] of counts) {
      const f = files.get(path);
      if (f) Object.assign(f, { insertions, deletions });
    }
    commits.push({ sha, date, subject, files: [...files.values()] });
  }
  return commits;
}

/** The index over `commits` (newest first). */
export function indexChangeLog(commits: CodeCommit[]): ChangeLog {
  const byPath = new Map<string, number[]>();
  const add = (p: string, i: number) => {
    const list = byPath.get(p);
    if (!list) byPath.set(p, [i]);
    else if (list[list.length - 1] !== i) list.push(i);
  };
  commits.forEach((c, i) => {
    for (const f of c.files) {
      add(f.path, i);
      if (f.from !== undefined) add(f.from, i);
    }
  });
  return { commits, byPath, paths: [...byPath.keys()].sort() };
}

/** The paths of `log` under the folder `dir` (`src/pay/`), from the sorted list. */
export function pathsUnder(log: ChangeLog, dir: string): string[] {
  const prefix = dir.endsWith('/') ? dir : `${dir}/`;
  let lo = 0;
  let hi = log.paths.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (log.paths[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  const out: string[] = [];
  for (let i = lo; i < log.paths.length && log.paths[i]!.startsWith(prefix); i++) out.push(log.paths[i]!);
  return out;
}

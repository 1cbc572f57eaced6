import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { anchorProblem, parseAnchor } from '../../model/anchor.ts';
import { LIMITS } from '../../model/limits.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { pathspecsOf } from '../core/learned-content.ts';
import type { CodeFiles } from './anchor-matches.ts';
import { readBlobs } from './read-blobs.ts';

/** The files of commit `rev` (one `git ls-tree`, asked once), read through one `git cat-file --batch`; null when `rev` is not a commit here. */
export async function commitFiles(kb: KnowledgeBase, rev: string): Promise<CodeFiles | null> {
  const r = await kb.repo.git(['ls-tree', '-r', '-z', '--name-only', '--full-tree', rev], { allowFail: true });
  if (r.code !== 0) return null;
  const files = r.stdout.toString('utf8').split('\0').filter(Boolean);
  return {
    files: async () => files,
    allFiles: async () => files,
    read: async (paths) => {
      const blobs = await readBlobs(
        kb,
        paths.map((p) => `${rev}:${p}`),
      );
      return new Map(paths.map((p) => [p, blobs.get(`${rev}:${p}`) ?? null]));
    },
  };
}

/**
 * The files of the working tree at `root` that git tracks or could (tracked, and untracked but not
 * ignored: `git ls-files --cached --others --exclude-standard`), read from disk. `files` asks git
 * only about what `anchors` name and the manifests (`:(literal)` and `:(glob)` pathspecs; a glob
 * with `{a,b}`, which git's globs lack, asks about the whole tree); `allFiles`, for suggestions,
 * about the whole tree. A file git ignores is not code `axme verify` can ever compare: it matches
 * nothing, as at HEAD.
 */
export function worktreeFiles(kb: KnowledgeBase, root: string, anchors: readonly string[]): CodeFiles {
  const list = async (pathspecs: string[] | null) => {
    if (pathspecs?.length === 0) return [];
    const r = await kb.repo.git(['-C', root, 'ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...(pathspecs ?? [])], {
      allowFail: true,
    });
    return r.code === 0 ? [...new Set(r.stdout.toString('utf8').split('\0').filter(Boolean))] : [];
  };
  const parsed = anchors.filter((a) => anchorProblem(a) === null).map(parseAnchor);
  let all: Promise<string[]> | undefined;
  const allFiles = () => (all ??= list(null));
  const named = pathspecsOf(parsed);
  return {
    files: () => (named === null ? allFiles() : list(named)),
    allFiles,
    read: async (paths) => new Map(paths.map((p) => [p, readText(join(root, p))])),
  };
}

/** The text of a file, or null when it is not there (or too large to be a file anchors read). */
function readText(abs: string): string | null {
  try {
    if (statSync(abs).size > LIMITS.fileBytes * 8) return null;
    return readFileSync(abs, 'utf8');
  } catch {
    return null;
  }
}

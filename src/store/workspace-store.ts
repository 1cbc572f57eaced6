import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { locateRepo, type RepoLocation } from './locate.ts';

/**
 * Finding a workspace store with plain synchronous file checks (no git process): the
 * pre-tool-use hook runs this on every tool call. A workspace store is the bare repository
 * `<workspace>/.axme.git` (docs/workspaces.md); whether it really holds a store of kind `workspace`
 * is checked when it is read, not here.
 */

/** The folder name of a workspace store inside its workspace folder. */
export const WORKSPACE_STORE_DIR = '.axme.git';

export interface WorkspaceLocation {
  /** the workspace folder */
  root: string;
  /** its store: `<root>/.axme.git`, a bare repository */
  gitDir: string;
}

/** Whether `dir` looks like a bare repository (HEAD, objects, refs). */
function isBareRepo(dir: string): boolean {
  return existsSync(join(dir, 'HEAD')) && existsSync(join(dir, 'objects')) && existsSync(join(dir, 'refs'));
}

/** The nearest workspace store at or above `start` (the folder itself included), or null. */
function findWorkspaceStore(start: string): WorkspaceLocation | null {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const gitDir = join(dir, WORKSPACE_STORE_DIR);
    if (isBareRepo(gitDir)) return { root: dir, gitDir };
    if (dirname(dir) === dir) return null;
  }
}

/** The workspace whose store `gitDir` is (a repository opened at `<root>/.axme.git` itself), or null. */
function workspaceOfStore(gitDir: string): WorkspaceLocation | null {
  const dir = resolve(gitDir);
  return basename(dir) === WORKSPACE_STORE_DIR ? { root: dirname(dir), gitDir: dir } : null;
}

/**
 * The workspace a repository (or a folder outside any repository) belongs to: searched upwards
 * from the repository's working tree, or from `cwd` when there is no repository or its working
 * tree is not known (GIT_DIR set without GIT_WORK_TREE, as in a git hook of a linked worktree).
 * A workspace store belongs to itself.
 */
export function workspaceFor(repo: { worktree: string | null; commonDir: string } | null, cwd: string): WorkspaceLocation | null {
  if (!repo) return findWorkspaceStore(cwd);
  const own = workspaceOfStore(repo.commonDir);
  if (own) return own;
  return findWorkspaceStore(repo.worktree ?? cwd);
}

/**
 * The store the sessions of an agent working in `cwd` belong to: its repository, or — in a
 * workspace folder outside any repository — the workspace store. Null when neither exists.
 */
export function sessionStoreAt(cwd: string, env: NodeJS.ProcessEnv): RepoLocation | null {
  const own = locateRepo(cwd, env);
  if (own) return own;
  const ws = findWorkspaceStore(cwd);
  return ws ? locateRepo(ws.gitDir) : null;
}

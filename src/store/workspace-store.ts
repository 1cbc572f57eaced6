import { existsSync, readFileSync } from 'node:fs';
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

/** The line of a repository's info/exclude by which `axme init --workspace` keeps the workspace store out of the folder's own repository. */
export const WORKSPACE_EXCLUDE_LINE = `/${WORKSPACE_STORE_DIR}/`;

/**
 * Whether the `.axme.git` in `dir` was put there on this machine rather than checked out: `dir`
 * is no repository's working tree, or that repository's info/exclude holds WORKSPACE_EXCLUDE_LINE,
 * which `axme init --workspace` writes and git never carries. A `.axme.git` committed to a
 * project comes with every clone and pull; taken as the workspace, its decisions would bind every
 * session there, past every check a sync makes.
 */
function placedHere(dir: string): boolean {
  if (!existsSync(join(dir, '.git'))) return true;
  const loc = locateRepo(dir);
  if (!loc || loc.worktree !== dir) return true;
  try {
    return readFileSync(join(loc.commonDir, 'info', 'exclude'), 'utf8')
      .split('\n')
      .some((l) => l.trim() === WORKSPACE_EXCLUDE_LINE);
  } catch {
    return false;
  }
}

/** The nearest workspace store at or above `start` (the folder itself included) put there on this machine (placedHere), or null. */
function findWorkspaceStore(start: string): WorkspaceLocation | null {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const gitDir = join(dir, WORKSPACE_STORE_DIR);
    if (isBareRepo(gitDir) && placedHere(dir)) return { root: dir, gitDir };
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

import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Actor } from '../../model/common.ts';
import { AxmeError } from '../../model/errors.ts';
import { withoutRepoEnv } from '../../store/git.ts';
import { createBareRepo } from '../../store/init-bare.ts';
import { locateRepo } from '../../store/locate.ts';
import { WORKSPACE_EXCLUDE_LINE, WORKSPACE_STORE_DIR } from '../../store/workspace-store.ts';
import { type InitResult, initStore } from '../admin/init-store.ts';
import { closeKnowledgeBase, openKnowledgeBase } from '../core/kb.ts';
import { detectWorkspace, type WorkspaceDetection } from './detect-workspace.ts';

export interface WorkspaceStoreInit extends InitResult {
  /** the workspace folder */
  root: string;
  /** the workspace store, `<root>/.axme.git` */
  store: string;
  /** true when this call created the bare repository */
  repositoryCreated: boolean;
  detection: WorkspaceDetection;
}

/**
 * Creates the workspace store of the folder `dir` (docs/workspaces.md): the bare repository
 * `<dir>/.axme.git` holding refs/memory/main with `kind: workspace`. The folder is taken as a
 * workspace because the caller asked (`axme init --workspace`), even when it has its own `.git`;
 * it must have at least one member repository (INVALID_INPUT otherwise, nothing created).
 * Idempotent like initStore. The members are listed in `detection`; initialising them is the
 * caller's (the same steps as `axme init` in each).
 */
export async function initWorkspaceStore(opts: {
  dir: string;
  env: NodeJS.ProcessEnv;
  now?: () => Date;
  actor?: Actor;
  session?: string | undefined;
}): Promise<WorkspaceStoreInit> {
  const detection = detectWorkspace({ dir: opts.dir, force: true });
  if (!detection.isWorkspace) {
    throw new AxmeError(
      'INVALID_INPUT',
      `${detection.root} is not a workspace: ${detection.reason}. Run \`axme init --workspace\` in the folder that holds the repositories (or \`axme init\` in a single repository)`,
      { root: detection.root },
    );
  }
  const store = join(detection.root, WORKSPACE_STORE_DIR);
  const repositoryCreated = await createBareRepo(store, opts.env);
  // a workspace folder that is a repository itself must not pick the store up with `git add -A`
  if (detection.ownRepo) excludeFromOwnRepo(detection.root);
  const kb = await openKnowledgeBase({
    cwd: store,
    env: withoutRepoEnv(opts.env),
    now: opts.now,
    actor: opts.actor,
    session: opts.session,
    backend: 'cli',
    workspace: true,
  });
  try {
    const r = await initStore(kb, { kind: 'workspace' });
    return { ...r, root: detection.root, store, repositoryCreated, detection };
  } finally {
    await closeKnowledgeBase(kb);
  }
}

/** Adds `/.axme.git/` to the folder's own repository's info/exclude (once). */
function excludeFromOwnRepo(root: string): void {
  const loc = locateRepo(root);
  if (!loc || loc.worktree !== root) return;
  const file = join(loc.commonDir, 'info', 'exclude');
  const line = WORKSPACE_EXCLUDE_LINE;
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  if (text.split('\n').some((l) => l.trim() === line)) return;
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `${text && !text.endsWith('\n') ? '\n' : ''}# the axme workspace store (axme init --workspace)\n${line}\n`);
}

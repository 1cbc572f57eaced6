import { currentBranch, locateRepo, type RepoLocation } from '../../store/locate.ts';

/**
 * Where a process stands: the repository around a folder, the store its sessions belong to, the
 * branch checked out. Plain file reads, no git process and nothing heavy: the hooks call these on
 * every tool call. This is how a surface reaches the store's location primitives (docs/architecture.md#the-layers: a
 * surface never imports store/).
 */

export { configFiles, configValue, readOr, settingOf, UNKNOWN } from '../../store/git-config.ts';
export { readRefSync } from '../../store/locate.ts';
export { sessionStoreAt, type WorkspaceLocation } from '../../store/workspace-store.ts';
export { currentBranch, locateRepo, type RepoLocation };

/**
 * The branch checked out where a command runs: in `gitDir` when it is known, else in the
 * repository around `dir`. Null when HEAD is detached or there is no repository.
 */
export function branchAt(dir: string, env: NodeJS.ProcessEnv, gitDir?: string | null): string | null {
  const at = gitDir ?? locateRepo(dir, env)?.gitDir;
  return at ? currentBranch(at) : null;
}

import { realpathSync } from 'node:fs';
import { type Actor, SESSION_ID_FORM, SESSION_ID_RE } from '../../model/common.ts';
import { AxmeError } from '../../model/errors.ts';
import { MEMORY_REF } from '../../model/refs.ts';
import type { BackendName } from '../../store/backend.ts';
import { diskCache } from '../../store/cache.ts';
import { withoutRepoEnv } from '../../store/git.ts';
import { locateRepo } from '../../store/locate.ts';
import { openRepo, type Repo } from '../../store/repo.ts';
import { type WorkspaceLocation, workspaceFor } from '../../store/workspace-store.ts';
import { type DerivedCache, derivedCache } from './derived-cache.ts';

export { MEMORY_REF };

/**
 * Everything a knowledge operation needs, passed explicitly: the repository, the ref of the
 * store, a clock, who is acting. What it derives from the store is kept in its `cache`, not in
 * module state.
 */
export interface KnowledgeBase {
  repo: Repo;
  ref: string;
  now: () => Date;
  actor: Actor;
  session?: string | undefined;
  /** who the actor acts for, when a surface knows (`axme serve --http`: the bearer token's name): the commit's `Axme-Token` trailer */
  principal?: string | undefined;
  /** what is derived from the store (states, parses, indexes), in memory and on disk: derived-cache.ts */
  cache: DerivedCache;
  /** the workspace this store belongs to (opened with `workspace: true`), docs/workspaces.md */
  workspace?: WorkspaceLink | undefined;
  /** how locations name this store when it is not the session's own repository (a workspace store, a member written through `scope`) */
  label?: string | undefined;
}

/** A store's workspace: its folder and store, and the workspace's knowledge base once opened. */
export interface WorkspaceLink {
  /** the workspace folder */
  root: string;
  /** the workspace store, `<root>/.axme.git` */
  store: string;
  /** true when this knowledge base is the workspace store itself (a session started in the workspace folder) */
  self: boolean;
  /** this repository's folder relative to the workspace (what `scope` names it by); null for the store itself */
  member: string | null;
  /** the workspace store's knowledge base (same clock, actor, session), opened on first call and kept */
  open(): Promise<KnowledgeBase>;
  /** set once `open` was called: what closeKnowledgeBase closes */
  opened?: Promise<KnowledgeBase> | undefined;
}

export interface OpenOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  now?: () => Date;
  actor?: Actor;
  session?: string;
  backend?: BackendName;
  ref?: string;
  /**
   * look for the workspace the store belongs to (`<ancestor>/.axme.git`): its knowledge is merged
   * into reads and `scope` routes writes; outside any repository, the workspace store itself is
   * opened. Surfaces set it; close such a knowledge base with closeKnowledgeBase.
   */
  workspace?: boolean;
}

/** Bump when the cached parse format changes: old cache files are then ignored. */
// 3: items keep the source of their frontmatter (ParsedFile.source); YAML 1.1 tags are no longer resolved
// 4: safety rules carry the rule families and github.deployWorkflows
const CACHE_VERSION = 4;

export async function openKnowledgeBase(opts: OpenOptions): Promise<KnowledgeBase> {
  if (opts.session !== undefined && !SESSION_ID_RE.test(opts.session)) {
    throw new AxmeError(
      'INVALID_INPUT',
      `session id ${JSON.stringify(opts.session.slice(0, 80))} is not valid: a session id is ${SESSION_ID_FORM} (AXME_SESSION)`,
    );
  }
  const loc = opts.workspace ? locateRepo(opts.cwd, opts.env) : null;
  const ws = opts.workspace ? workspaceFor(loc, opts.cwd) : null;
  // outside any repository, in a workspace: the session's store is the workspace store
  const repo = await openRepo({ cwd: ws && !loc ? ws.gitDir : opts.cwd, env: opts.env, backend: opts.backend });
  const self = !!ws && samePath(repo.commonDir, ws.gitDir);
  return {
    repo,
    workspace: ws ? linkTo(ws, self, opts, loc?.worktree ?? null) : undefined,
    label: self ? ws!.gitDir : undefined,
    ref: opts.ref ?? MEMORY_REF,
    now: opts.now ?? (() => new Date()),
    actor: opts.actor ?? 'human',
    session: opts.session,
    cache: derivedCache(diskCache(repo.axmeDir, CACHE_VERSION)),
  };
}

function linkTo(ws: WorkspaceLocation, self: boolean, opts: OpenOptions, worktree: string | null): WorkspaceLink {
  const link: WorkspaceLink = {
    root: ws.root,
    store: ws.gitDir,
    self,
    member:
      !self && worktree && worktree.startsWith(`${ws.root}/`)
        ? worktree
            .slice(ws.root.length + 1)
            .split('\\')
            .join('/')
        : null,
    open: () => {
      if (link.opened) return link.opened;
      // the workspace store, not whatever repository GIT_DIR (a git hook, a shell) points at
      const p = openKnowledgeBase({ ...opts, env: withoutRepoEnv(opts.env), cwd: ws.gitDir, workspace: false }).then((kb) => {
        kb.workspace = { root: ws.root, store: ws.gitDir, self: true, member: null, open: async () => kb };
        kb.label = ws.gitDir;
        return kb;
      });
      // a failed open is tried again by the next read (a long-running server must not keep the failure)
      p.catch(() => {
        if (link.opened === p) link.opened = undefined;
      });
      return (link.opened = p);
    },
  };
  return link;
}

function samePath(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return a === b;
  }
}

/** Closes a knowledge base: its cache writes finished, its repository and, when it was opened, its workspace's store. */
export async function closeKnowledgeBase(kb: KnowledgeBase): Promise<void> {
  const ws = kb.workspace?.opened;
  // derived work begun ahead of a reader is finished (what it leaves for later with it), then what was left for later is done now
  await kb.cache.drain();
  kb.cache.settle();
  // derived data still being written goes to disk first: after the close, the folder is the caller's
  await Promise.all([
    kb.cache.disk.settle(),
    ws?.then(
      (w) => w.cache.disk.settle(),
      () => {},
    ),
  ]);
  await Promise.all([
    kb.repo.close(),
    ws?.then(
      (w) => closeKnowledgeBase(w),
      () => {},
    ),
  ]);
}

export function notInitialized(kb: KnowledgeBase): AxmeError {
  if (kb.workspace?.self)
    return new AxmeError(
      'NOT_INITIALIZED',
      `the workspace store ${kb.workspace.store} has no axme knowledge yet (${kb.ref} does not exist): run \`axme init --workspace\` in ${kb.workspace.root}`,
      { ref: kb.ref, store: kb.workspace.store },
    );
  return new AxmeError('NOT_INITIALIZED', `this repository has no axme knowledge yet (${kb.ref} does not exist): run \`axme init\` first`, { ref: kb.ref });
}

import { SESSION_ID_RE, type Actor } from '../model/common.ts';
import { AxmeError } from '../model/errors.ts';
import type { BackendName } from '../store/backend.ts';
import { diskCache, type DiskCache } from '../store/cache.ts';
import { openRepo, type Repo } from '../store/repo.ts';

import { MEMORY_REF } from '../model/refs.ts';

export { MEMORY_REF };

/**
 * Everything a knowledge operation needs, passed explicitly: the repository, the ref of the
 * store, a clock, who is acting. The in-memory parse cache lives here, not in module state.
 */
export interface KnowledgeBase {
  repo: Repo;
  ref: string;
  now: () => Date;
  actor: Actor;
  session?: string | undefined;
  /** parsed folders by cache key (bounded), in front of the disk cache */
  memo: Map<string, unknown>;
  disk: DiskCache;
  /** normalized titles of parsed items (items are shared between states by the parse cache) */
  titleKeys: WeakMap<object, string>;
}

export interface OpenOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  now?: () => Date;
  actor?: Actor;
  session?: string;
  backend?: BackendName;
  ref?: string;
}

/** Bump when the cached parse format changes: old cache files are then ignored. */
const CACHE_VERSION = 2;

export async function openKnowledgeBase(opts: OpenOptions): Promise<KnowledgeBase> {
  if (opts.session !== undefined && !SESSION_ID_RE.test(opts.session)) {
    throw new AxmeError('INVALID_INPUT', `session id ${JSON.stringify(opts.session.slice(0, 80))} is not valid: use letters, digits, ".", "_" or "-", at most 64 characters (AXME_SESSION)`);
  }
  const repo = await openRepo({ cwd: opts.cwd, env: opts.env, backend: opts.backend });
  return {
    repo,
    ref: opts.ref ?? MEMORY_REF,
    now: opts.now ?? (() => new Date()),
    actor: opts.actor ?? 'human',
    session: opts.session,
    memo: new Map(),
    disk: diskCache(repo.axmeDir, CACHE_VERSION),
    titleKeys: new WeakMap(),
  };
}

const MEMO_MAX = 64;

/** Keeps `value` under `key` in the knowledge base's memory (newest last, at most MEMO_MAX). */
export function remember<T>(kb: KnowledgeBase, key: string, value: T): T {
  kb.memo.delete(key);
  kb.memo.set(key, value);
  while (kb.memo.size > MEMO_MAX) kb.memo.delete(kb.memo.keys().next().value!);
  return value;
}

export function notInitialized(kb: KnowledgeBase): AxmeError {
  return new AxmeError('NOT_INITIALIZED', `this repository has no axme knowledge yet (${kb.ref} does not exist): run \`axme init\` first`, { ref: kb.ref });
}

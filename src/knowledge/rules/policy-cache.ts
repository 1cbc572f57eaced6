import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MEMORY_REF } from '../../model/refs.ts';
import { defaultPolicy, isPolicy, POLICY_VERSION, type Policy } from '../../safety/policy.ts';
import { writeFileAtomicSync } from '../../store/atomic-file.ts';
import { type RepoLocation, readRefSync } from '../../store/locate.ts';
import { type WorkspaceLocation, workspaceFor } from '../../store/workspace-store.ts';
import type { CompiledPolicy } from './store-policy.ts';

/**
 * The compiled-policy cache of the pre-tool-use hook: `<git-common-dir>/axme/policy.json`,
 * keyed by the memory tips it was compiled from (and the axme and policy versions). Reading it
 * costs two small file reads; when a tip moves the key changes and the policy is compiled again.
 * Derived data: deleting the file changes no answer. Loads nothing heavy (no zod, no git).
 */

interface CacheFile {
  key: string;
  policy: Policy;
}

/** The cache key of a policy compiled from the store at `tip` (and, in a workspace, the workspace store at its tip). */
export function policyKey(axmeVersion: string, tip: string | null, workspace?: { store: string; tip: string | null } | null): string {
  const own = `axme ${axmeVersion}; policy ${POLICY_VERSION}; ${MEMORY_REF}=${tip ?? 'none'}`;
  return workspace ? `${own}; workspace ${workspace.store} ${MEMORY_REF}=${workspace.tip ?? 'none'}` : own;
}

export interface PolicyLoad {
  policy: Policy;
  /** where it came from: the cache file, a fresh compile, or the built-in defaults */
  source: 'cache' | 'compiled' | 'defaults';
  /** the workspace found around the repository (or `cwd`), whose rules are merged in */
  workspace?: WorkspaceLocation | null;
}

/**
 * The policy in force for a repository (null: not in one): the built-in defaults without a
 * store, the cached compile while the tips are unchanged, else `compile` (which loads the heavy
 * layers) — and when even that fails, the defaults with a warning. Never "allow everything".
 * The store the session works in is the repository's, or outside any repository the workspace
 * store found from `cwd`; when a workspace store is another store (`<ancestor>/.axme.git`), its
 * tip is part of the key too: moving either compiles again. The cache lives with the own store.
 */
export async function policyFor(loc: RepoLocation | null, axmeVersion: string, compile: () => Promise<CompiledPolicy>, cwd?: string): Promise<PolicyLoad> {
  const ws = loc || cwd !== undefined ? workspaceFor(loc, cwd ?? '.') : null;
  const own = loc?.commonDir ?? ws?.gitDir;
  if (!own) return { policy: defaultPolicy(), source: 'defaults' };
  const other = ws && ws.gitDir !== own ? ws.gitDir : null;
  const tip = readRefSync(own, MEMORY_REF);
  const otherTip = other ? readRefSync(other, MEMORY_REF) : null;
  if (tip === null && otherTip === null) return { policy: defaultPolicy(), source: 'defaults', workspace: ws };
  const keyOf = (t: string | null, o: string | null) => policyKey(axmeVersion, t, other ? { store: other, tip: o } : null);
  const known = tip !== 'unknown' && otherTip !== 'unknown';
  if (known) {
    const hit = readCachedPolicy(own, keyOf(tip, otherTip));
    if (hit) return { policy: hit, source: 'cache', workspace: ws };
  }
  try {
    const c = await compile();
    if ((c.commit || c.workspaceCommit) && known) {
      try {
        writeCachedPolicy(own, keyOf(c.commit, c.workspaceCommit ?? null), c.policy);
      } catch {
        // a read-only repository: answer anyway, compile again next time
      }
    }
    return { policy: c.policy, source: 'compiled', workspace: ws };
  } catch (err) {
    const why = (err as Error).message.split('\n')[0];
    return {
      policy: defaultPolicy([`could not read this repository's safety rules (${why}); the built-in defaults apply`]),
      source: 'defaults',
      workspace: ws,
    };
  }
}

function cachePath(commonDir: string): string {
  return join(commonDir, 'axme', 'policy.json');
}

/** The cached policy for `key`, or null (missing, for other tips, damaged). */
export function readCachedPolicy(commonDir: string, key: string): Policy | null {
  try {
    const c = JSON.parse(readFileSync(cachePath(commonDir), 'utf8')) as CacheFile;
    return c.key === key && isPolicy(c.policy) ? c.policy : null;
  } catch {
    return null;
  }
}

/** Stores a compiled policy under `key` (atomically: a reader sees the old file or the new one). */
export function writeCachedPolicy(commonDir: string, key: string, policy: Policy): void {
  writeFileAtomicSync(cachePath(commonDir), `${JSON.stringify({ key, policy } satisfies CacheFile)}\n`);
}

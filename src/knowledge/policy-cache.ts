import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultPolicy, isPolicy, POLICY_VERSION, type Policy } from '../safety/policy.ts';
import { writeFileAtomicSync } from '../store/atomic-file.ts';
import { readRefSync, type RepoLocation } from '../store/locate.ts';
import { MEMORY_REF } from '../model/refs.ts';

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

/** The cache key of a policy compiled from the store at `tip`. */
export function policyKey(axmeVersion: string, tip: string): string {
  return `axme ${axmeVersion}; policy ${POLICY_VERSION}; ${MEMORY_REF}=${tip}`;
}

export interface PolicyLoad {
  policy: Policy;
  /** where it came from: the cache file, a fresh compile, or the built-in defaults */
  source: 'cache' | 'compiled' | 'defaults';
}

/**
 * The policy in force for a repository (null: not in one): the built-in defaults without a
 * store, the cached compile while the tip is unchanged, else `compile` (which loads the heavy
 * layers) — and when even that fails, the defaults with a warning. Never "allow everything".
 */
export async function policyFor(loc: RepoLocation | null, axmeVersion: string, compile: () => Promise<{ policy: Policy; commit: string | null }>): Promise<PolicyLoad> {
  if (!loc) return { policy: defaultPolicy(), source: 'defaults' };
  const tip = readRefSync(loc.commonDir, MEMORY_REF);
  if (tip === null) return { policy: defaultPolicy(), source: 'defaults' };
  if (tip !== 'unknown') {
    const hit = readCachedPolicy(loc, policyKey(axmeVersion, tip));
    if (hit) return { policy: hit, source: 'cache' };
  }
  try {
    const { policy, commit } = await compile();
    if (commit && tip !== 'unknown') {
      try {
        writeCachedPolicy(loc, policyKey(axmeVersion, commit), policy);
      } catch {
        // a read-only repository: answer anyway, compile again next time
      }
    }
    return { policy, source: 'compiled' };
  } catch (err) {
    const why = (err as Error).message.split('\n')[0];
    return { policy: defaultPolicy([`could not read this repository's safety rules (${why}); the built-in defaults apply`]), source: 'defaults' };
  }
}

function cachePath(loc: RepoLocation): string {
  return join(loc.commonDir, 'axme', 'policy.json');
}

/** The cached policy for `key`, or null (missing, for other tips, damaged). */
export function readCachedPolicy(loc: RepoLocation, key: string): Policy | null {
  try {
    const c = JSON.parse(readFileSync(cachePath(loc), 'utf8')) as CacheFile;
    return c.key === key && isPolicy(c.policy) ? c.policy : null;
  } catch {
    return null;
  }
}

/** Stores a compiled policy under `key` (atomically: a reader sees the old file or the new one). */
export function writeCachedPolicy(loc: RepoLocation, key: string, policy: Policy): void {
  writeFileAtomicSync(cachePath(loc), `${JSON.stringify({ key, policy } satisfies CacheFile)}\n`);
}

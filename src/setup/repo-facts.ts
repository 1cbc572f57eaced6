import { join } from 'node:path';
import { readOr, settingOf, UNKNOWN } from '../store/git-config.ts';
import { type RepoLocation, readRefSync } from '../store/locate.ts';

/** What the judge of git's settings (sandbox-git-config.ts) may ask about the repository, outside the sandbox; nothing runs a program. */
export interface RepoFacts {
  /** the names of the configured remotes */
  remotes(): string[];
  /** whether the ref (`refs/heads/x`, `refs/remotes/origin/x`) exists */
  hasRef(ref: string): boolean;
  /** the branch checked out (HEAD), or null: detached, unborn elsewhere, unreadable */
  head(): string | null;
  /** the value of a setting, null when it is not set, undefined when only git can tell (an include, an escape) */
  setting(key: string): string | null | undefined;
}

/**
 * RepoFacts for the repository at `loc`, read from its files as git reads them, no git process (a
 * `git checkout <branch>` is common): the remotes from its config's `[remote "…"]` sections, a ref
 * from its loose file or `packed-refs` (readRefSync), a setting from git's config files (settingOf).
 * What only git can tell reads as undefined: the judge then records nothing that depends on it.
 */
export function repoFacts(loc: Pick<RepoLocation, 'commonDir' | 'gitDir'>, env: NodeJS.ProcessEnv): RepoFacts {
  let remotes: string[] | null = null;
  return {
    remotes: () => (remotes ??= [...readOr(join(loc.commonDir, 'config')).matchAll(/^\s*\[remote\s+"([^"\n]+)"\s*\]/gm)].map((m) => m[1]!)),
    hasRef: (ref) => {
      const oid = readRefSync(loc.commonDir, ref);
      return oid !== null && oid !== 'unknown';
    },
    head: () => /^ref: refs\/heads\/(\S+)\s*$/.exec(readOr(join(loc.gitDir, 'HEAD')))?.[1] ?? null,
    setting: (key) => {
      const v = settingOf(loc, env, key);
      return v === UNKNOWN ? undefined : v;
    },
  };
}

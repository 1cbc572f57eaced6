import { formerRemoteKey } from '../model/former-remote.ts';
import { gitOutside } from './git-config-grant.ts';
import type { RepoFacts } from './repo-facts.ts';

/**
 * A remote's name gone and added again is the same remote moved (model/former-remote.ts): what a
 * remote's new URL is compared with, and the line that remembers the URL of one going away.
 */

/**
 * The URL remote `name` has, else the one it had when axme last removed it (or renamed it away,
 * or unset its URL); null when it never had one; undefined when only git can tell.
 */
export function priorRemoteUrl(facts: RepoFacts, name: string): string | null | undefined {
  const now = facts.setting(`remote.${name}.url`);
  return now !== null ? now : facts.setting(formerRemoteKey(name));
}

/**
 * Shell text run after axme's line that removes remote `name` (or renames it away, or unsets its
 * URL) succeeded: remembers the URL it has now, outside the sandbox. Empty when it has none to keep.
 */
export function rememberRemote(cwd: string, facts: RepoFacts, name: string): string {
  const url = facts.setting(`remote.${name}.url`);
  return typeof url === 'string' ? ` && ${gitOutside(cwd, ['config', '--local', formerRemoteKey(name), url])}` : '';
}

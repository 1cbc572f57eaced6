import { urlHost } from '../safety/transport-settings.ts';
import type { RepoFacts } from './repo-facts.ts';

/**
 * Where a branch's pushes and pulls go, and whether a change of git's settings moves them to
 * another host (docs/safety.md, "git's settings"): the judgement `remote.<r>.url` gets, for the
 * settings that pick the remote instead of its URL — `branch.<b>.pushRemote`, `remote.pushDefault`,
 * `branch.<b>.remote`. A remote the agent added may point anywhere; the user's next `git push` or
 * `git pull` of a branch must not be sent to it without the user.
 */

/** A setting changed: its key as settingKey writes it, its new value (null: unset). */
export type SettingChange = Record<string, string | null>;

/** A setting's key as git matches it: the section and the name in any case, a subsection (a branch's, a remote's name) as written. */
export function settingKey(key: string): string {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  return first === last ? key.toLowerCase() : `${key.slice(0, first).toLowerCase()}${key.slice(first, last)}${key.slice(last).toLowerCase()}`;
}

/** What git reads where this reader cannot follow it (an include, an escape): only git can tell. */
const UNSURE = Symbol('unsure');
type Read = string | null | typeof UNSURE;

/**
 * Whether `change` moves where `branch` is pushed or pulled to another host: git's order for the
 * push (`branch.<b>.pushRemote`, `remote.pushDefault`, `branch.<b>.remote`, then the one remote or
 * `origin`) and for the pull (`branch.<b>.remote`, then the same default), each remote read as the
 * host of its URL (`pushurl` first for a push). A branch that went nowhere before (no such remote,
 * no URL) may go anywhere, as a new remote may; a setting only git can read counts as a move.
 */
export function movesBranch(facts: RepoFacts, branch: string, change: SettingChange): boolean {
  const before = (key: string): Read => {
    const v = facts.setting(key);
    return v === undefined ? UNSURE : v;
  };
  const after = (key: string): Read => (key in change ? change[key]! : before(key));
  return (['push', 'pull'] as const).some((way) => {
    const was = destination(facts, way, remoteOf(facts, branch, way, before), before);
    const now = destination(facts, way, remoteOf(facts, branch, way, after), before);
    return was === UNSURE || now === UNSURE || (was !== null && was !== now);
  });
}

/** The remote `branch` is pushed or pulled to, read through `read`. */
function remoteOf(facts: RepoFacts, branch: string, way: 'push' | 'pull', read: (key: string) => Read): Read {
  const keys = way === 'push' ? [`branch.${branch}.pushremote`, 'remote.pushdefault', `branch.${branch}.remote`] : [`branch.${branch}.remote`];
  for (const key of keys) {
    const v = read(key);
    if (v !== null) return v;
  }
  const remotes = facts.remotes();
  return remotes.length === 1 ? remotes[0]! : 'origin';
}

/** Where a remote leads: `.` (this repository), the host of its URL (a local path: the path), or null when it has none. */
function destination(facts: RepoFacts, way: 'push' | 'pull', remote: Read, read: (key: string) => Read): Read {
  if (remote === UNSURE || remote === '.') return remote;
  if (remote === null) return null;
  const push = way === 'push' ? read(`remote.${remote}.pushurl`) : null;
  const url = push ?? read(`remote.${remote}.url`);
  if (url === UNSURE) return UNSURE;
  return url === null ? null : (urlHost(url) ?? url);
}

/** The remote a remote-tracking name (`origin/main`, `up/team/x`) belongs to: the longest remote name it starts with, or null (a local branch). */
export function remoteOfTracking(facts: RepoFacts, upstream: string): string | null {
  const found = facts
    .remotes()
    .filter((r) => upstream.startsWith(`${r}/`))
    .sort((a, b) => b.length - a.length);
  return found[0] ?? null;
}

import { configOperands, writtenSetting } from './git-settings.ts';
import { UNKNOWN } from './shell.ts';
import { type TransportFinding, transportFinding, urlHost } from './transport-settings.ts';

/** A setting of the repository the call runs in (EvalContext.gitSetting), by its dotted name; null when unset or unknown. */
type Read = (key: string) => string | null;

/**
 * `git config branch.<b>.pushRemote R`, `git config remote.pushDefault R` or `git config
 * branch.<b>.remote R` written to stay, that sends a branch's pushes to another host than the one
 * they go to now: the branch's next `git push` goes where R's URL leads, as if the remote it pushed
 * to had been moved there (git-remote-moves.ts). A push is read as git reads it — the branch's
 * `pushRemote`, then `remote.pushDefault`, then its `remote`, then `origin`; the remote's
 * `pushurl`, then its `url` (a URL given as the remote is its own) — for the branch the key names
 * (`pushDefault`: the branch checked out, and a branch with no remote of its own). The same host
 * (a fork beside origin), a branch that pushed nowhere before, a value only the shell knows and a
 * setting given for one call pass; a remote with no URL yet (added on the same line) counts as
 * another host.
 */
export function movedPushes(
  call: { sub: string; args: string[]; cwd: string; gitDir: string | null },
  branchOf: (dir: string, gitDir: string | null) => string | null,
  gitSetting: ((dir: string, gitDir: string | null, key: string) => string | null) | undefined,
): TransportFinding | null {
  const written = gitSetting && writtenSetting(call);
  if (!written) return null;
  const [key, value] = written;
  const byBranch = /^branch\.(.+)\.(pushremote|remote)$/.test(key);
  if ((!byBranch && key !== 'remote.pushdefault') || value.includes(UNKNOWN)) return null;
  // the key as typed: a branch's name keeps its case
  const typed = configOperands(call.args)
    .map((i) => call.args[i]!)
    .find((v) => v.toLowerCase() === key);
  if (!typed || typed.includes(UNKNOWN)) return null;
  const before: Read = (k) => gitSetting(call.cwd, call.gitDir, k);
  const after: Read = (k) => (norm(k) === norm(typed) ? value : before(k));
  const branches = byBranch ? [typed.slice(typed.indexOf('.') + 1, typed.lastIndexOf('.'))] : [branchOf(call.cwd, call.gitDir), null];
  for (const branch of branches) {
    const from = destination(pushRemote(branch, before), before);
    const to = destination(pushRemote(branch, after), after);
    if (from === null || from === to) continue;
    const whose = branch === null ? 'a branch with no remote of its own' : `the branch ${branch}`;
    return transportFinding(
      'network.redirect',
      `\`git config ${typed} ${value}\` sends the pushes of ${whose} from ${from} to ${to ?? `${value}, which has no URL yet (a remote added on the same line: add it on its own line first)`}`,
    );
  }
  return null;
}

/** A setting's name as git matches it: section and key in any case, a subsection as written. */
function norm(key: string): string {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  return first === last ? key.toLowerCase() : `${key.slice(0, first).toLowerCase()}${key.slice(first, last)}${key.slice(last).toLowerCase()}`;
}

/** The remote git pushes `branch` to (null: a branch with no settings of its own). */
function pushRemote(branch: string | null, read: Read): string {
  const keys = branch === null ? ['remote.pushdefault'] : [`branch.${branch}.pushremote`, 'remote.pushdefault', `branch.${branch}.remote`];
  for (const k of keys) {
    const v = read(k);
    if (v) return v;
  }
  return 'origin';
}

/** Where a push to `remote` goes: `.` (this repository), the host of its push URL (a path: the path), or null when it has none. */
function destination(remote: string, read: Read): string | null {
  if (remote === '.') return remote;
  const url = read(`remote.${remote}.pushurl`) ?? read(`remote.${remote}.url`) ?? (/[/:]/.test(remote) ? remote : null);
  return url === null ? null : (urlHost(url) ?? url);
}

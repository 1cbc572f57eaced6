import { type Invocation, programName } from '../command.ts';
import type { Hit } from './args.ts';
import { protectedBranch } from './git-history.ts';

/**
 * Jujutsu (`jj`), which keeps a git repository and pushes to its remotes, read as the git history
 * family reads git (docs/safety.md, the `gitHistory` row): a protected branch's bookmark deleted
 * or renamed (`jj bookmark delete main`: the next `jj git push` deletes it on the remote), moved
 * backwards or sideways (`jj bookmark set main -r x --allow-backwards`: the next push forces it),
 * or pushed (`jj git push -b main`, as `git push origin main`). Its other commands (`jj log`,
 * `jj bookmark set feature-x`, `jj git push -b feature-x`) pass.
 */

/** `jj bookmark` (and the older `jj branch`) and their verbs' short names. */
const BOOKMARK = new Set(['bookmark', 'branch', 'b']);
const VERBS: Readonly<Record<string, string>> = {
  d: 'delete',
  delete: 'delete',
  r: 'rename',
  rename: 'rename',
  s: 'set',
  set: 'set',
  m: 'move',
  move: 'move',
  c: 'create',
  create: 'create',
};
/** Options of jj's that take a value, before or among a command's names. */
const VALUED = new Set([
  '-R',
  '--repository',
  '--at-op',
  '--at-operation',
  '--config',
  '--config-toml',
  '--color',
  '-r',
  '--revision',
  '--to',
  '--from',
  '-b',
  '--bookmark',
  '--remote',
  '-c',
  '--change',
]);

function names(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (VALUED.has(a)) i++;
    else if (!a.startsWith('-')) out.push(a);
  }
  return out;
}

/** What such a jj command does to a protected branch, as a hit, or null. */
export function checkJjBookmarks(inv: Invocation, protectedBranches: readonly string[]): Hit | null {
  if (programName(inv.program) !== 'jj') return null;
  const args = inv.args.map((w) => w.value);
  const [group, verb, ...rest] = names(args);
  if (group && BOOKMARK.has(group) && verb && Object.hasOwn(VERBS, verb)) {
    const does = VERBS[verb]!;
    const branch = rest.map((n) => protectedBranch(n.replace(/^(?:exact|glob):/, ''), protectedBranches)).find(Boolean);
    if (!branch) return null;
    const backwards = args.some((a) => a === '--allow-backwards' || a === '-B');
    if (does === 'delete' || does === 'rename' || backwards)
      return {
        rule: `jj bookmark ${does} ${branch}`,
        reason: `\`jj bookmark ${does}\`${backwards ? ' --allow-backwards' : ''} on the protected branch ${branch}: the next \`jj git push\` ${does === 'delete' || does === 'rename' ? 'deletes it on the remote' : 'forces it back, dropping the commits after it'}`,
      };
    return null;
  }
  if (group === 'git' && verb === 'push') {
    const pushed = args.flatMap((a, i) => (args[i - 1] === '-b' || args[i - 1] === '--bookmark' ? [a] : a.startsWith('--bookmark=') ? [a.slice(11)] : []));
    const branch = pushed.map((n) => protectedBranch(n.replace(/^(?:exact|glob):/, ''), protectedBranches)).find(Boolean);
    return branch
      ? {
          rule: `jj git push -b ${branch}`,
          reason: `\`jj git push\` of the protected branch ${branch} moves it on the remote (forced, when the bookmark moved sideways), as \`git push origin ${branch}\``,
        }
      : null;
  }
  return null;
}

import { posix } from 'node:path';
import type { Invocation } from './command.ts';
import { gitGlobalOption } from './git-global-options.ts';
import { environmentVariables } from './git-settings.ts';
import { UNKNOWN } from './shell.ts';

/**
 * A git call given a work tree of its own (`git --work-tree=DIR`, `GIT_WORK_TREE=DIR git …`):
 * the verbs that write the tree from the repository (`checkout`, `restore`, `switch`,
 * `read-tree`, `checkout-index`) write into DIR, not into the checkout git runs in. `git
 * --work-tree=/tmp/export checkout HEAD -- .` exports the tree into a folder; the project's
 * uncommitted work is untouched there (its index is set to the commit, its files keep what they
 * hold). DIR is then a folder written into, as `tar -x -C DIR` writes (families/system.ts): the
 * home folder, `/` or a guarded place stay denied. A DIR that is the folder git runs in or one
 * above it, or the folder holding the repository's `.git`, is the project's own tree.
 */

/** The git verbs that write the work tree from the repository's index or a commit (`reset --hard` with any work tree stays `reset --hard`: it resets the index too). */
export const TREE_WRITERS: ReadonlySet<string> = new Set(['checkout', 'restore', 'switch', 'read-tree', 'checkout-index']);

/**
 * The work tree a git call is given (`--work-tree`, then `GIT_WORK_TREE` before the program), made
 * absolute against the folder git runs in after its `-C` options (`~` expanded); null when none is
 * given. A value only the shell knows keeps UNKNOWN.
 */
export function givenWorkTree(inv: Invocation, cwd: string, home: string): string | null {
  const args = inv.args.map((w) => w.value);
  let dir = cwd;
  let tree: string | null = null;
  for (let i = 0; i < args.length && args[i]!.startsWith('-'); ) {
    const { name, value, next } = gitGlobalOption(args, i);
    i = next;
    if (value === undefined || value === '') continue;
    if (name === '-C' && !value.includes(UNKNOWN)) dir = absolute(value, dir, home);
    else if (name === '--work-tree') tree = value;
  }
  tree ??= environmentVariables(inv).get('GIT_WORK_TREE') || null;
  return tree === null ? null : tree.includes(UNKNOWN) ? tree : absolute(tree, dir, home);
}

/**
 * Whether a git call's work tree (givenWorkTree) is a folder apart from the checkout it runs in:
 * known, neither `cwd` nor above it, nor the folder holding `gitDir` when that is a `.git`.
 */
export function treeElsewhere(workTree: string | null, cwd: string, gitDir: string | null): boolean {
  if (workTree === null || workTree.includes(UNKNOWN)) return false;
  if (workTree === cwd || cwd.startsWith(`${workTree.replace(/\/$/, '')}/`)) return false;
  return !(gitDir && posix.basename(gitDir) === '.git' && posix.dirname(gitDir) === workTree);
}

/** The folder a git call's tree-writing verb writes into when it is given a work tree (`sub`: its verb), else null. */
export function writtenWorkTree(sub: string | undefined, inv: Invocation, cwd: string, home: string): string | null {
  if (sub === undefined || !TREE_WRITERS.has(sub)) return null;
  const tree = givenWorkTree(inv, cwd, home);
  return tree === null || tree.includes(UNKNOWN) ? null : tree;
}

function absolute(value: string, from: string, home: string): string {
  return posix.resolve(from, value.replace(/^~(?=\/|$)/, home));
}

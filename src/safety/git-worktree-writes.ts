import { posix } from 'node:path';
import { spelledOutNames } from './long-options.ts';
import type { PathKind } from './paths.ts';

/**
 * What a git call does to the working tree's uncommitted work, for git-rules.ts: a checkout or
 * restore of the whole tree, a folder or a pattern; the plumbing that writes the index over the
 * tree (`read-tree -u --reset`, `checkout-index -a -f`); and a template folder given to `git init`
 * of the repository it runs in, whose hooks git copies into the hooks folder.
 */

/** What these checks read of a git call (git-rules.ts GitCall): its verb, arguments, folder and settings. */
interface GitCallShape {
  sub: string;
  args: string[];
  cwd: string;
  config: ReadonlyMap<string, string>;
}

/** The options of checkout and restore that take the next word (`-b NAME`, `-s REV`): no path. */
const PATH_VERB_VALUED = new Set(['-b', '-B', '--orphan', '-s', '--source', '--conflict', '--pathspec-from-file', '--inter-hunk-context', '-U', '--unified']);

/**
 * What a checkout, restore or switch throws away of the uncommitted work: `the whole tree`, or
 * the folder or pattern it names (`git checkout -- src`, `git checkout HEAD~3 -- lib/`, `git
 * restore 'src/*.ts'`), a folder saying how it was known; null when it names files one by one,
 * switches branches, or restores the index alone (`--staged`).
 */
export function discardedWork(call: GitCallShape, pathKind?: (path: string) => PathKind | null): string | null {
  const a = call.args;
  // switching with --force / --discard-changes throws local changes away like `checkout -- .`
  if (a.some((x) => x === '--force' || x === '--discard-changes' || (/^-[A-Za-z]+$/.test(x) && x.includes('f') && call.sub !== 'restore')))
    return 'the whole tree';
  if (call.sub === 'switch') return null;
  const dash = a.indexOf('--');
  const operands: string[] = [];
  for (let i = 0; i < (dash < 0 ? a.length : dash); i++) {
    if (PATH_VERB_VALUED.has(a[i]!)) i++;
    else if (!a[i]!.startsWith('-')) operands.push(a[i]!);
  }
  let paths = dash >= 0 ? a.slice(dash + 1) : operands;
  let folderByName = dash >= 0;
  if (call.sub === 'restore') {
    const onlyStaged = a.some((x) => x === '--staged' || x === '-S') && !a.some((x) => x === '--worktree' || x === '-W');
    if (onlyStaged) return null;
    // restore takes no revision among its operands: every one is a path
    if (dash >= 0) paths = [...operands, ...paths];
    folderByName = true;
  } else if (dash < 0) {
    // `git checkout <branch>` switches branches; `git checkout <rev> <path>…` restores the paths; `-b`/`-B`/`--orphan` make a branch
    if (a.some((x) => /^(-[bB]|--orphan)$/.test(x) || /^-[A-Za-z]*[bB]$/.test(x))) return null;
    if (operands.length > 1) paths = operands.slice(1);
  }
  const root = call.cwd;
  if (paths.some((p) => ['.', './', '*', ':/', ':/*', ':(top)', ':(top).'].includes(p) || p === root || p === `${root}/`)) return 'the whole tree';
  // without `--`, one word alone may be a branch: only a folder or a pattern spelled as one counts there
  // what is on the disk decides where it can be seen (the hook's pathKind): `bin/setup` is a file, `docs.v2` a folder
  for (const p of paths) {
    if (manyFiles(p)) return p;
    if (!folderByName) continue;
    const kind = pathKind?.(posix.resolve(root, p)) ?? null;
    if (kind === 'folder') return `${p} (a folder on disk)`;
    if (kind === null && folderName(p)) return `${p} (a name without an extension, which the disk does not hold here, is taken for a folder)`;
  }
  return null;
}

/** A pathspec that names many files by its spelling: a folder (`src/`, `..`), a pattern (`*.ts`, `src/[ab]*`), git's magic (`:!x`, `:(glob)…`). */
function manyFiles(path: string): boolean {
  return /\/$|(^|\/)\.\.?$|[*?[]/.test(path) || path.startsWith(':');
}

/**
 * Whether a path is taken for a folder: its last part has no extension (`src`, `packages/core`),
 * but for the files that have none by custom — `Makefile`, `Dockerfile` (…file), `LICENSE`,
 * `README` (capitals), a dotfile (`.gitignore`), `gradlew`, `mvnw`, `configure`.
 */
function folderName(path: string): boolean {
  const last = path.slice(path.lastIndexOf('/') + 1);
  return !last.includes('.') && !/file$/i.test(last) && !/^[A-Z0-9_-]+$/.test(last) && !/^(gradlew|mvnw|configure)$/.test(last);
}

/** The options of `git init` that take the next word. */
const INIT_VALUED = new Set(['--template', '--separate-git-dir', '--object-format', '--ref-format', '-b', '--initial-branch']);

/**
 * `git init --template=DIR` (or `-c init.templateDir=DIR`, `GIT_TEMPLATE_DIR=DIR`) of the folder it
 * runs in: run again in a repository, git copies the template's hooks it lacks into its hooks folder.
 */
export function reinitTemplate(call: GitCallShape): boolean {
  let template = call.config.has('init.templatedir');
  const operands: string[] = [];
  for (let i = 0; i < call.args.length; i++) {
    const v = call.args[i]!;
    // git resolves an abbreviated long option (`--templ`)
    const typed = v.split('=', 1)[0]!;
    const word = typed.length > 4 && '--template'.startsWith(typed) ? `--template${v.slice(typed.length)}` : v;
    if (word === '--template' || word.startsWith('--template=')) template = true;
    if (INIT_VALUED.has(word)) i++;
    else if (!word.startsWith('-')) operands.push(word);
  }
  return template && (operands.length === 0 || posix.resolve(call.cwd, operands[0]!) === call.cwd);
}

/** The long options of read-tree and checkout-index, against which git resolves an abbreviation (`--res`). */
const READ_TREE_LONG = [
  '--empty',
  '--reset',
  '--prefix',
  '--index-output',
  '--no-sparse-checkout',
  '--trivial',
  '--aggressive',
  '--dry-run',
  '--quiet',
  '--recurse-submodules',
];
const CHECKOUT_INDEX_LONG = [
  '--all',
  '--force',
  '--quiet',
  '--no-create',
  '--index',
  '--stdin',
  '--temp',
  '--prefix',
  '--stage',
  '--ignore-skip-worktree-bits',
];

/**
 * `git read-tree -u --reset TREE` (the tree written over every uncommitted change) and `git
 * checkout-index --force` of every file (`-a`, or the names `--stdin` reads): plumbing that
 * overwrites the working tree as `git checkout -- .` does. Not `read-tree -m -u` (it stops at a
 * changed file), nor `checkout-index --prefix=DIR/` (it writes elsewhere).
 */
export function overwritesTree(call: GitCallShape): boolean {
  const a = spelledOutNames(call.args, call.sub === 'read-tree' ? READ_TREE_LONG : CHECKOUT_INDEX_LONG);
  const letter = (c: string) => a.some((x) => /^-[A-Za-z]+$/.test(x) && x.includes(c));
  if (call.sub === 'read-tree') return a.includes('--reset') && (a.includes('-u') || letter('u'));
  if (a.some((x) => x.startsWith('--prefix'))) return false;
  return (a.includes('--force') || letter('f')) && (a.includes('--all') || a.includes('--stdin') || letter('a'));
}

import { posix } from 'node:path';
import { operandAt } from './argv.ts';
import { RUNNER_VALUED, runnerValued } from './runner-words.ts';

/**
 * The workspaces a package manager's command runs a script in (project-scripts.ts): the members
 * its options select — npm's `-w NAME|FOLDER` and `--workspaces`, pnpm's `--filter` and `-r`,
 * bun's `--filter`, yarn's `workspace NAME` and `workspaces foreach|run` — found through the
 * workspace root's globs (package.json `workspaces`, pnpm-workspace.yaml `packages`) and each
 * member's package.json `name`. What cannot be listed or read is left out: the command is then
 * judged as the rest of it reads.
 */

/** A file's text as the hook reads it: null when there is no such file, undefined when it cannot be told. */
type ReadText = (path: string) => string | null | undefined;

/** The names of the folders in a folder, undefined when it cannot be told (EvalContext.folderNames). */
export type FolderNames = (dir: string) => string[] | undefined;

/**
 * How many members one command's workspaces hold for the guard (the first in name order): their
 * package.json files are the most it reads, each up to PROJECT_FILE_MAX, so 32 keeps the hook's
 * answer within a few milliseconds on a cold disk (bench/hook.bench.ts), and a command rarely
 * selects more; a member past it is not read (judged as the rest of the line reads).
 */
export const MAX_MEMBERS = 32;

/** How many folders one command lists to expand the workspace globs (`packages/*` lists one). */
const MAX_LISTED = 16;

/** How many folders up a package manager looks for its workspace root. */
const MAX_UP = 32;

/** The members a command selects: every one, or those its selectors name. */
export type Selection = ({ all: true } | { all: false; selectors: string[] }) & {
  /** `--include-workspace-root`, pnpm's `-w` (`--workspace-root`): the root's own package.json too */
  root?: boolean;
};

/**
 * The members npm's, pnpm's or bun's options select (`-w web`, `--workspace=web`, `--workspaces`,
 * `-ws`, `--filter web`, `-F web`, `-r`, `--recursive`; pnpm's `-w`, `--workspace-root`: the root,
 * wherever the command runs in the workspace), null when they select none: the script
 * is the package.json's in the folder the command runs in.
 */
export function selectedByOptions(program: string, args: readonly string[]): Selection | null {
  const selectors: string[] = [];
  let all = false;
  let root = false;
  const valued = runnerValued(program);
  for (let i = 0; i < args.length && args[i] !== '--'; i++) {
    const a = args[i]!;
    // pnpm's `-w`: the workspace root's own package.json, wherever in the workspace the command runs
    if (program === 'pnpm' && (a === '-w' || a === '--workspace-root')) root = true;
    const eq = /^(--workspace|--filter|--filter-prod)=(.+)$/.exec(a);
    if (program === 'npm' && /^(?:--workspaces|--ws|-ws)(?:=true)?$/.test(a)) all = true;
    else if (program === 'pnpm' && (a === '-r' || a === '--recursive')) all = true;
    else if (eq && (program === 'npm') === (eq[1] === '--workspace')) selectors.push(eq[2]!);
    else if (program === 'npm' && (a === '-w' || a === '--workspace')) selectors.push(args[++i] ?? '');
    else if (program !== 'npm' && (a === '--filter' || a === '-F' || a === '--filter-prod')) selectors.push(args[++i] ?? '');
    else if (valued.has(a)) i++;
  }
  if (args.some((a) => a === '--include-workspace-root' || a === '--include-workspace-root=true')) root = true;
  if (all) return { all: true, root };
  return selectors.length || root ? { all: false, selectors, root } : null;
}

/** `yarn workspace NAME …` selects NAME, `yarn workspaces foreach …` every member (its --include/--exclude read as every one); null for another runner. */
export function selectedByYarn(runner: readonly string[]): Selection | null {
  if (runner[0] !== 'yarn') return null;
  const at = operandAt(runner.slice(1), RUNNER_VALUED);
  if (runner[at + 1] === 'workspace') {
    const name = operandAt(runner.slice(1), RUNNER_VALUED, at + 1);
    return name < 0 ? null : { all: false, selectors: [runner[name + 1]!] };
  }
  return runner[at + 1] === 'workspaces' ? { all: true } : null;
}

/**
 * The folders of the members `selection` names, under the workspace root found from `start` up
 * (pnpm: pnpm-workspace.yaml; the others: a package.json with `workspaces`), at most MAX_MEMBERS
 * read. A selector that names no member selects none; one of pnpm's filters that adds members by
 * their dependencies (`web...`, `...^web`, `[origin/main]`, `!web`) selects every member.
 */
export function selectedMembers(program: string, selection: Selection, start: string, read: ReadText, list: FolderNames | undefined): string[] {
  // the root itself is found by reading files alone (pnpm's `-w`); its members need the folders listed
  const root = list || selection.root ? workspaceRoot(program, start, read) : null;
  const folders = root && list ? memberFolders(root.dir, root.patterns, list) : [];
  if (selection.root && root) folders.unshift(root.dir);
  if (selection.all) return folders;
  const names = new Map<string, string | null>();
  const nameOf = (dir: string): string | null => {
    if (!names.has(dir)) names.set(dir, packageName(read(`${dir}/package.json`)));
    return names.get(dir)!;
  };
  const out = new Set<string>(selection.root && root ? [root.dir] : []);
  for (const raw of selection.selectors) {
    if (program !== 'npm' && /\.\.\.|\^|\[|^!/.test(raw)) return folders;
    // a package named as its folder is (`@acme/web` in packages/web) is found without reading the others
    const likely = folders.find((d) => posix.basename(d) === raw.slice(raw.indexOf('/') + 1) && nameOf(d) === raw);
    const found = likely ? [likely] : folders.filter((d) => selects(raw, d, nameOf, root!.dir));
    // npm's `-w web` where no member is named so: the folder web of the one the command runs in, as a path
    if (!found.length && program === 'npm' && raw && !raw.startsWith('/') && !raw.split('/').includes('..')) out.add(posix.join(start, raw));
    for (const d of found) out.add(d);
  }
  return [...out];
}

/** Whether a selector names the member in `dir`: its folder or a folder above it, its package name (a `*` glob, or the name without its scope, for pnpm). */
function selects(raw: string, dir: string, nameOf: (dir: string) => string | null, root: string): boolean {
  const selector = raw.replace(/^\{(.*)\}$/, '$1');
  if (!selector.startsWith('/') && !selector.split('/').includes('..')) {
    const folder = posix.join(root, selector);
    if (dir === folder || dir.startsWith(`${folder}/`)) return true;
  }
  const name = nameOf(dir);
  if (name === null) return false;
  if (selector === name || (selector.includes('*') && globRegExp(selector).test(name))) return true;
  return name.startsWith('@') && !selector.includes('/') && name.slice(name.indexOf('/') + 1) === selector;
}

/** The workspace root from `start` up and its member globs; null where none is found or one cannot be read. */
function workspaceRoot(program: string, start: string, read: ReadText): { dir: string; patterns: string[] } | null {
  let dir = start;
  for (let up = 0; up < MAX_UP; up++) {
    const file = program === 'pnpm' ? 'pnpm-workspace.yaml' : 'package.json';
    const text = read(`${dir === '/' ? '' : dir}/${file}`);
    if (text === undefined) return null;
    const patterns = typeof text === 'string' ? (program === 'pnpm' ? pnpmPackages(text) : packageWorkspaces(text)) : null;
    if (patterns) return { dir, patterns };
    if (dir === '/') return null;
    dir = posix.dirname(dir);
  }
  return null;
}

/** A package.json's `workspaces` globs (a list, or yarn's `{ packages: […] }`); null where it has none. */
function packageWorkspaces(text: string): string[] | null {
  try {
    const ws = (JSON.parse(text) as { workspaces?: unknown }).workspaces;
    const list = Array.isArray(ws) ? ws : ws && typeof ws === 'object' ? (ws as { packages?: unknown }).packages : null;
    return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : null;
  } catch {
    return null;
  }
}

/** pnpm-workspace.yaml's `packages:` list (its `- 'glob'` lines); null where it has none. */
function pnpmPackages(text: string): string[] | null {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((l) => /^packages:\s*(#.*)?$/.test(l));
  if (at < 0) return null;
  const out: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (/^\s*(#.*)?$/.test(line)) continue;
    const item = /^\s+-\s+(['"]?)(.*?)\1\s*(#.*)?$/.exec(line);
    if (!item) break;
    out.push(item[2]!);
  }
  return out;
}

/** The member folders the globs find under `root`, at most MAX_MEMBERS (in name order), folders listed at most MAX_LISTED. */
function memberFolders(root: string, patterns: readonly string[], list: FolderNames): string[] {
  let listed = 0;
  const folders = new Set<string>();
  for (const pattern of patterns) {
    // an exclusion only takes members away: every member read is judged, so it is not applied
    if (pattern.startsWith('!')) continue;
    const segments = pattern.replace(/^\.\//, '').replace(/\/+$/, '').split('/');
    // `**` would list a whole tree: its members are not read
    if (segments.some((s) => s === '**' || s === '..' || s === '') || pattern.startsWith('/')) continue;
    let dirs = [root];
    for (const s of segments) {
      if (!s.includes('*')) {
        dirs = dirs.map((d) => `${d}/${s}`);
        continue;
      }
      const re = globRegExp(s);
      const next: string[] = [];
      for (const d of dirs) {
        if (listed++ >= MAX_LISTED) break;
        for (const name of list(d) ?? []) if (re.test(name) && !name.startsWith('.') && name !== 'node_modules') next.push(`${d}/${name}`);
      }
      dirs = next;
    }
    for (const d of dirs) folders.add(d);
  }
  return [...folders].sort().slice(0, MAX_MEMBERS);
}

/** A package.json's `name`; null where it has none, or is no JSON, or cannot be read. */
function packageName(text: string | null | undefined): string | null {
  if (typeof text !== 'string') return null;
  try {
    const name = (JSON.parse(text) as { name?: unknown }).name;
    return typeof name === 'string' ? name : null;
  } catch {
    return null;
  }
}

/** A glob of one path segment or a package name (`*` any run of characters) as a RegExp. */
function globRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`);
}

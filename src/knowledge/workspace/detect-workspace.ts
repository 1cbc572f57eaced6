import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseYaml } from '../../model/frontmatter.ts';
import { type GlobMatcher, globMatcher } from '../../model/glob.ts';
import { stripJsonComments } from '../../scan/files.ts';

/** One repository of a workspace: its name (the folder, relative to the workspace) and path. */
export interface WorkspaceMember {
  /** the folder relative to the workspace, with `/` separators: what `scope` names */
  name: string;
  path: string;
}

export interface WorkspaceDetection {
  root: string;
  /** whether the folder is a workspace (by its markers, or because it was forced) */
  isWorkspace: boolean;
  /** the folder has its own `.git`: a single project unless forced */
  ownRepo: boolean;
  /** what marks it as a workspace, e.g. "npm workspaces (package.json)", "3 child repositories" */
  markers: string[];
  /** the member repositories: folders the markers name, and child folders, that are git repositories */
  members: WorkspaceMember[];
  /** one sentence: why it is, or is not, a workspace */
  reason: string;
}

/**
 * Whether `dir` is a workspace (a folder of repositories, as AXME Code detects it): a VS Code
 * `*.code-workspace` file, npm/yarn workspaces in package.json, pnpm-workspace.yaml, lerna.json,
 * nx.json, git submodules (.gitmodules), or at least two child folders with a `.git`. A folder
 * with its own `.git` is a single project (a monorepo's workspaces are packages, not
 * repositories) unless `force` is set; forced, it is a workspace when it has any member.
 * Only git repositories inside the folder count as members. Reads files only, never fails:
 * a broken manifest is skipped.
 */
export function detectWorkspace(opts: { dir: string; force?: boolean }): WorkspaceDetection {
  const root = resolve(opts.dir);
  const ownRepo = existsSync(join(root, '.git'));
  const markers: string[] = [];
  const named = new Set<string>();
  const add = (marker: string, folders: string[]) => {
    markers.push(marker);
    for (const f of folders) named.add(f);
  };
  for (const name of listDir(root)) {
    if (!name.endsWith('.code-workspace')) continue;
    const ws = readJsonc(join(root, name)) as { folders?: Array<{ path?: unknown }> } | null;
    const paths = Array.isArray(ws?.folders) ? ws.folders.map((f) => f?.path).filter((p): p is string => typeof p === 'string') : [];
    add(
      `VS Code workspace (${name})`,
      paths.map((p) => relative(root, resolve(root, p))),
    );
  }
  const pkg = readJson(join(root, 'package.json')) as { workspaces?: unknown } | null;
  const npm = Array.isArray(pkg?.workspaces) ? pkg.workspaces : (pkg?.workspaces as { packages?: unknown } | undefined)?.packages;
  if (Array.isArray(npm)) add('npm workspaces (package.json)', expand(root, strings(npm)));
  const pnpm = readYaml(join(root, 'pnpm-workspace.yaml'));
  if (pnpm !== undefined) add('pnpm workspace (pnpm-workspace.yaml)', expand(root, strings((pnpm as { packages?: unknown } | null)?.packages)));
  const lerna = readJson(join(root, 'lerna.json'));
  if (lerna !== null) {
    const pk = (lerna as { packages?: unknown }).packages;
    add('lerna (lerna.json)', expand(root, Array.isArray(pk) ? strings(pk) : ['packages/*']));
  }
  const nx = readJson(join(root, 'nx.json'));
  if (nx !== null) {
    const layout = (nx as { workspaceLayout?: { appsDir?: unknown; libsDir?: unknown } }).workspaceLayout ?? {};
    const dirs = [layout.appsDir, layout.libsDir].map((d, i) => (typeof d === 'string' ? d : i === 0 ? 'apps' : 'libs'));
    add(
      'nx (nx.json)',
      expand(
        root,
        dirs.map((d) => `${d}/*`),
      ),
    );
  }
  const gitmodules = readText(join(root, '.gitmodules'));
  if (gitmodules !== null)
    add(
      'git submodules (.gitmodules)',
      [...gitmodules.matchAll(/^\s*path\s*=\s*(.+?)\s*$/gm)].map((m) => m[1]!),
    );
  const children = listDir(root).filter((n) => !n.startsWith('.') && isRepo(join(root, n)));
  if (children.length >= 2) markers.push(`${children.length} child repositories`);
  for (const c of children) named.add(c);
  const members = [...named]
    .map((f) => f.split(sep).join('/').replace(/\/+$/, ''))
    .filter((f) => f !== '' && f !== '.' && !f.startsWith('../') && f !== '..' && !isAbsolute(f) && isRepo(join(root, f)))
    .sort()
    .filter((f, i, all) => all.indexOf(f) === i)
    .map((name) => ({ name, path: join(root, name) }));
  let isWorkspace: boolean;
  let reason: string;
  if (opts.force) {
    isWorkspace = members.length > 0;
    reason = isWorkspace
      ? `forced: ${members.length} member ${members.length === 1 ? 'repository' : 'repositories'}`
      : `no git repositories found in ${root} (nor in the folders its manifests name)`;
  } else if (ownRepo) {
    isWorkspace = false;
    reason = `${root} has its own .git: it is a single project (its packages are not separate repositories); pass --workspace to treat it as a workspace of ${members.length ? members.map((m) => m.name).join(', ') : 'its child repositories'}`;
  } else {
    isWorkspace = markers.length > 0;
    reason = isWorkspace
      ? markers.join(', ')
      : `no workspace marker in ${root} (a *.code-workspace file, package.json workspaces, pnpm-workspace.yaml, lerna.json, nx.json, .gitmodules, or two child folders with .git)`;
  }
  return { root, isWorkspace, ownRepo, markers, members, reason };
}

/** A git working tree: `.git` as a folder or as a file (submodules, linked worktrees). */
function isRepo(dir: string): boolean {
  return existsSync(join(dir, '.git'));
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function readJson(path: string): unknown {
  const t = readText(path);
  if (t === null) return null;
  try {
    return JSON.parse(t) ?? {};
  } catch {
    return {};
  }
}

/** JSON with comments and trailing commas (VS Code's format); strings are left alone. */
function readJsonc(path: string): unknown {
  const t = readText(path);
  if (t === null) return null;
  try {
    return JSON.parse(stripJsonComments(t));
  } catch {
    return null;
  }
}

/** The parsed YAML file; undefined when it does not exist (a broken one is {}). */
function readYaml(path: string): unknown {
  const t = readText(path);
  if (t === null) return undefined;
  try {
    return parseYaml(t) ?? {};
  } catch {
    return {};
  }
}

/**
 * Folders (relative to `root`) that workspace globs name: literal paths, `*` within one segment,
 * `**` for any depth (at most 4 levels); `!pattern` excludes. node_modules and dot folders are skipped.
 */
export function expand(root: string, patterns: string[]): string[] {
  const out = new Set<string>();
  const excluded = patterns.filter((p) => p.startsWith('!')).map((p) => globRe(p.slice(1)));
  for (const p of patterns.filter((p) => !p.startsWith('!'))) {
    const clean = p.replace(/^\.\//, '').replace(/\/+$/, '');
    if (!/[*?]/.test(clean)) {
      out.add(clean);
      continue;
    }
    const re = globRe(clean);
    const depth = clean.includes('**') ? 4 : clean.split('/').length;
    walk(root, '', depth, (rel) => {
      if (re.test(rel)) out.add(rel);
    });
  }
  return [...out].filter((f) => !excluded.some((re) => re.test(f)));
}

function walk(root: string, rel: string, depth: number, visit: (rel: string) => void): void {
  if (depth === 0) return;
  for (const name of listDir(join(root, rel))) {
    if (name.startsWith('.') || name === 'node_modules') continue;
    const child = rel ? `${rel}/${name}` : name;
    if (!isDir(join(root, child))) continue;
    visit(child);
    walk(root, child, depth - 1, visit);
  }
}

/** A workspace manifest's folder pattern (`packages/*`, `./libs/**`) over paths relative to its root. */
function globRe(glob: string): GlobMatcher {
  return globMatcher(glob.replace(/^\.\//, '').replace(/\/+$/, ''));
}

/** The member a `scope` entry names: its folder relative to the workspace, or its folder name when only one member has it. */
export function findMember(members: WorkspaceMember[], name: string): WorkspaceMember | undefined {
  const want = name.replace(/\/+$/, '');
  const exact = members.find((m) => m.name === want);
  if (exact) return exact;
  const byBase = members.filter((m) => m.name.split('/').pop() === want);
  return byBase.length === 1 ? byBase[0] : undefined;
}

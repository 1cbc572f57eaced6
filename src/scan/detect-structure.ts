import { parseYaml } from '../model/frontmatter.ts';
import { parseSln } from './dotnet.ts';
import type { EntryPoint, FolderCount, ScanInput, StructureFacts, Workspace } from './facts.ts';
import { baseOf, byCodeUnit, depthOf, dirOf, inTestTree, type JsonObject, MANIFEST_DEPTH, obj, readJsonObject, TEST_DIRS } from './files.ts';
import { parseGoWork } from './go.ts';
import { gradleSettingsIn } from './jvm.ts';
import { stripXmlComments, xmlBlocks } from './markup.ts';
import { readCargo } from './rust.ts';
import { tomlStrings, tomlTable } from './toml.ts';

const NOTABLE_FILES = [
  /^README(?:\..+)?$/i,
  /^LICEN[CS]E(?:\..+)?$/i,
  /^COPYING(?:\..+)?$/i,
  /^Makefile$/,
  /^GNUmakefile$/,
  /^Dockerfile(?:\..+)?$/,
  /^(?:docker-)?compose(?:\.[\w-]+)?\.ya?ml$/,
  /^CHANGELOG(?:\..+)?$/i,
  /^CONTRIBUTING(?:\..+)?$/i,
  /^justfile$/i,
  /^Taskfile\.ya?ml$/,
  /^Procfile$/,
];

/** Test files kept next to the code (outside test folders), by naming convention. */
const TEST_FILE_PATTERNS: ReadonlyArray<readonly [pattern: string, re: RegExp]> = [
  ['*.test.*, *.spec.*', /\.(?:test|spec)\.[cm]?[jt]sx?$/],
  ['*_test.go', /_test\.go$/],
  ['test_*.py, *_test.py', /(?:^|\/)(?:test_[^/]*|[^/]*_test)\.py$/],
  ['*Test.java, *Tests.java', /Tests?\.java$/],
  ['*Test.kt, *Tests.kt', /Tests?\.kt$/],
  ['*Test.cs, *Tests.cs', /Tests?\.cs$/],
];

const MAX_ENTRY_POINTS = 60;
const MAX_LISTED = 40;

/** Folders and files of note, entry points, tests and workspaces. */
export function detectStructure(input: ScanInput): StructureFacts {
  const top = new Map<string, number>();
  const topFiles: string[] = [];
  const testFolders = new Map<string, number>();
  const testFiles = new Map<string, number>();
  for (const f of input.files) {
    const parts = f.split('/');
    if (parts.length === 1) {
      if (NOTABLE_FILES.some((re) => re.test(f))) topFiles.push(f);
    } else if (!parts[0]!.startsWith('.') || parts[0] === '.github') top.set(parts[0]!, (top.get(parts[0]!) ?? 0) + 1);
    const t = parts.findIndex((p, i) => i < parts.length - 1 && TEST_DIRS.has(p));
    if (t >= 0) {
      const key = parts.slice(0, t + 1).join('/');
      if (t <= MANIFEST_DEPTH) testFolders.set(key, (testFolders.get(key) ?? 0) + 1);
    } else {
      const pattern = TEST_FILE_PATTERNS.find(([, re]) => re.test(f))?.[0];
      if (pattern) testFiles.set(pattern, (testFiles.get(pattern) ?? 0) + 1);
    }
  }
  return {
    totalFiles: input.files.length,
    topFolders: counts(top),
    topFiles: topFiles.sort(byCodeUnit),
    entryPoints: entryPoints(input),
    testFolders: counts(testFolders).slice(0, MAX_LISTED),
    testFiles: TEST_FILE_PATTERNS.filter(([l]) => testFiles.has(l)).map(([l]) => ({ name: l, files: testFiles.get(l)! })),
    workspaces: workspaces(input),
  };
}

function counts(m: Map<string, number>): FolderCount[] {
  return [...m].map(([name, files]) => ({ name, files })).sort((a, b) => byCodeUnit(a.name, b.name));
}

/** Entry points by convention, in this order of precedence for one file. */
const ENTRY_RULES: ReadonlyArray<readonly [kind: string, re: RegExp]> = [
  ['cmd/*/main.go', /(?:^|\/)cmd\/[^/]+\/main\.go$/],
  ['main.go', /(?:^|\/)main\.go$/],
  ['src/main.rs (binary crate)', /(?:^|\/)src\/main\.rs$/],
  ['src/lib.rs (library crate)', /(?:^|\/)src\/lib\.rs$/],
  ['src/bin/*.rs', /(?:^|\/)src\/bin\/[^/]+\.rs$/],
  ['src/index.*', /(?:^|\/)src\/index\.(?:[cm]?[jt]sx?|py)$/],
  ['src/main.*', /(?:^|\/)src\/main\.(?:[cm]?[jt]sx?|py|kt|java|swift|c|cc|cpp)$/],
  ['manage.py (Django)', /(?:^|\/)manage\.py$/],
  ['__main__.py', /(?:^|\/)__main__\.py$/],
  ['app.py', /(?:^|\/)app\.py$/],
  ['main.py', /(?:^|\/)main\.py$/],
  ['Program.cs', /(?:^|\/)Program\.cs$/],
];

function entryPoints(input: ScanInput): EntryPoint[] {
  const out: EntryPoint[] = [];
  for (const f of input.files) {
    if (depthOf(f) > MANIFEST_DEPTH + 1 || inTestTree(f)) continue;
    if (baseOf(f) === 'package.json' && depthOf(f) <= MANIFEST_DEPTH) out.push(...packageEntries(input, f));
    const rule = ENTRY_RULES.find(([, re]) => re.test(f));
    if (rule) out.push({ path: f, kind: rule[0] });
  }
  const unique = new Map(out.map((e) => [`${e.path}\0${e.kind}`, e]));
  return [...unique.values()].sort((a, b) => byCodeUnit(a.path, b.path) || byCodeUnit(a.kind, b.kind)).slice(0, MAX_ENTRY_POINTS);
}

/** main / module / bin / exports of a package.json, as paths from the top level. */
function packageEntries(input: ScanInput, path: string): EntryPoint[] {
  const pkg = readJsonObject(input, path, null);
  if (!pkg) return [];
  const dir = dirOf(path);
  const at = (p: string) => {
    const clean = p.replace(/^\.\//, '');
    return dir === '.' ? clean : `${dir}/${clean}`;
  };
  const out: EntryPoint[] = [];
  for (const field of ['main', 'module'] as const) if (typeof pkg[field] === 'string') out.push({ path: at(pkg[field]), kind: `${path} ${field}` });
  if (typeof pkg.bin === 'string') out.push({ path: at(pkg.bin), kind: `${path} bin` });
  for (const [name, target] of Object.entries(obj(pkg, 'bin') ?? {}))
    if (typeof target === 'string') out.push({ path: at(target), kind: `${path} bin ${name}` });
  const leaves: Array<[string, string]> = [];
  collectExports(pkg.exports, '.', leaves);
  for (const [key, target] of leaves.slice(0, 10)) out.push({ path: at(target), kind: `${path} exports ${key}` });
  return out;
}

/** Leaf targets of an `exports` field: [subpath or condition path, file]. */
function collectExports(v: unknown, key: string, out: Array<[string, string]>, depth = 0): void {
  if (depth > 4 || out.length >= 10) return;
  if (typeof v === 'string') out.push([key, v]);
  else if (Array.isArray(v)) for (const x of v) collectExports(x, key, out, depth + 1);
  else if (typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v as JsonObject)) collectExports(x, k.startsWith('.') ? k : `${key} (${k})`, out, depth + 1);
  }
}

/** Workspaces: npm/yarn/bun workspaces, pnpm-workspace.yaml, Cargo, go.work, Maven modules, Gradle includes, .sln files. */
function workspaces(input: ScanInput): Workspace[] {
  const out: Workspace[] = [];
  for (const f of input.files) {
    if (depthOf(f) > MANIFEST_DEPTH || inTestTree(f)) continue;
    const name = baseOf(f);
    const dir = dirOf(f);
    if (name === 'package.json') {
      const pkg = readJsonObject(input, f, null);
      const ws = pkg?.workspaces;
      const list = Array.isArray(ws) ? ws : obj(pkg, 'workspaces')?.packages;
      if (Array.isArray(list)) out.push({ file: f, tool: 'package.json workspaces', members: strings(list) });
    } else if (name === 'pnpm-workspace.yaml') {
      let doc: unknown = null;
      try {
        doc = parseYaml(input.read(f) ?? '');
      } catch {
        doc = null;
      }
      const list = typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? (doc as JsonObject).packages : undefined;
      out.push({ file: f, tool: 'pnpm workspace', members: Array.isArray(list) ? strings(list) : [] });
    } else if (name === 'Cargo.toml') {
      const cargo = readCargo(input, f, null);
      if (cargo && tomlTable(cargo, 'workspace')) out.push({ file: f, tool: 'Cargo workspace', members: tomlStrings(cargo, 'workspace.members') });
    } else if (name === 'go.work') {
      out.push({ file: f, tool: 'go.work', members: parseGoWork(input.read(f) ?? '') });
    } else if (name === 'pom.xml') {
      const modules = xmlBlocks(stripXmlComments(input.read(f) ?? ''), 'modules').flatMap((b) => xmlBlocks(b, 'module').map((m) => m.trim()));
      if (modules.length) out.push({ file: f, tool: 'Maven modules', members: modules });
    } else if (name === 'settings.gradle' || name === 'settings.gradle.kts') {
      const s = gradleSettingsIn(input, dir);
      if (s && s.path === f && s.include.length) out.push({ file: f, tool: 'Gradle multi-project', members: s.include });
    } else if (name.endsWith('.sln')) {
      out.push({ file: f, tool: '.NET solution', members: parseSln(input.read(f) ?? '') });
    }
  }
  return out.map((w) => ({ ...w, members: w.members.slice(0, MAX_LISTED) }));
}

function strings(list: unknown[]): string[] {
  return list.filter((x): x is string => typeof x === 'string').slice(0, MAX_LISTED);
}

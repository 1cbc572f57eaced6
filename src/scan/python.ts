import type { Dep, Notes, ProjectFacts, ScanInput } from './facts.ts';
import { inDir, indexOf, sortedUnique } from './files.ts';
import { parseToml, type TomlTable, type TomlValue, tomlGet, tomlString, tomlStrings, tomlTable } from './toml.ts';

const FRAMEWORKS: ReadonlyArray<readonly [dep: string, label: string]> = [
  ['django', 'Django'],
  ['flask', 'Flask'],
  ['fastapi', 'FastAPI'],
];

/** Build backends (build-system.build-backend prefix) and the tool each stands for. */
const BACKENDS: ReadonlyArray<readonly [prefix: string, tool: string]> = [
  ['poetry.core', 'poetry'],
  ['poetry.masonry', 'poetry'],
  ['hatchling', 'hatch'],
  ['pdm.backend', 'pdm'],
  ['pdm.pep517', 'pdm'],
  ['setuptools', 'setuptools'],
  ['flit_core', 'flit'],
  ['maturin', 'maturin'],
  ['uv_build', 'uv'],
];

const TOOL_ORDER = ['poetry', 'uv', 'pdm', 'hatch', 'flit', 'maturin', 'setuptools', 'pipenv', 'pip'];

/** Files that make a folder a Python project. */
export function isPythonManifest(name: string): boolean {
  return name === 'pyproject.toml' || name === 'setup.py' || name === 'Pipfile' || /^requirements[\w.-]*\.txt$/.test(name);
}

/** PEP 503 name: lowercase, runs of "-", "_", "." as one "-". */
export function normalizePyName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/** A PEP 508 requirement ("fastapi[all]>=0.110; python_version>'3.8'") as name and version, or null. */
export function parseRequirement(line: string): { name: string; version: string | null } | null {
  const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*([^;#@]*)/.exec(line);
  if (!m) return null;
  const version = m[2]!
    .trim()
    .replace(/^\((.*)\)$/, '$1')
    .trim();
  return { name: normalizePyName(m[1]!), version: version || null };
}

/** The Python project in `dir` (pyproject.toml, setup.py, requirements*.txt, Pipfile). */
export function detectPython(input: ScanInput, dir: string, notes: Notes): ProjectFacts | null {
  const ix = indexOf(input);
  const here = ix.children(dir);
  const manifests: string[] = [];
  const deps = new Map<string, string | null>();
  const addDep = (name: string, version: string | null) => {
    const n = normalizePyName(name);
    if (!deps.has(n) || (deps.get(n) === null && version)) deps.set(n, version);
  };
  const tools = new Set<string>();
  const traits: string[] = [];
  let name: string | null = null;
  let runtime: string | null = null;
  let pytestConfigured = false;

  const pyprojectPath = inDir(dir, 'pyproject.toml');
  const pyText = input.read(pyprojectPath);
  if (pyText !== null) {
    manifests.push(pyprojectPath);
    const doc = parseToml(pyText);
    if (doc.error) notes.add(`\`${pyprojectPath}\`: could not read all of it as TOML (${doc.error}); facts from the rest`);
    const t = doc.root;
    name = tomlString(t, 'project.name') ?? tomlString(t, 'tool.poetry.name');
    const requires = tomlString(t, 'project.requires-python') ?? pyVersion(tomlGet(t, 'tool.poetry.dependencies.python'));
    if (requires) runtime = `python ${requires}`;
    const backend = tomlString(t, 'build-system.build-backend');
    if (backend) {
      traits.push(`build backend: ${backend}`);
      for (const [prefix, tool] of BACKENDS) if (backend === prefix || backend.startsWith(`${prefix}.`) || backend.startsWith(`${prefix}:`)) tools.add(tool);
    }
    for (const [section, tool] of [
      ['tool.poetry', 'poetry'],
      ['tool.uv', 'uv'],
      ['tool.pdm', 'pdm'],
      ['tool.hatch', 'hatch'],
    ] as const) {
      if (tomlTable(t, section)) tools.add(tool);
    }
    for (const r of tomlStrings(t, 'project.dependencies')) addReq(r, addDep);
    for (const group of [tomlTable(t, 'project.optional-dependencies'), tomlTable(t, 'dependency-groups')]) {
      for (const list of Object.values(group ?? {})) if (Array.isArray(list)) for (const r of list) if (typeof r === 'string') addReq(r, addDep);
    }
    for (const table of poetryDepTables(t)) for (const [n, v] of Object.entries(table)) if (n !== 'python') addDep(n, pyVersion(v));
    if (tomlTable(t, 'tool.pytest')) pytestConfigured = true;
  }
  if (here.includes('setup.py')) {
    manifests.push(inDir(dir, 'setup.py'));
    tools.add('setuptools');
  }
  for (const file of here.filter((n) => /^requirements[\w.-]*\.txt$/.test(n)).sort()) {
    const path = inDir(dir, file);
    manifests.push(path);
    tools.add('pip');
    for (const line of (input.read(path) ?? '').split('\n')) {
      const l = line.trim();
      if (l === '' || l.startsWith('#') || l.startsWith('-')) continue;
      addReq(l, addDep);
    }
  }
  const pipfile = inDir(dir, 'Pipfile');
  const pipText = input.read(pipfile);
  if (pipText !== null) {
    manifests.push(pipfile);
    tools.add('pipenv');
    const doc = parseToml(pipText);
    if (doc.error) notes.add(`\`${pipfile}\`: could not read all of it as TOML (${doc.error}); facts from the rest`);
    for (const section of ['packages', 'dev-packages']) for (const [n, v] of Object.entries(tomlTable(doc.root, section) ?? {})) addDep(n, pyVersion(v));
    const pv = tomlString(doc.root, 'requires.python_version') ?? tomlString(doc.root, 'requires.python_full_version');
    if (pv && !runtime) runtime = `python ${pv}`;
  }
  if (manifests.length === 0) return null;
  for (const [lock, tool] of [
    ['poetry.lock', 'poetry'],
    ['uv.lock', 'uv'],
    ['pdm.lock', 'pdm'],
    ['Pipfile.lock', 'pipenv'],
  ] as const) {
    if (!here.includes(lock)) continue;
    tools.add(tool);
    traits.push(`lockfile: ${inDir(dir, lock)}`);
  }
  if (!runtime) {
    const v = input.read(inDir(dir, '.python-version'))?.trim().split('\n')[0]?.trim();
    if (v && v.length <= 40) runtime = `python ${v} (.python-version)`;
  }
  if (here.includes('pytest.ini') || here.includes('conftest.py')) pytestConfigured = true;
  const testRunners: Dep[] = deps.has('pytest')
    ? [{ name: 'pytest', version: deps.get('pytest') ?? null }]
    : pytestConfigured
      ? [{ name: 'pytest', version: null }]
      : [];
  return {
    dir,
    ecosystem: 'python',
    manifests,
    name,
    languages: ['Python'],
    tools: TOOL_ORDER.filter((t) => tools.has(t)),
    runtime,
    frameworks: FRAMEWORKS.filter(([d]) => deps.has(d)).map(([d, label]) => ({ name: label, version: deps.get(d) ?? null })),
    testRunners,
    traits: sortedUnique(traits),
  };
}

function addReq(line: string, add: (name: string, version: string | null) => void): void {
  const r = parseRequirement(line);
  if (r) add(r.name, r.version);
}

/** Poetry's dependency tables: [tool.poetry.dependencies], dev-dependencies and every group. */
function poetryDepTables(t: TomlTable): TomlTable[] {
  const out = [tomlTable(t, 'tool.poetry.dependencies'), tomlTable(t, 'tool.poetry.dev-dependencies')];
  for (const g of Object.keys(tomlTable(t, 'tool.poetry.group') ?? {})) out.push(tomlTable(t, `tool.poetry.group.${g}.dependencies`));
  return out.filter((x): x is TomlTable => x !== null);
}

/** A version from a Poetry/Pipfile entry: "^3.11", { version = "^0.110" }, "*" -> null. */
function pyVersion(v: TomlValue | undefined): string | null {
  const s = typeof v === 'string' ? v : typeof v === 'object' && v !== null && !Array.isArray(v) && typeof v.version === 'string' ? v.version : null;
  return s && s !== '*' ? s : null;
}

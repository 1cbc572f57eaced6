import type { Dep, Notes, ProjectFacts, ScanInput } from './facts.ts';
import { dirOf, findUp, inDir, indexOf } from './files.ts';
import { parseToml, type TomlTable, type TomlValue, tomlGet, tomlString, tomlStrings, tomlTable } from './toml.ts';

const FRAMEWORKS: ReadonlyArray<readonly [crate: string, label: string]> = [
  ['tokio', 'Tokio'],
  ['axum', 'Axum'],
  ['actix-web', 'Actix Web'],
  ['rocket', 'Rocket'],
  ['serde', 'Serde'],
];

/** A Cargo.toml, parsed, or null when absent (a note when it is not readable TOML). */
export function readCargo(input: ScanInput, path: string, notes: Notes | null): TomlTable | null {
  const text = input.read(path);
  if (text === null) return null;
  const doc = parseToml(text);
  if (doc.error) notes?.add(`\`${path}\`: could not read all of it as TOML (${doc.error}); facts from the rest`);
  return doc.root;
}

/** The crate (or workspace root) of the Cargo.toml at `path`. */
export function detectRust(input: ScanInput, path: string, notes: Notes): ProjectFacts | null {
  const cargo = readCargo(input, path, notes);
  if (!cargo) return null;
  const dir = dirOf(path);
  const ix = indexOf(input);
  const ws = workspaceRoot(input, dir, cargo);
  const traits: string[] = [];
  const pkg = tomlTable(cargo, 'package');
  const members = tomlStrings(cargo, 'workspace.members');
  if (tomlTable(cargo, 'workspace'))
    traits.push(pkg ? `workspace root (${members.length} members)` : `workspace root, virtual manifest (${members.length} members)`);
  else if (ws) traits.push(`member of the workspace in ${ws.dir}`);

  const edition = inherited(cargo, 'package.edition', ws?.root, 'workspace.package.edition');
  const rustVersion = inherited(cargo, 'package.rust-version', ws?.root, 'workspace.package.rust-version');
  if (rustVersion) traits.push(`rust-version ${rustVersion}`);
  const lock = findUp(ix, dir, ['Cargo.lock']);
  if (lock) traits.push(`lockfile: ${inDir(lock.dir, 'Cargo.lock')}`);
  const toolchain = findUp(ix, dir, ['rust-toolchain.toml', 'rust-toolchain']);
  if (toolchain) traits.push(`toolchain file: ${inDir(toolchain.dir, toolchain.name)}`);

  const deps = cargoDeps(cargo, ws?.root ?? null);
  const frameworks: Dep[] = FRAMEWORKS.filter(([c]) => deps.has(c)).map(([c, label]) => ({ name: label, version: deps.get(c) ?? null }));
  const testRunners: Dep[] = [];
  const prefix = dir === '.' ? '' : `${dir}/`;
  if (ix.files.some((f) => f.startsWith(`${prefix}tests/`) && f.endsWith('.rs'))) testRunners.push({ name: 'cargo test (tests/)', version: null });
  return {
    dir,
    ecosystem: 'rust',
    manifests: [path],
    name: tomlString(cargo, 'package.name'),
    languages: ['Rust'],
    tools: ['cargo'],
    runtime: edition ? `edition ${edition}` : null,
    frameworks,
    testRunners,
    traits,
  };
}

/** The nearest Cargo.toml from `dir` upwards with a [workspace] table (this one included). */
function workspaceRoot(input: ScanInput, dir: string, own: TomlTable): { dir: string; root: TomlTable } | null {
  if (tomlTable(own, 'workspace')) return { dir, root: own };
  const ix = indexOf(input);
  for (let d = dir; d !== '.'; ) {
    d = dirOf(d);
    const path = inDir(d, 'Cargo.toml');
    if (!ix.has(path)) continue;
    const t = readCargo(input, path, null);
    if (t && tomlTable(t, 'workspace')) return { dir: d, root: t };
  }
  return null;
}

/** A string field, or the workspace's value when the crate says `field.workspace = true`. */
function inherited(cargo: TomlTable, path: string, ws: TomlTable | undefined, wsPath: string): string | null {
  const v = tomlGet(cargo, path);
  if (typeof v === 'string') return v;
  if (isWorkspaceRef(v) && ws) return tomlString(ws, wsPath);
  return null;
}

function isWorkspaceRef(v: TomlValue | undefined): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && v.workspace === true;
}

/** Every dependency of the crate and its workspace table: crate name -> version (null when none is given). */
function cargoDeps(cargo: TomlTable, ws: TomlTable | null): Map<string, string | null> {
  const wsDeps = ws ? (tomlTable(ws, 'workspace.dependencies') ?? {}) : {};
  const tables = [
    tomlTable(cargo, 'dependencies'),
    tomlTable(cargo, 'dev-dependencies'),
    tomlTable(cargo, 'build-dependencies'),
    tomlTable(cargo, 'workspace.dependencies'),
  ];
  for (const target of Object.keys(tomlTable(cargo, 'target') ?? {})) {
    const t = tomlTable(cargo, 'target')![target];
    if (typeof t === 'object' && !Array.isArray(t)) tables.push(tomlTable(t, 'dependencies'), tomlTable(t, 'dev-dependencies'));
  }
  const out = new Map<string, string | null>();
  for (const table of tables) {
    for (const [name, spec] of Object.entries(table ?? {})) {
      // `package = "real-name"` renames a dependency: the framework is the real crate
      const real = typeof spec === 'object' && !Array.isArray(spec) && typeof spec.package === 'string' ? spec.package : name;
      const version = crateVersion(isWorkspaceRef(spec) ? (wsDeps[real] ?? wsDeps[name]) : spec);
      if (!out.has(real) || (out.get(real) === null && version)) out.set(real, version);
    }
  }
  return out;
}

function crateVersion(spec: TomlValue | undefined): string | null {
  if (typeof spec === 'string') return spec;
  if (typeof spec === 'object' && spec !== null && !Array.isArray(spec) && typeof spec.version === 'string') return spec.version;
  return null;
}

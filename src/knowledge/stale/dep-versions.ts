import { MANIFEST } from '../../model/manifests.ts';

/**
 * The version ranges a manifest declares, by dependency name: what a `dep:<name>` anchor compares
 * between learned_at and HEAD. Read well enough for that, not as a full parser of each format:
 * package.json (dependencies, devDependencies, peerDependencies, optionalDependencies),
 * requirements*.txt, pyproject.toml ([project] dependencies and optional-dependencies, Poetry's
 * tables), Cargo.toml (every *dependencies table) and go.mod (require lines and blocks).
 */

/** The name a dependency is compared by: Python's names are case- and separator-insensitive (PEP 503). */
export function depKey(path: string, name: string): string {
  return /\.(?:txt|toml)$/.test(path) && !path.endsWith('Cargo.toml') ? name.toLowerCase().replace(/[-_.]+/g, '-') : name;
}

/** The declared range of each dependency of the manifest at `path` (keys by depKey); empty when it does not parse. */
export function declaredVersions(path: string, text: string): Map<string, string> {
  const out = new Map<string, string>();
  const put = (name: string, range: string) => {
    const k = depKey(path, name.trim());
    if (k && !out.has(k)) out.set(k, range.trim() || '*');
  };
  const base = MANIFEST.exec(path)?.[1] ?? '';
  if (base === 'package.json') fromPackageJson(text, put);
  else if (base === 'go.mod') fromGoMod(text, put);
  else if (base.endsWith('.txt')) for (const line of text.split('\n')) fromRequirement(line, put);
  else if (base === 'Cargo.toml') fromToml(text, (table, key, value) => fromCargo(table, key, value, put));
  else if (base === 'pyproject.toml') fromToml(text, (table, key, value) => fromPyproject(table, key, value, put));
  return out;
}

type Put = (name: string, range: string) => void;

function fromPackageJson(text: string, put: Put): void {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return;
  }
  if (!doc || typeof doc !== 'object') return;
  for (const section of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
    const deps = (doc as Record<string, unknown>)[section];
    if (!deps || typeof deps !== 'object') continue;
    for (const [name, range] of Object.entries(deps)) if (typeof range === 'string') put(name, range);
  }
}

function fromGoMod(text: string, put: Put): void {
  let block = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (block && line === ')') block = false;
    else if (line === 'require (') block = true;
    else {
      const m = (block ? /^(\S+)\s+(\S+)$/ : /^require\s+(\S+)\s+(\S+)$/).exec(line);
      if (m) put(m[1]!, m[2]!);
    }
  }
}

/** One line of a requirements file, or one PEP 508 string: `name[extra] >=1.2 ; marker`. */
function fromRequirement(line: string, put: Put): void {
  const s = line.replace(/(?:^|\s)#.*$/, '').trim();
  if (!s || s.startsWith('-')) return;
  const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*([^;]*)/.exec(s);
  if (m) put(m[1]!, m[2]!.trim());
}

function fromCargo(table: string, key: string, value: TomlValue, put: Put): void {
  const dep = /^(?:.*\.)?(?:dev-|build-)?dependencies(?:\.(.+))?$/.exec(table);
  if (!dep) return;
  if (dep[1] !== undefined) {
    if (key === 'version' && typeof value === 'string') put(dep[1].replace(/^"|"$/g, ''), value);
  } else put(key, typeof value === 'string' ? value : !Array.isArray(value) ? (value.version ?? '*') : '*');
}

function fromPyproject(table: string, key: string, value: TomlValue, put: Put): void {
  if ((table === 'project' && key === 'dependencies') || table === 'project.optional-dependencies') {
    if (Array.isArray(value)) for (const req of value) fromRequirement(req, put);
  } else if (/^tool\.poetry\.(?:group\.[^.]+\.)?(?:dev-)?dependencies$/.test(table) && key !== 'python') {
    put(key, typeof value === 'string' ? value : !Array.isArray(value) ? (value.version ?? '*') : '*');
  }
}

type TomlValue = string | string[] | Record<string, string>;

/**
 * The `key = value` pairs of a TOML file with their table, for values that are strings, arrays of
 * strings (over several lines too) or inline tables of strings; anything else is skipped.
 */
function fromToml(text: string, each: (table: string, key: string, value: TomlValue) => void): void {
  let table = '';
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?$/.exec(line);
    if (header) {
      table = header[1]!.replace(/\s*\.\s*/g, '.');
      continue;
    }
    const kv = /^("[^"]*"|'[^']*'|[A-Za-z0-9_.-]+)\s*=\s*(.*)$/.exec(line);
    if (!kv) continue;
    const key = kv[1]!.replace(/^["']|["']$/g, '');
    let value = kv[2]!;
    if (value.startsWith('[')) {
      while (!balanced(value) && i + 1 < lines.length) value += `\n${lines[++i]}`;
      each(table, key, strings(value));
    } else if (value.startsWith('{')) {
      const inline: Record<string, string> = {};
      for (const m of value.matchAll(/([A-Za-z0-9_-]+)\s*=\s*("(?:[^"\\]|\\.)*"|'[^']*')/g)) inline[m[1]!] = m[2]!.slice(1, -1);
      each(table, key, inline);
    } else {
      const s = /^("(?:[^"\\]|\\.)*"|'[^']*')/.exec(value);
      if (s) each(table, key, s[1]!.slice(1, -1));
    }
  }
}

function balanced(value: string): boolean {
  const bare = value.replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, '').replace(/#.*$/gm, '');
  return (bare.match(/\[/g)?.length ?? 0) <= (bare.match(/\]/g)?.length ?? 0);
}

function strings(value: string): string[] {
  return [...value.replace(/#.*$/gm, '').matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((m) => m[1] ?? m[2] ?? '');
}

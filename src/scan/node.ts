import type { Dep, Notes, ProjectFacts, ScanInput } from './facts.ts';
import { dirOf, findUp, inDir, indexOf, type JsonObject, obj, readJsonObject, str } from './files.ts';

/** Dependencies that name a framework, with how to call it. */
export const NODE_FRAMEWORKS: ReadonlyArray<readonly [dep: string, label: string]> = [
  ['react', 'React'],
  ['next', 'Next.js'],
  ['vue', 'Vue'],
  ['nuxt', 'Nuxt'],
  ['svelte', 'Svelte'],
  ['@sveltejs/kit', 'SvelteKit'],
  ['@angular/core', 'Angular'],
  ['express', 'Express'],
  ['fastify', 'Fastify'],
  ['koa', 'Koa'],
  ['@nestjs/core', 'NestJS'],
  ['hono', 'Hono'],
  ['electron', 'Electron'],
  ['react-native', 'React Native'],
];

/** Dependencies that name a test runner. */
export const NODE_TEST_RUNNERS: ReadonlyArray<readonly [dep: string, label: string]> = [
  ['vitest', 'Vitest'],
  ['jest', 'Jest'],
  ['mocha', 'Mocha'],
  ['ava', 'AVA'],
  ['@playwright/test', 'Playwright'],
  ['cypress', 'Cypress'],
];

/** Lockfiles and the package manager each belongs to. */
export const LOCKFILES: ReadonlyArray<readonly [file: string, manager: string]> = [
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lockb', 'bun'],
  ['bun.lock', 'bun'],
];

const DEP_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

/** Every declared dependency: name -> version range (the first field that names it wins). */
export function nodeDeps(pkg: JsonObject): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const field of DEP_FIELDS) {
    const deps = obj(pkg, field);
    if (!deps) continue;
    for (const name of Object.keys(deps)) if (!out.has(name)) out.set(name, str(deps, name));
  }
  return out;
}

/** Picks the dependencies named in `table`, in table order. */
export function pick(deps: Map<string, string | null>, table: ReadonlyArray<readonly [string, string]>): Dep[] {
  return table.filter(([d]) => deps.has(d)).map(([d, label]) => ({ name: label, version: deps.get(d) ?? null }));
}

// `node --test`, `node --import tsx --test`, `tsx --test`
const NODE_TEST_RE = /(?:^|[\s;&|(])(?:node|tsx)(?:\s+(?!--test\b)[^\s;&|]+)*\s+--test\b/;

/** The Node project of the package.json at `path`, or null (with a note) when it cannot be read. */
export function detectNode(input: ScanInput, path: string, notes: Notes): ProjectFacts | null {
  const pkg = readJsonObject(input, path, notes);
  if (!pkg) return null;
  const ix = indexOf(input);
  const dir = dirOf(path);
  const deps = nodeDeps(pkg);
  const manifests = [path];
  const traits: string[] = [];

  const tsconfig = inDir(dir, 'tsconfig.json');
  if (ix.has(tsconfig)) manifests.push(tsconfig);
  const typescript = deps.has('typescript') || ix.has(tsconfig);
  if (deps.has('typescript')) traits.push(`typescript ${deps.get('typescript') ?? ''}`.trim());

  const tools: string[] = [];
  const declared = packageManager(input, dir, pkg);
  if (declared) {
    tools.push(declared.manager);
    traits.push(`packageManager: ${declared.spec}${declared.from === path ? '' : ` (${declared.from})`}`);
  }
  const lock = findUp(
    ix,
    dir,
    LOCKFILES.map(([f]) => f),
  );
  if (lock) {
    for (const [file, manager] of LOCKFILES) {
      if (!ix.has(inDir(lock.dir, file))) continue;
      if (!declared) tools.push(manager);
      traits.push(`lockfile: ${inDir(lock.dir, file)}`);
    }
  } else if (!declared) traits.push('no lockfile');

  const type = str(pkg, 'type');
  if (type === 'module') traits.push('ESM ("type": "module")');
  else if (type === 'commonjs') traits.push('CommonJS ("type": "commonjs")');
  if (pkg.private === true) traits.push('private');

  const testRunners = pick(deps, NODE_TEST_RUNNERS);
  const scripts = obj(pkg, 'scripts') ?? {};
  if (Object.keys(scripts).some((k) => /^test(?:[:-]|$)/.test(k) && NODE_TEST_RE.test(str(scripts, k) ?? ''))) {
    testRunners.push({ name: 'node:test', version: null });
  }

  return {
    dir,
    ecosystem: 'node',
    manifests,
    name: str(pkg, 'name'),
    languages: [typescript ? 'TypeScript' : 'JavaScript'],
    tools: [...new Set(tools)],
    runtime: nodeRuntime(input, dir, pkg),
    frameworks: pick(deps, NODE_FRAMEWORKS),
    testRunners,
    traits,
  };
}

/** `packageManager` of this package.json or the nearest one above it: "pnpm@9.1.0+sha..." -> pnpm, pnpm@9.1.0. */
function packageManager(input: ScanInput, dir: string, pkg: JsonObject): { manager: string; spec: string; from: string } | null {
  const ix = indexOf(input);
  for (let d = dir, p: JsonObject | null = pkg; ; d = dirOf(d), p = null) {
    const path = inDir(d, 'package.json');
    const value = str(p ?? (ix.has(path) ? readJsonObject(input, path, null) : null), 'packageManager');
    const m = value ? /^(npm|pnpm|yarn|bun)@([^+\s]+)/.exec(value) : null;
    if (m) return { manager: m[1]!, spec: `${m[1]}@${m[2]}`, from: path };
    if (d === '.') return null;
  }
}

/** engines.node, else .nvmrc / .node-version in the folder. */
function nodeRuntime(input: ScanInput, dir: string, pkg: JsonObject): string | null {
  const engine = str(obj(pkg, 'engines'), 'node');
  if (engine) return `node ${engine}`;
  for (const f of ['.nvmrc', '.node-version']) {
    const v = input.read(inDir(dir, f))?.trim().split('\n')[0]?.trim();
    if (v && v.length <= 40) return `node ${v} (${f})`;
  }
  return null;
}

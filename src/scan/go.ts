import type { Dep, ProjectFacts, ScanInput } from './facts.ts';
import { dirOf, inDir, indexOf } from './files.ts';

const FRAMEWORKS: ReadonlyArray<readonly [module: string, label: string]> = [
  ['github.com/gin-gonic/gin', 'Gin'],
  ['github.com/labstack/echo', 'Echo'],
  ['github.com/gofiber/fiber', 'Fiber'],
  ['github.com/go-chi/chi', 'chi'],
];

export interface GoMod {
  module: string | null;
  go: string | null;
  toolchain: string | null;
  /** direct requirements (not `// indirect`): module path -> version */
  require: Map<string, string>;
}

/** Reads go.mod text: module, go, toolchain and require lines (single and in blocks). */
export function parseGoMod(text: string): GoMod {
  const out: GoMod = { module: null, go: null, toolchain: null, require: new Map() };
  let block: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const indirect = /\/\/\s*indirect\b/.test(raw);
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (line === '') continue;
    if (block) {
      if (line === ')') block = null;
      else if (block === 'require' && !indirect) addRequire(out, line);
      continue;
    }
    const m = /^(\w+)\s*(.*)$/.exec(line);
    if (!m) continue;
    const [, verb, rest] = m as unknown as [string, string, string];
    if (rest === '(') block = verb;
    else if (verb === 'module') out.module = unquote(rest);
    else if (verb === 'go') out.go = rest;
    else if (verb === 'toolchain') out.toolchain = rest;
    else if (verb === 'require' && !indirect) addRequire(out, rest);
  }
  return out;
}

function addRequire(mod: GoMod, spec: string): void {
  const [path, version] = spec.split(/\s+/);
  if (path && version) mod.require.set(unquote(path), version);
}

function unquote(s: string): string {
  return s.replace(/^"(.*)"$/, '$1').replace(/^`(.*)`$/, '$1');
}

/** The `use` folders of a go.work file. */
export function parseGoWork(text: string): string[] {
  const uses: string[] = [];
  let inUse = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (inUse) {
      if (line === ')') inUse = false;
      else if (line) uses.push(unquote(line));
    } else if (/^use\s*\($/.test(line)) inUse = true;
    else if (line.startsWith('use ')) uses.push(unquote(line.slice(4).trim()));
  }
  return uses.sort();
}

/** The Go module of the go.mod at `path`. */
export function detectGo(input: ScanInput, path: string): ProjectFacts | null {
  const text = input.read(path);
  if (text === null) return null;
  const mod = parseGoMod(text);
  const dir = dirOf(path);
  const ix = indexOf(input);
  const traits: string[] = [];
  if (mod.toolchain) traits.push(`toolchain ${mod.toolchain}`);
  if (ix.has(inDir(dir, 'go.sum'))) traits.push('go.sum');
  const version = (module: string): string | null => {
    for (const [p, v] of mod.require) if (p === module || new RegExp(`^${module.replace(/[.]/g, '\\.')}/v\\d+$`).test(p)) return v;
    return null;
  };
  const frameworks: Dep[] = FRAMEWORKS.flatMap(([m, label]) => {
    const v = version(m);
    return v ? [{ name: label, version: v }] : [];
  });
  const prefix = dir === '.' ? '' : `${dir}/`;
  const testRunners: Dep[] = [];
  if (ix.files.some((f) => f.startsWith(prefix) && f.endsWith('_test.go'))) testRunners.push({ name: 'go test', version: null });
  const testify = version('github.com/stretchr/testify');
  if (testify) testRunners.push({ name: 'testify', version: testify });
  return {
    dir,
    ecosystem: 'go',
    manifests: [path],
    name: mod.module,
    languages: ['Go'],
    tools: ['go modules'],
    runtime: mod.go ? `go ${mod.go}` : null,
    frameworks,
    testRunners,
    traits,
  };
}

// Counts, over the test files, the places that run the built CLI as a process against the places
// that call the code in-process, so "tests go through the core, the binary only for what only the
// binary shows" is a number anyone can reproduce:
//   node --import tsx scripts/test-spawns.ts           totals, and the 20 files with most spawns
//   node --import tsx scripts/test-spawns.ts --all     every file
//   node --import tsx scripts/test-spawns.ts --json    per-file counts as JSON
// A spawn is a call of the helpers `axme(...)`/`axmeOk(...)` or any array literal that starts with
// the built binary `CLI` (spawn, spawnSync, an MCP stdio transport, a helper's argv). A command run
// in-process is what replaces a spawn one for one: a call of the in-process helpers (test/core.ts,
// test/store-fixture.ts, test/cli-in-process.ts, `openTestKb`, `openKnowledgeBase`; `makeStore`/`useStore` run init), a method called on what
// `coreAt(...)`/`useStore(...)`/`makeStore(...)` returned, or `<operation>.run(...)`. In-process
// calls are those and every other call of a function imported from src/.
// All are counted where they are written (a call site in a loop counts once).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');
const TEST = join(ROOT, 'test');
const SPAWN_HELPERS = new Set(['axme', 'axmeOk']);
const IN_PROCESS_HELPER_MODULES = [/\/core\.ts$/, /\/store-fixture\.ts$/, /\/cli-in-process\.ts$/];
const COMMAND_RUNNERS = new Set(['openTestKb', 'openKnowledgeBase']);
const HANDLE_MAKERS = new Set(['coreAt', 'useStore', 'makeStore']);
/** the fixtures that make a store: each runs `axme init`'s core in-process */
const STORE_MAKERS = new Set(['useStore', 'makeStore']);

interface FileCount {
  file: string;
  spawns: number;
  commandRuns: number;
  inProcess: number;
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' || e.name.startsWith('.') ? [] : testFiles(p);
    return /\.(ts|mjs)$/.test(e.name) ? [p] : [];
  });
}

/** The spawns and in-process calls written in one file. */
export function countFile(path: string): FileCount {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true);
  const inProcessNames = new Set<string>(COMMAND_RUNNERS);
  const runnerNames = new Set<string>(COMMAND_RUNNERS);
  const operations = new Set<string>();
  const spawnNames = new Set<string>();
  const handles = new Set<string>();
  for (const st of source.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier) || st.importClause?.isTypeOnly) continue;
    const from = st.moduleSpecifier.text;
    const names =
      st.importClause?.namedBindings && ts.isNamedImports(st.importClause.namedBindings)
        ? st.importClause.namedBindings.elements.filter((e) => !e.isTypeOnly).map((e) => e.name.text)
        : [];
    const helper = IN_PROCESS_HELPER_MODULES.some((re) => re.test(from));
    if (from.includes('/src/') || helper) names.forEach((n) => inProcessNames.add(n));
    if (helper) names.forEach((n) => runnerNames.add(n));
    if (from.includes('/src/operations/')) names.forEach((n) => operations.add(n));
    if (/\/helpers\.ts$/.test(from)) names.filter((n) => SPAWN_HELPERS.has(n)).forEach((n) => spawnNames.add(n));
  }
  let spawns = 0;
  let commandRuns = 0;
  let inProcess = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const init = ts.isAwaitExpression(node.initializer) ? node.initializer.expression : node.initializer;
      if (ts.isCallExpression(init) && ts.isIdentifier(init.expression) && HANDLE_MAKERS.has(init.expression.text)) handles.add(node.name.text);
    }
    if (ts.isArrayLiteralExpression(node) && node.elements[0] && ts.isIdentifier(node.elements[0]) && node.elements[0].text === 'CLI') spawns++;
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (ts.isIdentifier(callee)) {
        if (spawnNames.has(callee.text)) spawns++;
        else if (inProcessNames.has(callee.text) && (!HANDLE_MAKERS.has(callee.text) || STORE_MAKERS.has(callee.text))) {
          inProcess++;
          if (runnerNames.has(callee.text)) commandRuns++;
        }
      } else if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression)) {
        const on = callee.expression.text;
        if (handles.has(on) || (operations.has(on) && callee.name.text === 'run')) {
          inProcess++;
          commandRuns++;
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { file: relative(ROOT, path), spawns, commandRuns, inProcess };
}

function main(): void {
  const counts = testFiles(TEST)
    .map(countFile)
    .filter((c) => c.spawns + c.inProcess > 0);
  const total = counts.reduce((t, c) => ({ spawns: t.spawns + c.spawns, commandRuns: t.commandRuns + c.commandRuns, inProcess: t.inProcess + c.inProcess }), {
    spawns: 0,
    commandRuns: 0,
    inProcess: 0,
  });
  if (process.argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify({ total, files: counts }, null, 2)}\n`);
    return;
  }
  const shown = [...counts].sort((a, b) => b.spawns - a.spawns || a.file.localeCompare(b.file));
  process.stdout.write('spawns  command runs in-process  in-process calls  file\n');
  for (const c of process.argv.includes('--all') ? shown : shown.slice(0, 20))
    process.stdout.write(`${String(c.spawns).padStart(6)}  ${String(c.commandRuns).padStart(23)}  ${String(c.inProcess).padStart(16)}  ${c.file}\n`);
  process.stdout.write(
    `spawns of the built CLI: ${total.spawns}; command runs in-process: ${total.commandRuns}; in-process calls (any function of src/): ${total.inProcess} (over ${counts.length} files)\n`,
  );
}

main();

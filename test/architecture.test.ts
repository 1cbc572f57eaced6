/**
 * The shape of src/knowledge/ that `npm run arch` (one rule per import) cannot see: no two of its
 * folders import each other (docs/architecture.md, "Layers and the dependency check"). Measured on
 * dependency-cruiser's own graph, collapsed to one node per folder.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

const ROOT = resolve(import.meta.dirname, '..');
const FOLDER = /^src\/knowledge\/[^/]+\/$/;

interface Cruised {
  modules: { source: string; dependencies: { resolved: string }[] }[];
}

/** Each pair of src/knowledge/ folders that import each other, as "a <-> b" (a before b). */
function twoWayTies(graph: Cruised): string[] {
  const edges = new Set<string>();
  for (const m of graph.modules) {
    if (!FOLDER.test(m.source)) continue;
    for (const d of m.dependencies) if (FOLDER.test(d.resolved) && d.resolved !== m.source) edges.add(`${m.source} ${d.resolved}`);
  }
  const ties: string[] = [];
  for (const edge of edges) {
    const [a, b] = edge.split(' ') as [string, string];
    if (a < b && edges.has(`${b} ${a}`)) ties.push(`${a} <-> ${b}`);
  }
  return ties.sort();
}

test('no two folders of src/knowledge/ import each other', async () => {
  const { stdout } = await promisify(execFile)(
    join(ROOT, 'node_modules/.bin/depcruise'),
    // only src/knowledge/'s own modules are read: what they import from elsewhere is no tie between its folders
    [
      'src/knowledge',
      '--config',
      '.dependency-cruiser.cjs',
      '--include-only',
      '^src/knowledge/',
      '--collapse',
      '^src/knowledge/[^/]+/',
      '--output-type',
      'json',
    ],
    { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
  );
  const graph = JSON.parse(stdout) as Cruised;
  assert.ok(graph.modules.filter((m) => FOLDER.test(m.source)).length > 5, 'dependency-cruiser saw the folders of src/knowledge/');
  assert.deepEqual(
    twoWayTies(graph),
    [],
    'these folders of src/knowledge/ import each other: move what both need down (core/, or model/), or drop one direction',
  );
});

// Nothing of the SDKs at start-up: importing src/llm/ loads neither @anthropic-ai/sdk nor openai
// (only `openProvider` does, with import()), and the layer bundles the way scripts/build.mjs
// needs it for dist/cli.cjs (no import() left external, ASCII only).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build, type Metafile } from 'esbuild';

const SDK = /node_modules\/(@anthropic-ai\/sdk|openai)\//;
const entry = new URL('../../src/llm/index.ts', import.meta.url).pathname;

/** The modules an entry loads statically (split as the build splits), and those of every chunk. */
async function staticInputs(file: string): Promise<{ reached: string[]; all: string[] }> {
  const { metafile } = await build({
    entryPoints: [file],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir: 'out',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = metafile.outputs;
  const start = Object.keys(outputs).find((name) => outputs[name]!.entryPoint);
  assert.ok(start);
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const i of outputs[name]!.imports) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  visit(start);
  const inputs = (names: Iterable<string>) => [...names].flatMap((n) => Object.keys(outputs[n]!.inputs));
  return { reached: inputs(seen), all: inputs(Object.keys(outputs)) };
}

test('importing src/llm/ statically reaches no SDK: each is in a chunk only import() loads', async () => {
  const { reached, all } = await staticInputs(entry);
  assert.deepEqual(
    reached.filter((i) => SDK.test(i)),
    [],
    'no SDK module is loaded with src/llm/index.ts',
  );
  assert.ok(
    all.some((i) => SDK.test(i)),
    'the SDKs are in the lazily loaded chunks',
  );
});

test("the hooks' audit check (audit-worker.ts) loads no provider, no transcript reader, no audit run", async () => {
  const { reached } = await staticInputs(new URL('../../src/knowledge/audit/audit-worker.ts', import.meta.url).pathname);
  const heavy =
    /src\/transcript\/|src\/knowledge\/audit\/(run|apply|route)-audit\.ts|src\/llm\/(anthropic|openai|claude-cli|open-provider)\.ts|src\/knowledge\/views\/search/;
  assert.deepEqual(
    reached.filter((i) => heavy.test(i) || SDK.test(i)),
    [],
  );
});

test('bundled as the CLI is (CommonJS): every import() stays inside, ASCII only', async () => {
  const { metafile, outputFiles } = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    outdir: 'out',
    write: false,
    metafile: true,
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'silent',
  });
  const dynamic = Object.values((metafile as Metafile).outputs).flatMap((o) =>
    o.imports.filter((i) => i.kind === 'dynamic-import' && i.external).map((i) => i.path),
  );
  assert.deepEqual(dynamic, []);
  const js = outputFiles.find((f) => f.path.endsWith('.js'));
  assert.ok(js);
  assert.equal(
    js.contents.some((byte) => byte > 0x7f),
    false,
  );
});

// Bundles the CLI into dist/ with esbuild: one ESM file per entry, dependencies included, so
// `axme` starts without resolving hundreds of files in node_modules.
import { build } from 'esbuild';
import { readFile, rm, chmod, rename } from 'node:fs/promises';

// zod's classic API re-exports every locale (`export * as locales`), ~360 KB that every start
// would compile. axme speaks English: resolve that namespace to English only.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${'node_modules'}/zod/`) ? { path: 'zod-locales', namespace: 'zod-en' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-en' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: new URL('..', import.meta.url).pathname,
    }));
  },
};

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
// Built beside dist/ and swapped in at the end: a test run using dist/ while someone rebuilds
// never finds it missing or half written.
const out = `dist.build-${process.pid}`;
await rm(new URL(`../${out}`, import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli/bin.ts', 'hook-slow': 'src/hooks/slow.ts' },
  outdir: out,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [zodEnglishOnly],
  alias: { 'js-yaml': './scripts/stubs/js-yaml.cjs' },
  define: { AXME_VERSION: JSON.stringify(pkg.version) },
  // CommonJS dependencies (gray-matter, js-yaml) call require(): give the ESM bundle one.
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __axmeCreateRequire } from 'node:module';\nconst require = __axmeCreateRequire(import.meta.url);" },
});
// The executable: a small CommonJS launcher that answers `axme hook <event>` itself (the agent
// harness runs pre-tool-use before every tool call) and loads the ESM CLI for everything else.
await build({
  entryPoints: { axme: 'src/cli/launcher.ts' },
  outdir: out,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  // less source to compile on each of the agent's tool calls
  minify: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  define: { AXME_VERSION: JSON.stringify(pkg.version) },
  banner: { js: '#!/usr/bin/env node' },
});
await chmod(new URL(`../${out}/axme.cjs`, import.meta.url), 0o755);
const old = `dist.old-${process.pid}`;
await rename(new URL('../dist', import.meta.url), new URL(`../${old}`, import.meta.url)).catch((err) => {
  if (err.code !== 'ENOENT') throw err;
});
await rename(new URL(`../${out}`, import.meta.url), new URL('../dist', import.meta.url));
await rm(new URL(`../${old}`, import.meta.url), { recursive: true, force: true });

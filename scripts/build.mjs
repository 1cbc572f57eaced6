// Bundles the CLI into dist/ with esbuild: one ESM file per entry, dependencies included, so
// `axme` starts without resolving hundreds of files in node_modules.
import { build } from 'esbuild';
import { readFile, rm, chmod } from 'node:fs/promises';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli/bin.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: 'linked',
  logLevel: 'warning',
  define: { AXME_VERSION: JSON.stringify(pkg.version) },
  // CommonJS dependencies (gray-matter, js-yaml) call require(): give the ESM bundle one.
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __axmeCreateRequire } from 'node:module';\nconst require = __axmeCreateRequire(import.meta.url);" },
});
await chmod(new URL('../dist/cli.js', import.meta.url), 0o755);

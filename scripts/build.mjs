// Bundles the CLI into dist/ with esbuild, dependencies included, so `axme` starts without
// resolving hundreds of files in node_modules: the launcher (dist/axme.cjs), the CLI script
// (dist/cli.cjs) and its loader (dist/cli-loader.cjs), the agents' hooks (dist/hook.cjs, run by the loader too), the
// prompt hook (dist/prompt-hook.cjs), the query at the memory tip (dist/tip-search.cjs), the git hooks
// (dist/git-hook.cjs), the hooks' slow paths (dist/hook-store-work.js).

import { createHash } from 'node:crypto';
import { chmod, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

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

// string-width (yargs' help layout) builds an Intl.Segmenter and the RGI_Emoji regular expression
// when its module loads: ~20 ms of every CLI start (ICU data), for text that is measured only
// when help is printed, and only when it is not plain ASCII. Build them on first use instead.
// The Segmenter must be found (the emoji expression is in string-width 8 only, not in the 7 that
// cliui and wrap-ansi have), and each value be used only through its one method, or the build
// fails: an upgraded string-width needs this looked at again.
const lazyUnicodeTables = {
  name: 'lazy-unicode-tables',
  setup(b) {
    const lazy = [
      { decl: /const (\w+) = (new Intl\.Segmenter\(\));/, method: 'segment' },
      { decl: /const (\w+) = (\/\^\\p\{RGI_Emoji\}\$\/v);/, method: 'test', optional: true },
    ];
    b.onLoad({ filter: /[\\/]node_modules[\\/](?:.*[\\/])?string-width[\\/]index\.js$/ }, async (args) => {
      let text = await readFile(args.path, 'utf8');
      for (const { decl, method, optional } of lazy) {
        const m = decl.exec(text);
        if (!m) {
          if (optional) continue;
          throw new Error(`lazy-unicode-tables: ${args.path} no longer matches ${decl}: update scripts/build.mjs`);
        }
        const [whole, name, value] = m;
        const uses = text.match(new RegExp(`\\b${name}\\.\\w+`, 'g')) ?? [];
        if (uses.some((u) => u !== `${name}.${method}`))
          throw new Error(`lazy-unicode-tables: ${args.path} uses ${name} other than through .${method}(): update scripts/build.mjs`);
        text = text.replace(whole, `let ${name}$lazy; const ${name} = { ${method}: (s) => (${name}$lazy ??= ${value}).${method}(s) };`);
      }
      return { contents: text, loader: 'js' };
    });
  },
};

// Two things yargs does on every run that axme never uses, each replaced where it is written (the
// build fails if the text is not found once: an upgraded yargs needs this looked at again):
// - it renders the full help of every command it runs (cacheHelpMessage), in case the command
//   fails later and the help must be shown: 20-30 ms. axme never shows help after a command ran
//   (showHelpOnFail(false); its .fail() throws to the caller).
// - yargs() guesses a version from the nearest package.json above the current folder (reading
//   each folder on the way), which axme's .version(AXME_VERSION) then replaces.
const yargsUnused = {
  name: 'yargs-unused',
  setup(b) {
    const patches = [
      {
        file: /[\\/]node_modules[\\/]yargs[\\/]build[\\/]lib[\\/]command\.js$/,
        from: 'yargs.getInternalMethods().getUsageInstance().cacheHelpMessage();',
        to: '',
      },
      {
        file: /[\\/]node_modules[\\/]yargs[\\/]build[\\/]lib[\\/]yargs-factory\.js$/,
        from: "const obj = this[kPkgUp]();\n        return obj.version || 'unknown';",
        to: "return 'unknown';",
      },
    ];
    for (const { file, from, to } of patches) {
      b.onLoad({ filter: file }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        if (text.split(from).length !== 2) throw new Error(`yargs-unused: ${args.path} no longer has one \`${from}\`: update scripts/build.mjs`);
        return { contents: text.replace(from, to), loader: 'js' };
      });
    }
  },
};

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
// the search index files are stamped with a digest of the code that analyzes and ranks
// (src/knowledge/views/search/persist.ts): a build with other analysis never reads them
const searchCode = createHash('sha256');
for (const f of (await readdir(new URL('../src/knowledge/views/search/', import.meta.url))).sort())
  searchCode.update(f).update(await readFile(new URL(`../src/knowledge/views/search/${f}`, import.meta.url)));
const AXME_SEARCH_CODE = JSON.stringify(searchCode.digest('hex').slice(0, 16));
// Built beside dist/ and swapped in at the end: a test run using dist/ while someone rebuilds
// never finds it missing or half written.
const out = `dist.build-${process.pid}`;
await rm(new URL(`../${out}`, import.meta.url), { recursive: true, force: true });
const shared = {
  outdir: out,
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [zodEnglishOnly, lazyUnicodeTables, yargsUnused],
  // jsonc-parser's "main" is a UMD build whose require() calls esbuild cannot follow: its ES modules
  alias: { 'js-yaml': './scripts/stubs/js-yaml.cjs', 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  define: { AXME_VERSION: JSON.stringify(pkg.version), AXME_SEARCH_CODE },
};
// Libraries the CLI rarely needs, each in a file of its own that the CLI requires when a command
// first uses it: less source for every start to read (and a smaller code cache). Only libraries
// whose objects axme never checks with instanceof, that share no module with the rest, and that
// are imported with `import` statements: an `import()` of another file fails the build (below).
const APART = [
  // with pako, half a megabyte: the isogit backend only (not the CLI's default)
  { module: 'isomorphic-git', file: 'isomorphic-git.cjs' },
  // GitHub calls: PR lookups and knowledge pull requests
  { module: '@octokit/rest', file: 'octokit.cjs' },
  // the auditor's model providers: loaded only when an audit opens one
  { module: '@anthropic-ai/sdk', file: 'anthropic.cjs' },
  { module: 'openai', file: 'openai.cjs' },
];
const apart = {
  name: 'apart',
  setup(b) {
    const files = new Map(APART.map(({ module, file }) => [module, `./${file}`]));
    b.onResolve({ filter: /^[@a-z]/ }, (args) => (files.has(args.path) ? { path: files.get(args.path), external: true } : undefined));
  },
};

// node:crypto takes ~2 ms to load and a read never calls it (only writes hash and name temp
// files; slugs hash a title with no letters): axme's own imports of it (and of node:zlib) load it
// on first call. Only functions can be imported this way: anything else fails the build.
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    const require = createRequire(import.meta.url);
    b.onResolve({ filter: /^node:(crypto|zlib)$/ }, (args) =>
      /[\\/]src[\\/]/.test(args.importer) ? { path: args.path, namespace: 'lazy-builtin' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => {
      const real = require(args.path);
      const names = Object.keys(real).filter((k) => typeof real[k] === 'function' && /^[a-z]/.test(k));
      const load = `let m; const load = () => (m ??= require(${JSON.stringify(args.path)}));`;
      return { contents: [load, ...names.map((n) => `export function ${n}(...a) { return load().${n}(...a); }`)].join('\n'), loader: 'js' };
    });
  },
};

// The CLI: one CommonJS script, not ES modules, so that dist/cli-loader.cjs can compile it with a
// V8 code cache (Node 20 caches scripts only). Its modules still run only when a command needs
// them: each `import()` stays lazy in the bundle. Dependencies written as ES modules read
// import.meta.url: the script's own URL.
const { metafile } = await build({
  ...shared,
  metafile: true,
  entryPoints: { cli: 'src/cli/bin.ts' },
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // less source to read and hash; names kept, so stack traces (AXME_DEBUG) still say where
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [...shared.plugins, apart, lazyBuiltins],
  define: { ...shared.define, 'import.meta.url': '__axmeImportMetaUrl' },
  banner: { js: "const __axmeImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
});
// a script compiled by vm.Script cannot run import(): every one must stay inside the bundle
for (const [name, output] of Object.entries(metafile.outputs)) {
  const dynamic = output.imports.filter((i) => i.kind === 'dynamic-import' && i.external).map((i) => i.path);
  if (dynamic.length) throw new Error(`${name} has import() of ${dynamic.join(', ')}: import it statically, or bundle it`);
}
// each as what a `require()` of it gives (the CLI's imports read it the way Node's would)
for (const { module, file } of APART) {
  await build({
    ...shared,
    stdin: { contents: `module.exports = require(${JSON.stringify(module)});`, resolveDir: '.', sourcefile: file },
    outdir: undefined,
    outfile: `${out}/${file}`,
    format: 'cjs',
  });
}
const cli = await readFile(new URL(`../${out}/cli.cjs`, import.meta.url));
// the loader reads it as latin1 (no UTF-8 decoding, ~8 ms less): ASCII only, as esbuild writes
// it here (non-ASCII escaped, comments left out); this makes sure
if (cli.some((byte) => byte > 0x7f)) throw new Error('dist/cli.cjs has non-ASCII bytes: src/cli/cli-loader.ts reads it as latin1');
// the code cache is named by the bundle's content: a cache of another build is never used
const cliHash = createHash('sha256').update(cli).digest('hex').slice(0, 16);
// The slow paths of the hooks, which the launcher loads as an ES module (with its chunks).
await build({
  ...shared,
  entryPoints: { 'hook-store-work': 'src/hooks/store-work.ts' },
  format: 'esm',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  // CommonJS dependencies (gray-matter, js-yaml) call require(): give the ESM bundle one.
  banner: { js: "import { createRequire as __axmeCreateRequire } from 'node:module';\nconst require = __axmeCreateRequire(import.meta.url);" },
});
// The executable: a small CommonJS launcher that answers `axme hook <event>` itself (the agent
// harness runs pre-tool-use before every tool call) and hands everything else to the CLI loader.
const small = {
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
};
await build({
  ...small,
  entryPoints: { axme: 'src/cli/launcher.ts' },
  define: { AXME_VERSION: JSON.stringify(pkg.version) },
  banner: { js: '#!/usr/bin/env node' },
});
// the hooks and the safety engine, which the launcher runs through the loader's code cache
const { metafile: hookMeta } = await build({
  ...small,
  metafile: true,
  entryPoints: { hook: 'src/cli/hook-main.ts' },
  define: { AXME_VERSION: JSON.stringify(pkg.version) },
});
for (const [name, output] of Object.entries(hookMeta.outputs)) {
  const dynamic = output.imports.filter((i) => i.kind === 'dynamic-import' && i.external).map((i) => i.path);
  if (dynamic.length)
    throw new Error(`${name} has import() of ${dynamic.join(', ')}: a script compiled by vm.Script cannot run import(); pass it in from the launcher`);
}
const hookBundle = await readFile(new URL(`../${out}/hook.cjs`, import.meta.url));
// a UMD package (jsonc-parser's main) keeps its own relative require()s, which fail beside dist/hook.cjs: every hook call would be blocked
const relative = /\brequire\(\s*["']\.\.?\//.test(hookBundle.toString('latin1')) || /define\(\[[^\]]*"\.\//.test(hookBundle.toString('latin1'));
if (relative)
  throw new Error(
    "dist/hook.cjs holds a relative require() of a package esbuild could not bundle (a UMD build such as jsonc-parser's): keep that package off the hook path",
  );
if (hookBundle.some((byte) => byte > 0x7f)) throw new Error('dist/hook.cjs has non-ASCII bytes: src/cli/cli-loader.ts reads it as latin1');
const hookHash = createHash('sha256').update(hookBundle).digest('hex').slice(0, 16);
// `axme search` at the memory tip, required by the launcher for `axme search` only, and the prompt
// hook (the prompt's recall and the same query at the tip): each a bundle of its own, run through
// the loader's code cache. What they import must stay light: no zod, yaml or git (the build fails
// otherwise), and no safety engine for the prompt hook (nor any other hook).
const light = async (name, entry, define) => {
  const { metafile: meta } = await build({ ...small, metafile: true, entryPoints: { [name]: entry }, define });
  const heavy = Object.keys(meta.inputs).filter((f) =>
    /node_modules[\\/](zod|yaml|gray-matter|isomorphic-git)[\\/]|src[\\/]safety[\\/]|src[\\/]sandbox[\\/]/.test(f),
  );
  if (heavy.length) throw new Error(`dist/${name}.cjs bundles ${heavy[0]}: keep it light (see src/knowledge/views/search/tip-search.ts)`);
  const dynamic = Object.values(meta.outputs).flatMap((o) => o.imports.filter((i) => i.kind === 'dynamic-import' && i.external).map((i) => i.path));
  if (dynamic.length)
    throw new Error(`dist/${name}.cjs has import() of ${dynamic.join(', ')}: a script compiled by vm.Script cannot run import(); pass it in from the launcher`);
  const bundle = await readFile(new URL(`../${out}/${name}.cjs`, import.meta.url));
  if (bundle.some((byte) => byte > 0x7f)) throw new Error(`dist/${name}.cjs has non-ASCII bytes: src/cli/cli-loader.ts reads it as latin1`);
  return createHash('sha256').update(bundle).digest('hex').slice(0, 16);
};
const tipHash = await light('tip-search', 'src/cli/tip-search-main.ts', { AXME_SEARCH_CODE });
const promptHash = await light('prompt-hook', 'src/cli/prompt-hook-main.ts', { AXME_SEARCH_CODE, AXME_VERSION: JSON.stringify(pkg.version) });
await build({
  ...small,
  entryPoints: { 'cli-loader': 'src/cli/cli-loader.ts' },
  define: {
    AXME_CLI_HASH: JSON.stringify(cliHash),
    AXME_HOOK_HASH: JSON.stringify(hookHash),
    AXME_TIP_HASH: JSON.stringify(tipHash),
    AXME_PROMPT_HASH: JSON.stringify(promptHash),
  },
});
// the git hooks' fast path, required by the launcher for `axme git-hook` only
await build({ ...small, entryPoints: { 'git-hook': 'src/cli/git-hook-main.ts' }, define: { AXME_VERSION: JSON.stringify(pkg.version) } });
// the allowlisted sandbox's network proxy, started by the hook when none answers (src/sandbox/net-daemon.ts)
await build({ ...small, entryPoints: { 'sandbox-proxy': 'src/sandbox/proxy-main.ts' } });
// `node dist/cli.js <command>`: the CLI without the launcher's hook fast path (docs/mcp.md)
await writeFile(
  new URL(`../${out}/cli.js`, import.meta.url),
  "#!/usr/bin/env node\n// The CLI without the launcher's hook fast path: dist/axme.cjs is what `axme` runs.\nimport { createRequire } from 'node:module';\nimport { fileURLToPath } from 'node:url';\ncreateRequire(import.meta.url)('./cli-loader.cjs').loadCli(fileURLToPath(new URL('.', import.meta.url)), process.env, process.argv.slice(2));\n",
);
await chmod(new URL(`../${out}/axme.cjs`, import.meta.url), 0o755);
const old = `dist.old-${process.pid}`;
await rename(new URL('../dist', import.meta.url), new URL(`../${old}`, import.meta.url)).catch((err) => {
  if (err.code !== 'ENOENT') throw err;
});
await rename(new URL(`../${out}`, import.meta.url), new URL('../dist', import.meta.url));
await rm(new URL(`../${old}`, import.meta.url), { recursive: true, force: true });

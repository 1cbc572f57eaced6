// The layer rules of src/ (docs/architecture.md#the-layers), checked by dependency-cruiser: `npm run arch`
// (run by .ci/run after the typecheck). docs/architecture.md, "Layers and the dependency check",
// explains each rule and what to do when one fails.

/**
 * Each folder of src/ and the folders it may import from (its own always). Lowest first: a layer
 * imports only from layers listed before it, so the order is the architecture.
 */
const LAYERS = {
  // pure: schemas, codec, slugs, ids, shared constants
  model: [],
  // the git layer
  store: ['model'],
  // pure policy engine; its outside input (PR state) is injected
  safety: ['model'],
  // the working-tree scanner behind the oracle: files in, facts and pages out; never the store
  scan: ['model'],
  // machine-local session state
  session: ['store', 'model'],
  // the kernel sandbox under the guard: policy → bubblewrap arguments, its settings, whether it can start here
  sandbox: ['store', 'model'],
  // agents' session transcripts: streaming readers, rendering for the auditor's model, redaction. Pure: files in, text out
  transcript: ['model'],
  // Octokit
  github: ['store', 'model'],
  // the auditor's model: Anthropic and OpenAI-compatible APIs through their SDKs (loaded with import()), the user's `claude` CLI
  llm: ['model'],
  // the domain, all its subfolders included
  knowledge: ['scan', 'safety', 'session', 'transcript', 'github', 'llm', 'store', 'model'],
  // installs axme into a checkout (init, git hooks, agent files, doctor)
  setup: ['knowledge', 'scan', 'safety', 'session', 'transcript', 'github', 'llm', 'store', 'model', 'sandbox'],
  // the one table of operations that CLI commands and MCP tools are built from
  operations: ['setup', 'knowledge', 'scan', 'safety', 'session', 'transcript', 'github', 'llm', 'model', 'sandbox'],
  // surfaces: never store/ (rule surface-not-to-store); the CLI is the entry point and starts the others
  hooks: ['operations', 'setup', 'knowledge', 'scan', 'safety', 'session', 'transcript', 'github', 'llm', 'model', 'sandbox'],
  mcp: ['operations', 'setup', 'knowledge', 'scan', 'safety', 'session', 'transcript', 'github', 'llm', 'model', 'sandbox'],
  // the local web page (axme ui): reads through knowledge/, changes through operations/ (a person's forms), never the store
  ui: ['operations', 'knowledge', 'session', 'model'],
  cli: ['hooks', 'mcp', 'ui', 'operations', 'setup', 'knowledge', 'scan', 'safety', 'session', 'transcript', 'github', 'llm', 'model', 'sandbox'],
};

const layerRules = Object.entries(LAYERS).map(([name, allowed]) => ({
  name: `layer-${name}`,
  comment: `src/${name}/ imports only from ${allowed.length ? allowed.map((a) => `src/${a}/`).join(', ') : 'nothing else in src/'} (docs/architecture.md#the-layers: imports point down)`,
  severity: 'error',
  from: { path: `^src/${name}/` },
  to: { path: '^src/', pathNot: `^src/(${[name, ...allowed].join('|')})/` },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle: move the piece both sides need down (a shared type or constant), or invert the dependency',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'layer-unassigned',
      comment: 'A folder of src/ that is in no layer: add it to LAYERS in .dependency-cruiser.cjs (and a row to the layers table of docs/architecture.md)',
      severity: 'error',
      from: { path: '^src/', pathNot: `^src/(${Object.keys(LAYERS).join('|')})/` },
      to: {},
    },
    {
      name: 'surface-not-to-store',
      comment: 'A surface (cli, mcp, hooks, ui) never imports src/store/: call a knowledge/ (or session/) function, e.g. knowledge/core/location.ts',
      severity: 'error',
      from: { path: '^src/(cli|mcp|hooks|ui)/' },
      to: { path: '^src/store/' },
    },
    {
      name: 'core-not-to-features',
      comment:
        'knowledge/core/ (the handle, states, the parse cache, staging, the write loop, lookups, results) is what every ' +
        'other folder of knowledge/ builds on: it never imports them',
      severity: 'error',
      from: { path: '^src/knowledge/core/' },
      to: { path: '^src/knowledge/', pathNot: '^src/knowledge/core/' },
    },
    {
      name: 'items-not-to-features',
      comment: 'knowledge/items/ (one folder per kind) builds on core/ and workspace routing only: views, history, review, sync, close and admin build on it',
      severity: 'error',
      from: { path: '^src/knowledge/items/' },
      to: { path: '^src/knowledge/(views|history|rules|close|admin|sync|review)/' },
    },
    {
      name: 'knowledge-folders-no-cycle',
      comment:
        'Folders of knowledge/ that import each other, directly or through others (judged folder by folder, so no module ' +
        'cycle is needed): move what they share down (core/, or model/), or drop one direction',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/knowledge/[^/]+$' },
      to: { path: '^src/knowledge/[^/]+$', circular: true },
    },
    {
      name: 'merge-diff-on-state-only',
      comment:
        'sync/merge/ and review/diff/ are functions of knowledge states: from knowledge/ they import only core/kb.ts, ' +
        'core/state.ts and core/renumber-ids.ts (a pure function of items; move anything else they need down to model/)',
      severity: 'error',
      from: { path: '^src/knowledge/(sync/merge|review/diff)/' },
      to: { path: '^src/knowledge/', pathNot: '^src/knowledge/(sync/merge/|review/diff/|core/kb\\.ts$|core/state\\.ts$|core/renumber-ids\\.ts$)' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'This import resolves to no file: fix the path, or add the package',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // only src/ is layered (every rule starts there); packages are not followed into
    doNotFollow: { path: 'node_modules' },
    // type-only imports couple layers too
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // resolve packages the way Node does (exports maps, ESM-only packages)
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], mainFields: ['module', 'main'] },
  },
};

import { parseYaml } from '../model/frontmatter.ts';
import { agentExcerpts } from './agent-excerpts.ts';
import { detectCi } from './ci.ts';
import type { PatternFacts, ScanInput, ToolConfig } from './facts.ts';
import { baseOf, byCodeUnit, depthOf, indexOf, inTestTree, type JsonObject, MANIFEST_DEPTH, obj, readJsonObject, str } from './files.ts';
import { parseToml, type TomlTable, tomlGet, tomlTable } from './toml.ts';

/** Config files by name, and the tool each configures. */
const LINT_FILES: ReadonlyArray<readonly [tool: string, re: RegExp]> = [
  ['ESLint', /^eslint\.config\.[cm]?[jt]s$/],
  ['ESLint', /^\.eslintrc(?:\.(?:js|cjs|mjs|json|ya?ml))?$/],
  ['Prettier', /^\.prettierrc(?:\.(?:json5?|ya?ml|toml|[cm]?[jt]s))?$/],
  ['Prettier', /^prettier\.config\.[cm]?[jt]s$/],
  ['Biome', /^biome\.jsonc?$/],
  ['EditorConfig', /^\.editorconfig$/],
  ['Ruff', /^\.?ruff\.toml$/],
  ['Flake8', /^\.flake8$/],
  ['mypy', /^\.?mypy\.ini$/],
  ['golangci-lint', /^\.golangci\.(?:ya?ml|toml|json)$/],
  ['rustfmt', /^\.?rustfmt\.toml$/],
  ['Clippy', /^\.?clippy\.toml$/],
  ['Stylelint', /^\.stylelintrc(?:\.(?:json|ya?ml|[cm]?js))?$/],
  ['Stylelint', /^stylelint\.config\.[cm]?js$/],
];

/** Tools configured in a pyproject.toml [tool.*] table. */
const PYPROJECT_TOOLS: ReadonlyArray<readonly [tool: string, table: string]> = [
  ['Ruff', 'tool.ruff'],
  ['Black', 'tool.black'],
  ['isort', 'tool.isort'],
  ['mypy', 'tool.mypy'],
  ['Pyright', 'tool.pyright'],
];

/** Tools configured in an INI section of setup.cfg / tox.ini. */
const INI_TOOLS: ReadonlyArray<readonly [tool: string, section: string]> = [
  ['Flake8', 'flake8'],
  ['mypy', 'mypy'],
  ['isort', 'isort'],
];

const COMMITLINT = /^(?:commitlint\.config\.[cm]?[jt]s|\.commitlintrc(?:\.(?:json|ya?ml|[cm]?[jt]s))?)$/;
const LEFTHOOK = /^\.?lefthook\.(?:ya?ml|toml|json)$/;
const LINT_STAGED = /^(?:\.lintstagedrc(?:\.(?:json|ya?ml|[cm]?js))?|lint-staged\.config\.[cm]?js)$/;
const GIT_HOOK_NAMES = new Set([
  'applypatch-msg',
  'pre-applypatch',
  'post-applypatch',
  'pre-commit',
  'pre-merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'pre-rebase',
  'post-checkout',
  'post-merge',
  'pre-push',
  'post-rewrite',
]);

/** Lint/format configs, git-hook tooling, commit conventions, CI and agent instructions. */
export function detectPatterns(input: ScanInput): PatternFacts {
  const lintFormat: ToolConfig[] = [];
  const gitHooks: ToolConfig[] = [];
  const commitConventions: ToolConfig[] = [];
  const ix = indexOf(input);
  for (const f of input.files) {
    if (depthOf(f) > MANIFEST_DEPTH || inTestTree(f)) continue;
    const name = baseOf(f);
    for (const [tool, re] of LINT_FILES) if (re.test(name)) lintFormat.push({ tool, file: f, detail: null });
    if (name === 'tsconfig.json') lintFormat.push({ tool: 'TypeScript', file: f, detail: tsStrict(input, f) });
    if (name === 'pyproject.toml') {
      const t = parseToml(input.read(f) ?? '').root;
      for (const [tool, table] of PYPROJECT_TOOLS) if (tomlTable(t, table)) lintFormat.push({ tool, file: `${f} [${table}]`, detail: null });
      if (tomlTable(t, 'tool.commitizen'))
        commitConventions.push({ tool: 'Commitizen', file: `${f} [tool.commitizen]`, detail: stringAt(t, 'tool.commitizen.name') });
    }
    if (name === 'setup.cfg' || name === 'tox.ini') {
      const text = input.read(f) ?? '';
      for (const [tool, section] of INI_TOOLS)
        if (new RegExp(`^\\[${section}\\]\\s*$`, 'm').test(text)) lintFormat.push({ tool, file: `${f} [${section}]`, detail: null });
    }
    if (name === 'package.json') packageJsonPatterns(input, f, lintFormat, gitHooks, commitConventions);
    if (COMMITLINT.test(name)) commitConventions.push({ tool: 'commitlint', file: f, detail: commitlintExtends(input.read(f) ?? '') });
    if (name === '.czrc' || name === '.cz.toml' || name === 'cz.toml') commitConventions.push({ tool: 'Commitizen', file: f, detail: null });
    if (LEFTHOOK.test(name)) gitHooks.push({ tool: 'Lefthook', file: f, detail: lefthookHooks(input.read(f) ?? '') });
    if (name === '.pre-commit-config.yaml' || name === '.pre-commit-config.yml')
      gitHooks.push({ tool: 'pre-commit', file: f, detail: preCommitHooks(input.read(f) ?? '') });
    if (LINT_STAGED.test(name)) gitHooks.push({ tool: 'lint-staged', file: f, detail: null });
  }
  const husky = ix
    .children('.husky')
    .filter((n) => !n.startsWith('.') && GIT_HOOK_NAMES.has(n))
    .sort(byCodeUnit);
  if (husky.length) gitHooks.push({ tool: 'Husky', file: '.husky/', detail: husky.join(', ') });
  const sort = (l: ToolConfig[]) => l.sort((a, b) => byCodeUnit(a.tool, b.tool) || byCodeUnit(a.file, b.file));
  return {
    lintFormat: sort(lintFormat),
    gitHooks: sort(gitHooks),
    commitConventions: sort(commitConventions),
    ci: detectCi(input),
    agentInstructions: agentExcerpts(input),
  };
}

/** Tool configuration kept inside package.json. */
function packageJsonPatterns(input: ScanInput, f: string, lint: ToolConfig[], hooks: ToolConfig[], commits: ToolConfig[]): void {
  const pkg = readJsonObject(input, f, null);
  if (!pkg) return;
  const has = (k: string) => Object.hasOwn(pkg, k);
  if (has('eslintConfig')) lint.push({ tool: 'ESLint', file: `${f} (eslintConfig)`, detail: null });
  if (has('prettier')) lint.push({ tool: 'Prettier', file: `${f} (prettier)`, detail: null });
  if (has('stylelint')) lint.push({ tool: 'Stylelint', file: `${f} (stylelint)`, detail: null });
  if (has('lint-staged')) hooks.push({ tool: 'lint-staged', file: `${f} (lint-staged)`, detail: null });
  const sgh = obj(pkg, 'simple-git-hooks');
  if (sgh)
    hooks.push({
      tool: 'simple-git-hooks',
      file: `${f} (simple-git-hooks)`,
      detail:
        Object.keys(sgh)
          .filter((k) => GIT_HOOK_NAMES.has(k))
          .sort(byCodeUnit)
          .join(', ') || null,
    });
  const husky = obj(obj(pkg, 'husky'), 'hooks');
  if (husky) hooks.push({ tool: 'Husky (v4 config)', file: `${f} (husky.hooks)`, detail: Object.keys(husky).sort(byCodeUnit).join(', ') || null });
  const commitlint = obj(pkg, 'commitlint');
  if (commitlint) commits.push({ tool: 'commitlint', file: `${f} (commitlint)`, detail: extendsDetail(commitlint.extends) });
  const cz = obj(obj(pkg, 'config'), 'commitizen');
  if (cz) commits.push({ tool: 'Commitizen', file: `${f} (config.commitizen)`, detail: str(cz, 'path') });
}

/** "strict: true" / "strict: false" / "strict not set (extends x)" of a tsconfig.json. */
function tsStrict(input: ScanInput, f: string): string | null {
  const ts = readJsonObject(input, f, null, { jsonc: true });
  if (!ts) return null;
  const strict = obj(ts, 'compilerOptions')?.strict;
  const ext = typeof ts.extends === 'string' ? ts.extends : Array.isArray(ts.extends) ? ts.extends.filter((x) => typeof x === 'string').join(', ') : null;
  if (typeof strict === 'boolean') return `strict: ${strict}`;
  return ext ? `strict not set here (extends ${ext})` : 'strict not set';
}

function extendsDetail(v: unknown): string | null {
  const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  return list.length ? `extends ${list.join(', ')}` : null;
}

/** What a commitlint config extends: JSON/YAML parsed, JS/TS read for `extends: [...]`. */
function commitlintExtends(text: string): string | null {
  try {
    const doc = parseYaml(text) as JsonObject | null; // JSON is YAML
    if (doc && typeof doc === 'object' && !Array.isArray(doc) && Object.hasOwn(doc, 'extends')) return extendsDetail(doc.extends);
  } catch {
    // a JS or TS config: read below
  }
  const m = /\bextends\s*:\s*(\[[^\]]*\]|["'][^"']+["'])/.exec(text);
  return m ? extendsDetail([...m[1]!.matchAll(/["']([^"']+)["']/g)].map((x) => x[1]!)) : null;
}

function yamlObject(text: string): JsonObject | null {
  try {
    const v = parseYaml(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : null;
  } catch {
    return null;
  }
}

/** Git hooks a lefthook.yml defines. */
function lefthookHooks(text: string): string | null {
  const doc = yamlObject(text);
  const hooks = doc
    ? Object.keys(doc)
        .filter((k) => GIT_HOOK_NAMES.has(k))
        .sort(byCodeUnit)
    : [];
  return hooks.length ? hooks.join(', ') : null;
}

/** Hook ids of a .pre-commit-config.yaml (at most 12). */
function preCommitHooks(text: string): string | null {
  const repos = yamlObject(text)?.repos;
  const ids = new Set<string>();
  if (Array.isArray(repos)) {
    for (const r of repos) {
      const hooks = (r as JsonObject | null)?.hooks;
      if (Array.isArray(hooks)) for (const h of hooks) if (typeof (h as JsonObject | null)?.id === 'string') ids.add((h as JsonObject).id as string);
    }
  }
  const list = [...ids].sort(byCodeUnit);
  return list.length ? `hooks: ${list.slice(0, 12).join(', ')}${list.length > 12 ? `, and ${list.length - 12} more` : ''}` : null;
}

function stringAt(t: TomlTable, path: string): string | null {
  const v = tomlGet(t, path);
  return typeof v === 'string' ? v : null;
}

/**
 * `axme oracle scan`: detectors on fixture projects in real temporary git repositories, the pages
 * it writes on refs/memory/main, re-scans without commits, hand-written text kept, the file
 * listing (ignored and skipped folders) and the bounded reader.
 */

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { initStore } from '../../src/knowledge/admin/init-store.ts';
import { itemFile } from '../../src/knowledge/core/item-file.ts';
import type { KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { mutate } from '../../src/knowledge/core/mutate.ts';
import { type ScanOracleResult, scanOracle } from '../../src/knowledge/items/oracle/scan-oracle.ts';
import { isAxmeError } from '../../src/model/errors.ts';
import { agentExcerpts, EXCERPT_CHARS, withoutAxmeBlock } from '../../src/scan/agent-excerpts.ts';
import type { OracleFacts, ProjectFacts } from '../../src/scan/facts.ts';
import { isSkipped } from '../../src/scan/files.ts';
import { SCAN_END, SCAN_START } from '../../src/scan/region.ts';
import { parseToml, type TomlTable, tomlGet } from '../../src/scan/toml.ts';
import { listWorktreeFiles, readWorktreeFile } from '../../src/store/worktree-files.ts';
import { axmeInOk } from '../cli-in-process.ts';
import { initCore } from '../core.ts';
import { axmeOk, git, openTestKb, tempRepo } from '../helpers.ts';

const REF = 'refs/memory/main';
const cleanups: Array<() => void> = [];
const kbs: KnowledgeBase[] = [];
after(async () => {
  for (const kb of kbs) await kb.repo.close();
  for (const c of cleanups) c();
});

type Files = Record<string, string>;

function writeFiles(dir: string, files: Files): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** A repository holding `files` (committed unless `commit: false`), with an initialized store. */
async function fixture(files: Files, opts: { commit?: boolean; now?: () => Date } = {}): Promise<{ dir: string; kb: KnowledgeBase }> {
  const { dir, cleanup } = tempRepo();
  cleanups.push(cleanup);
  writeFiles(dir, files);
  if (opts.commit !== false) {
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-q', '-m', 'fixture']);
  }
  const kb = await openTestKb(dir, { now: opts.now });
  kbs.push(kb);
  await initStore(kb);
  return { dir, kb };
}

function tip(dir: string): string {
  return git(dir, ['rev-parse', REF]).trim();
}

function page(dir: string, slug: string, rev = REF): string {
  return git(dir, ['show', `${rev}:oracle/${slug}.md`]);
}

function project(facts: OracleFacts, dir: string, ecosystem?: string): ProjectFacts {
  const p = facts.stack.projects.find((x) => x.dir === dir && (!ecosystem || x.ecosystem === ecosystem));
  assert.ok(p, `no ${ecosystem ?? ''} project in ${dir}; found ${facts.stack.projects.map((x) => `${x.dir}:${x.ecosystem}`).join(', ')}`);
  return p;
}

const names = (deps: Array<{ name: string }>) => deps.map((d) => d.name);
const dep = (deps: Array<{ name: string; version: string | null }>, name: string) => deps.find((d) => d.name === name)?.version;

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

// ---------------------------------------------------------------- fixtures per language

interface Case {
  name: string;
  files: Files;
  check: (r: ScanOracleResult, pages: { stack: string; structure: string; patterns: string }) => void;
}

const CLAUDE_MD = `# Working on web

Use pnpm, never npm.
Run \`pnpm test\` before committing.

<!-- axme:start -->
## Project knowledge (axme)
AXME-MANAGED-TEXT must not be quoted
<!-- axme:end -->

Keep components small.
`;

const CASES: Case[] = [
  {
    name: 'Node + TypeScript with pnpm, Vitest and React',
    files: {
      'package.json': json({
        name: 'web',
        packageManager: 'pnpm@9.1.0+sha512.abc',
        type: 'module',
        engines: { node: '>=20' },
        main: './dist/index.js',
        scripts: { test: 'vitest run', build: 'tsc' },
        dependencies: { react: '^18.3.1', 'react-dom': '^18.3.1' },
        devDependencies: { typescript: '^5.4.0', vitest: '^1.6.0', '@commitlint/cli': '^19' },
      }),
      'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
      'tsconfig.json': '{\n  // strict everywhere\n  "compilerOptions": { "strict": true, "outDir": "dist", },\n}\n',
      'src/index.ts': 'export {};\n',
      'src/App.tsx': 'export const App = () => null;\n',
      'src/App.test.tsx': 'import { test } from "vitest";\n',
      'eslint.config.js': 'export default [];\n',
      '.prettierrc': '{}\n',
      '.editorconfig': 'root = true\n',
      '.github/workflows/ci.yml': 'name: CI\non: [push]\njobs: {}\n',
      '.github/workflows/release.yaml': 'on: [push]\njobs: {}\n',
      '.husky/pre-commit': 'pnpm test\n',
      '.husky/commit-msg': 'npx commitlint --edit "$1"\n',
      'commitlint.config.js': "export default { extends: ['@commitlint/config-conventional'] };\n",
      'CLAUDE.md': CLAUDE_MD,
      'AGENTS.md': `${'Agents read this. '.repeat(150)}\nlast line\n`,
      'README.md': '# web\n',
      LICENSE: 'MIT\n',
      Dockerfile: 'FROM node:20\n',
    },
    check: ({ facts }, pages) => {
      const p = project(facts, '.', 'node');
      assert.equal(p.name, 'web');
      assert.deepEqual(p.languages, ['TypeScript']);
      assert.deepEqual(p.tools, ['pnpm']);
      assert.equal(p.runtime, 'node >=20');
      assert.deepEqual(names(p.frameworks), ['React']);
      assert.equal(dep(p.frameworks, 'React'), '^18.3.1');
      assert.deepEqual(names(p.testRunners), ['Vitest']);
      assert.ok(p.traits.includes('ESM ("type": "module")'), p.traits.join('; '));
      assert.ok(p.traits.includes('packageManager: pnpm@9.1.0'));
      assert.ok(p.traits.includes('lockfile: pnpm-lock.yaml'));
      assert.deepEqual(p.manifests, ['package.json', 'tsconfig.json']);
      const s = facts.structure;
      assert.deepEqual(s.topFiles, ['Dockerfile', 'LICENSE', 'README.md']);
      assert.deepEqual(s.topFolders, [
        { name: '.github', files: 2 },
        { name: 'src', files: 3 },
      ]);
      assert.ok(s.entryPoints.some((e) => e.path === 'src/index.ts' && e.kind === 'src/index.*'));
      assert.ok(s.entryPoints.some((e) => e.path === 'dist/index.js' && e.kind === 'package.json main'));
      assert.deepEqual(s.testFiles, [{ name: '*.test.*, *.spec.*', files: 1 }]);
      const pt = facts.patterns;
      assert.deepEqual(
        pt.lintFormat.map((t) => `${t.tool} ${t.file} ${t.detail ?? ''}`.trim()),
        ['ESLint eslint.config.js', 'EditorConfig .editorconfig', 'Prettier .prettierrc', 'TypeScript tsconfig.json strict: true'],
      );
      assert.deepEqual(pt.gitHooks, [{ tool: 'Husky', file: '.husky/', detail: 'commit-msg, pre-commit' }]);
      assert.deepEqual(pt.commitConventions, [{ tool: 'commitlint', file: 'commitlint.config.js', detail: 'extends @commitlint/config-conventional' }]);
      assert.deepEqual(pt.ci, [
        { system: 'GitHub Actions', file: '.github/workflows/ci.yml', name: 'CI' },
        { system: 'GitHub Actions', file: '.github/workflows/release.yaml', name: null },
      ]);
      const claude = pt.agentInstructions.find((a) => a.file === 'CLAUDE.md')!;
      assert.ok(claude.excerpt.includes('Use pnpm, never npm.'));
      assert.ok(claude.excerpt.includes('Keep components small.'));
      assert.ok(!claude.excerpt.includes('AXME-MANAGED-TEXT'));
      assert.ok(!pages.patterns.includes('AXME-MANAGED-TEXT'));
      const agents = pt.agentInstructions.find((a) => a.file === 'AGENTS.md')!;
      assert.equal(agents.truncated, true);
      assert.ok(agents.excerpt.length <= 1500);
      assert.match(pages.stack, /^## \. \(top level\): Node\.js \(TypeScript\)$/m);
      assert.match(pages.stack, /^- Frameworks: React `\^18\.3\.1`$/m);
      assert.match(pages.structure, /^- `src\/index\.ts`: src\/index\.\*$/m);
      assert.match(pages.patterns, /^> Use pnpm, never npm\.$/m);
      assert.match(pages.patterns, /^- GitHub Actions: `\.github\/workflows\/ci\.yml` \(CI\)$/m);
    },
  },
  {
    name: 'plain JavaScript with npm and node:test',
    files: {
      'package.json': json({ name: 'tool', scripts: { test: 'node --test test/' }, bin: { tool: 'bin/tool.js' } }),
      'package-lock.json': json({ lockfileVersion: 3 }),
      'bin/tool.js': '#!/usr/bin/env node\n',
      'test/tool.test.js': "import test from 'node:test';\n",
    },
    check: ({ facts }, pages) => {
      const p = project(facts, '.', 'node');
      assert.deepEqual(p.languages, ['JavaScript']);
      assert.deepEqual(p.tools, ['npm']);
      assert.deepEqual(names(p.testRunners), ['node:test']);
      assert.equal(p.runtime, null);
      assert.ok(!p.traits.some((t) => t.startsWith('ESM')));
      assert.ok(facts.structure.entryPoints.some((e) => e.path === 'bin/tool.js' && e.kind === 'package.json bin tool'));
      assert.deepEqual(facts.structure.testFolders, [{ name: 'test', files: 1 }]);
      assert.deepEqual(facts.structure.testFiles, [], 'files inside test/ are not "next to the code"');
      assert.match(pages.stack, /^- Tests: node:test$/m);
    },
  },
  {
    name: 'Python with Poetry, FastAPI and pytest',
    files: {
      'pyproject.toml': `[tool.poetry]
name = "api"
version = "0.1.0"
description = """A multi-line
description with [brackets] and = signs"""
authors = ["A <a@example.com>"]  # a comment

[tool.poetry.dependencies]
python = "^3.11"
fastapi = { version = "^0.110.0", extras = ["all"] }
uvicorn = "^0.29"

[tool.poetry.group.dev.dependencies]
pytest = "^8.1"

[tool.ruff]
line-length = 100

[tool.pytest.ini_options]
addopts = "-q"

[build-system]
requires = ["poetry-core"]
build-backend = "poetry.core.masonry.api"
`,
      'poetry.lock': '# lock\n',
      'api/__main__.py': 'print(1)\n',
      'api/app.py': 'app = None\n',
      'tests/test_app.py': 'def test_x(): pass\n',
    },
    check: ({ facts }) => {
      const p = project(facts, '.', 'python');
      assert.equal(p.name, 'api');
      assert.deepEqual(p.tools, ['poetry']);
      assert.equal(p.runtime, 'python ^3.11');
      assert.deepEqual(p.frameworks, [{ name: 'FastAPI', version: '^0.110.0' }]);
      assert.deepEqual(p.testRunners, [{ name: 'pytest', version: '^8.1' }]);
      assert.ok(p.traits.includes('build backend: poetry.core.masonry.api'));
      assert.ok(p.traits.includes('lockfile: poetry.lock'));
      assert.ok(facts.patterns.lintFormat.some((t) => t.tool === 'Ruff' && t.file === 'pyproject.toml [tool.ruff]'));
      assert.ok(facts.structure.entryPoints.some((e) => e.path === 'api/__main__.py'));
      assert.deepEqual(facts.notes, []);
    },
  },
  {
    name: 'Python with requirements.txt and Django',
    files: {
      'requirements.txt': 'Django>=5.0,<6  # the web framework\npsycopg[binary]==3.1.18\n# comment\n-r requirements-dev.txt\n',
      'requirements-dev.txt': 'pytest-django==4.8\npytest==8.1.1\n',
      '.python-version': '3.12\n',
      'manage.py': 'import django\n',
      'mysite/settings.py': 'DEBUG = True\n',
      'setup.cfg': '[flake8]\nmax-line-length = 100\n',
    },
    check: ({ facts }) => {
      const p = project(facts, '.', 'python');
      assert.equal(p.name, null);
      assert.deepEqual(p.tools, ['pip']);
      assert.equal(p.runtime, 'python 3.12 (.python-version)');
      assert.deepEqual(p.frameworks, [{ name: 'Django', version: '>=5.0,<6' }]);
      assert.deepEqual(p.testRunners, [{ name: 'pytest', version: '==8.1.1' }]);
      assert.deepEqual(p.manifests, ['requirements-dev.txt', 'requirements.txt']);
      assert.ok(facts.structure.entryPoints.some((e) => e.path === 'manage.py' && e.kind === 'manage.py (Django)'));
      assert.ok(facts.patterns.lintFormat.some((t) => t.tool === 'Flake8' && t.file === 'setup.cfg [flake8]'));
    },
  },
  {
    name: 'Go with Gin and cmd/*/main.go',
    files: {
      'go.mod':
        'module github.com/acme/shop\n\ngo 1.22\n\ntoolchain go1.22.2\n\nrequire (\n\tgithub.com/gin-gonic/gin v1.9.1\n\tgithub.com/stretchr/testify v1.9.0\n\tgithub.com/labstack/echo/v4 v4.11.0 // indirect\n)\n',
      'go.sum': '',
      'cmd/server/main.go': 'package main\n',
      'cmd/worker/main.go': 'package main\n',
      'internal/cart/cart.go': 'package cart\n',
      'internal/cart/cart_test.go': 'package cart\n',
      '.golangci.yml': 'linters: {}\n',
      Makefile: 'all:\n',
    },
    check: ({ facts }, pages) => {
      const p = project(facts, '.', 'go');
      assert.equal(p.name, 'github.com/acme/shop');
      assert.equal(p.runtime, 'go 1.22');
      assert.deepEqual(p.frameworks, [{ name: 'Gin', version: 'v1.9.1' }], 'an indirect requirement is no framework of the project');
      assert.deepEqual(names(p.testRunners), ['go test', 'testify']);
      assert.ok(p.traits.includes('toolchain go1.22.2'));
      assert.deepEqual(
        facts.structure.entryPoints.filter((e) => e.kind === 'cmd/*/main.go').map((e) => e.path),
        ['cmd/server/main.go', 'cmd/worker/main.go'],
      );
      assert.deepEqual(facts.structure.testFiles, [{ name: '*_test.go', files: 1 }]);
      assert.ok(facts.patterns.lintFormat.some((t) => t.tool === 'golangci-lint'));
      assert.match(pages.stack, /^- Frameworks: Gin `v1\.9\.1`$/m);
    },
  },
  {
    name: 'Rust workspace with Axum',
    files: {
      'Cargo.toml':
        '[workspace]\nmembers = [\n  "crates/api",   # the server\n  "crates/core",\n]\nresolver = "2"\n\n[workspace.package]\nedition = "2021"\n\n[workspace.dependencies]\naxum = "0.7"\ntokio = { version = "1.37", features = ["full"] }\nserde = { version = "1", features = ["derive"] }\n',
      'Cargo.lock': '# lock\n',
      'rustfmt.toml': 'max_width = 100\n',
      'crates/api/Cargo.toml':
        '[package]\nname = "api"\nversion = "0.1.0"\nedition.workspace = true\n\n[dependencies]\naxum.workspace = true\ntokio = { workspace = true }\ncore = { path = "../core" }\n',
      'crates/api/src/main.rs': 'fn main() {}\n',
      'crates/core/Cargo.toml': "[package]\nname = 'core'\nedition = '2018'\n\n[dependencies]\nserde = { workspace = true }\n",
      'crates/core/src/lib.rs': '\n',
    },
    check: ({ facts }) => {
      const root = project(facts, '.', 'rust');
      assert.equal(root.name, null);
      assert.ok(root.traits.includes('workspace root, virtual manifest (2 members)'), root.traits.join('; '));
      assert.deepEqual(names(root.frameworks), ['Tokio', 'Axum', 'Serde']);
      const api = project(facts, 'crates/api', 'rust');
      assert.equal(api.name, 'api');
      assert.equal(api.runtime, 'edition 2021', 'edition.workspace = true comes from [workspace.package]');
      assert.deepEqual(api.frameworks, [
        { name: 'Tokio', version: '1.37' },
        { name: 'Axum', version: '0.7' },
      ]);
      assert.ok(api.traits.includes('lockfile: Cargo.lock'));
      assert.ok(api.traits.includes('member of the workspace in .'));
      assert.equal(project(facts, 'crates/core', 'rust').runtime, 'edition 2018');
      assert.deepEqual(facts.structure.workspaces, [{ file: 'Cargo.toml', tool: 'Cargo workspace', members: ['crates/api', 'crates/core'] }]);
      const kinds = Object.fromEntries(facts.structure.entryPoints.map((e) => [e.path, e.kind]));
      assert.equal(kinds['crates/api/src/main.rs'], 'src/main.rs (binary crate)');
      assert.equal(kinds['crates/core/src/lib.rs'], 'src/lib.rs (library crate)');
      assert.ok(facts.patterns.lintFormat.some((t) => t.tool === 'rustfmt'));
    },
  },
  {
    name: 'Maven with Spring Boot',
    files: {
      'pom.xml': `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>org.springframework.boot</groupId>
    <artifactId>spring-boot-starter-parent</artifactId>
    <version>3.2.5</version>
  </parent>
  <groupId>com.example</groupId>
  <artifactId>demo</artifactId>
  <!-- <artifactId>commented-out</artifactId> -->
  <properties><java.version>17</java.version></properties>
  <dependencies>
    <dependency><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-web</artifactId></dependency>
    <dependency>
      <groupId>org.springframework.boot</groupId>
      <artifactId>spring-boot-starter-test</artifactId>
      <scope>test</scope>
    </dependency>
  </dependencies>
  <build><plugins><plugin><groupId>org.springframework.boot</groupId><artifactId>spring-boot-maven-plugin</artifactId></plugin></plugins></build>
</project>
`,
      mvnw: '#!/bin/sh\n',
      'src/main/java/com/example/DemoApplication.java': 'class DemoApplication {}\n',
      'src/test/java/com/example/DemoApplicationTests.java': 'class DemoApplicationTests {}\n',
    },
    check: ({ facts }) => {
      const p = project(facts, '.', 'jvm');
      assert.equal(p.name, 'com.example:demo');
      assert.deepEqual(p.languages, ['Java']);
      assert.deepEqual(p.tools, ['maven']);
      assert.equal(p.runtime, 'Java 17');
      assert.deepEqual(p.frameworks, [{ name: 'Spring Boot', version: '3.2.5' }]);
      assert.deepEqual(names(p.testRunners), ['JUnit 5 (spring-boot-starter-test)']);
      assert.ok(p.traits.includes('Maven wrapper (mvnw)'));
      assert.deepEqual(facts.structure.testFolders, [{ name: 'src/test', files: 1 }]);
    },
  },
  {
    name: 'Gradle with Kotlin',
    files: {
      'settings.gradle.kts': 'rootProject.name = "ktapp"\n',
      'build.gradle.kts': `plugins {
    kotlin("jvm") version "1.9.23"
    id("org.springframework.boot") version "3.2.5"
    application
}
// testImplementation("junit:junit:4.13.2") is commented out
repositories { maven { url = uri("https://repo.example.com/maven") } }
dependencies {
    implementation("org.springframework.boot:spring-boot-starter")
    testImplementation("org.junit.jupiter:junit-jupiter:5.10.2")
}
kotlin { jvmToolchain(21) }
tasks.test { useJUnitPlatform() }
`,
      gradlew: '#!/bin/sh\n',
      'src/main/kotlin/App.kt': 'fun main() {}\n',
    },
    check: ({ facts }) => {
      const p = project(facts, '.', 'jvm');
      assert.equal(p.name, 'ktapp');
      assert.deepEqual(p.languages, ['Kotlin']);
      assert.deepEqual(p.tools, ['gradle']);
      assert.equal(p.runtime, 'Java 21');
      assert.deepEqual(p.frameworks, [{ name: 'Spring Boot', version: '3.2.5' }]);
      assert.deepEqual(p.testRunners, [{ name: 'JUnit 5', version: '5.10.2' }], 'the commented-out JUnit 4 does not count');
      assert.ok(p.traits.includes('kotlin plugin org.jetbrains.kotlin.jvm 1.9.23'));
      assert.deepEqual(p.manifests, ['build.gradle.kts', 'settings.gradle.kts']);
    },
  },
  {
    name: 'Maven with Quarkus, Gradle with Micronaut and Ktor (other JVM frameworks)',
    files: {
      'svc/pom.xml': `<project><groupId>acme</groupId><artifactId>svc</artifactId>
  <dependencyManagement><dependencies><dependency><groupId>io.quarkus.platform</groupId><artifactId>quarkus-bom</artifactId><version>3.9.2</version></dependency></dependencies></dependencyManagement>
  <dependencies><dependency><groupId>io.quarkus</groupId><artifactId>quarkus-core</artifactId></dependency></dependencies>
</project>
`,
      'svc/src/main/java/App.java': 'class App {}\n',
      'edge/build.gradle.kts':
        'plugins {\n  id("io.micronaut.application") version "4.3.5"\n}\ndependencies {\n  implementation("io.ktor:ktor-server-core:2.3.9")\n}\n',
      'edge/src/main/kotlin/App.kt': 'fun main() {}\n',
    },
    check: ({ facts }) => {
      assert.deepEqual(project(facts, 'svc', 'jvm').frameworks, [{ name: 'Quarkus', version: '3.9.2' }], 'from the BOM and the dependency');
      assert.deepEqual(project(facts, 'edge', 'jvm').frameworks, [
        { name: 'Micronaut', version: '4.3.5' },
        { name: 'Ktor', version: '2.3.9' },
      ]);
    },
  },
  {
    name: '.NET web project with xUnit tests',
    files: {
      'Shop.sln':
        'Microsoft Visual Studio Solution File\nProject("{FAE04EC0}") = "Api", "Api\\Api.csproj", "{1}"\nEndProject\nProject("{FAE04EC0}") = "Api.Tests", "Api.Tests\\Api.Tests.csproj", "{2}"\nEndProject\n',
      'Api/Api.csproj':
        '<Project Sdk="Microsoft.NET.Sdk.Web">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n  </PropertyGroup>\n</Project>\n',
      'Api/Program.cs': 'var app = WebApplication.Create();\n',
      'Api.Tests/Api.Tests.csproj':
        '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup><TargetFrameworks>net8.0;net6.0</TargetFrameworks></PropertyGroup>\n  <ItemGroup>\n    <PackageReference Include="Microsoft.NET.Test.Sdk" Version="17.9.0" />\n    <PackageReference Include="xunit" Version="2.7.0" />\n  </ItemGroup>\n</Project>\n',
    },
    check: ({ facts }, pages) => {
      const api = project(facts, 'Api', 'dotnet');
      assert.equal(api.name, 'Api');
      assert.deepEqual(api.languages, ['C#']);
      assert.equal(api.runtime, 'net8.0');
      assert.deepEqual(names(api.frameworks), ['ASP.NET Core']);
      const tests = project(facts, 'Api.Tests', 'dotnet');
      assert.equal(tests.runtime, 'net6.0, net8.0');
      assert.deepEqual(tests.testRunners, [{ name: 'xUnit', version: '2.7.0' }]);
      assert.deepEqual(facts.structure.workspaces, [{ file: 'Shop.sln', tool: '.NET solution', members: ['Api.Tests/Api.Tests.csproj', 'Api/Api.csproj'] }]);
      assert.ok(facts.structure.entryPoints.some((e) => e.path === 'Api/Program.cs' && e.kind === 'Program.cs'));
      assert.match(pages.stack, /^## `Api`: \.NET \(C#\)$/m);
    },
  },
  {
    name: 'monorepo with several manifests',
    files: {
      'package.json': json({ name: 'mono', private: true, workspaces: ['packages/*'], devDependencies: { typescript: '^5.4.0' } }),
      'yarn.lock': '# yarn\n',
      'packages/web/package.json': json({ name: '@mono/web', dependencies: { next: '14.2.0', react: '18.3.1' } }),
      'packages/web/tsconfig.json': '{ "extends": "../../tsconfig.base.json" }\n',
      'packages/api/package.json': json({ name: '@mono/api', dependencies: { fastify: '^4.26.0' }, devDependencies: { jest: '^29.7.0' } }),
      'packages/api/src/main.js': '\n',
      'services/ml/pyproject.toml':
        '[project]\nname = "ml"\nrequires-python = ">=3.11"\ndependencies = [\n  "flask>=3.0",\n  "numpy",\n]\n\n[build-system]\nrequires = ["hatchling"]\nbuild-backend = "hatchling.build"\n',
      'services/ml/uv.lock': 'version = 1\n',
      'services/gw/go.mod': 'module example.com/gw\n\ngo 1.21\n\nrequire github.com/labstack/echo/v4 v4.11.4\n',
      'services/gw/main.go': 'package main\n',
      'a/b/c/d/package.json': json({ name: 'too-deep', dependencies: { express: '4' } }),
      'test/fixtures/app/package.json': json({ name: 'fixture', dependencies: { koa: '2' } }),
    },
    check: ({ facts }, pages) => {
      assert.deepEqual(
        facts.stack.projects.map((p) => `${p.dir}:${p.ecosystem}`),
        ['.:node', 'packages/api:node', 'packages/web:node', 'services/gw:go', 'services/ml:python'],
      );
      const web = project(facts, 'packages/web');
      assert.deepEqual(web.tools, ['yarn'], 'the lockfile of the workspace root counts');
      assert.deepEqual(web.languages, ['TypeScript']);
      assert.deepEqual(names(web.frameworks), ['React', 'Next.js']);
      const api = project(facts, 'packages/api');
      assert.deepEqual(
        web.traits.filter((t) => t.startsWith('lockfile')),
        ['lockfile: yarn.lock'],
      );
      assert.deepEqual(names(api.frameworks), ['Fastify']);
      assert.deepEqual(names(api.testRunners), ['Jest']);
      const ml = project(facts, 'services/ml');
      assert.equal(ml.name, 'ml');
      assert.deepEqual(ml.tools, ['uv', 'hatch']);
      assert.equal(ml.runtime, 'python >=3.11');
      assert.deepEqual(ml.frameworks, [{ name: 'Flask', version: '>=3.0' }]);
      assert.deepEqual(project(facts, 'services/gw').frameworks, [{ name: 'Echo', version: 'v4.11.4' }]);
      assert.deepEqual(facts.structure.workspaces, [{ file: 'package.json', tool: 'package.json workspaces', members: ['packages/*'] }]);
      assert.ok(
        facts.patterns.lintFormat.some((t) => t.file === 'packages/web/tsconfig.json' && t.detail === 'strict not set here (extends ../../tsconfig.base.json)'),
      );
      assert.match(pages.stack, /^## `packages\/api`: Node\.js \(JavaScript\)$/m);
      assert.match(pages.stack, /^## `services\/ml`: Python$/m);
      assert.match(pages.stack, /^- Languages: TypeScript, JavaScript, Go, Python$/m);
    },
  },
  {
    name: 'workspaces and tooling: pnpm-workspace.yaml, go.work, pre-commit, Lefthook, GitLab CI',
    files: {
      'package.json': json({ name: 'root', private: true, 'lint-staged': { '*.ts': 'biome check' } }),
      'pnpm-workspace.yaml': "packages:\n  - 'apps/*'\n  - 'libs/*'\n",
      'pnpm-lock.yaml': '',
      'apps/site/package.json': json({ name: 'site', dependencies: { vue: '^3.4.0', nuxt: '^3.11.0' } }),
      'go.work': 'go 1.22\n\nuse (\n\t./tools/gen\n\t./tools/lint // the linter\n)\n',
      'tools/gen/go.mod': 'module example.com/gen\n\ngo 1.22\n',
      'tools/lint/go.mod': 'module example.com/lint\n\ngo 1.22\n\nrequire github.com/gofiber/fiber/v2 v2.52.0\n',
      'biome.json': '{}\n',
      '.commitlintrc.json': json({ extends: ['@commitlint/config-angular'] }),
      '.pre-commit-config.yaml':
        'repos:\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: v0.4.0\n    hooks:\n      - id: ruff\n      - id: ruff-format\n',
      'lefthook.yml': 'pre-push:\n  commands:\n    test: { run: pnpm test }\ncolors: false\n',
      '.gitlab-ci.yml': 'stages: [test]\n',
      '.github/workflows/broken.yml': 'name: Nightly\non: [push\n',
    },
    check: ({ facts }) => {
      assert.deepEqual(
        facts.structure.workspaces.map((w) => [w.file, w.tool, w.members]),
        [
          ['go.work', 'go.work', ['./tools/gen', './tools/lint']],
          ['pnpm-workspace.yaml', 'pnpm workspace', ['apps/*', 'libs/*']],
        ],
      );
      const site = project(facts, 'apps/site');
      assert.deepEqual(site.tools, ['pnpm']);
      assert.deepEqual(names(site.frameworks), ['Vue', 'Nuxt']);
      assert.deepEqual(project(facts, 'tools/lint').frameworks, [{ name: 'Fiber', version: 'v2.52.0' }]);
      assert.ok(facts.patterns.lintFormat.some((t) => t.tool === 'Biome' && t.file === 'biome.json'));
      assert.deepEqual(
        facts.patterns.gitHooks.map((t) => [t.tool, t.file, t.detail]),
        [
          ['Lefthook', 'lefthook.yml', 'pre-push'],
          ['lint-staged', 'package.json (lint-staged)', null],
          ['pre-commit', '.pre-commit-config.yaml', 'hooks: ruff, ruff-format'],
        ],
      );
      assert.deepEqual(facts.patterns.commitConventions, [{ tool: 'commitlint', file: '.commitlintrc.json', detail: 'extends @commitlint/config-angular' }]);
      assert.deepEqual(facts.patterns.ci, [
        { system: 'GitHub Actions', file: '.github/workflows/broken.yml', name: 'Nightly' },
        { system: 'GitLab CI', file: '.gitlab-ci.yml', name: null },
      ]);
    },
  },
];

describe('oracle scan: fixture projects', () => {
  for (const c of CASES) {
    test(c.name, async () => {
      const { dir, kb } = await fixture(c.files);
      const before = tip(dir);
      const r = await scanOracle(kb);
      assert.ok(r.commit, 'the first scan commits');
      assert.equal(tip(dir), r.commit);
      assert.equal(git(dir, ['rev-parse', `${r.commit}^`]).trim(), before, 'one commit');
      assert.deepEqual(
        r.pages.map((p) => [p.slug, p.path, p.changed]),
        [
          ['stack', 'oracle/stack.md', true],
          ['structure', 'oracle/structure.md', true],
          ['patterns', 'oracle/patterns.md', true],
        ],
      );
      assert.deepEqual(JSON.parse(JSON.stringify(r.facts)), r.facts, 'facts are plain JSON');
      const pages = { stack: page(dir, 'stack'), structure: page(dir, 'structure'), patterns: page(dir, 'patterns') };
      for (const text of Object.values(pages)) {
        assert.match(
          text,
          /^---\ntitle: (Stack|Structure|Patterns)\n(?:anchors:\n(?: {2}- .+\n)+)?learned_at: [0-9a-f]{40}\nsource: scan\ncreated: 2026-11-01T10:00:00.000Z\nupdated: 2026-11-01T10:00:00.000Z\n---\n/,
        );
        assert.equal(text.split(SCAN_START).length, 2);
        assert.equal(text.split(SCAN_END).length, 2);
      }
      c.check(r, pages);
    });
  }
});

// ---------------------------------------------------------------- writing

describe('oracle scan: commits', () => {
  const NODE = {
    'package.json': json({ name: 'app', dependencies: { express: '^4.19.0' } }),
    'package-lock.json': '{}\n',
    'src/index.js': '\n',
    // text that must come back byte for byte: trailing spaces, tabs, CRLF, a control and a bidi character
    'CLAUDE.md': '# App  \r\n\r\n\tIndented\ttabs   \r\nbell \u0007 and \u202e reversed\r\n---\r\n',
  };

  test('a re-scan of an unchanged tree makes no commit; a changed manifest makes exactly one', async () => {
    let clock = Date.parse('2026-11-01T10:00:00.000Z');
    const { dir, kb } = await fixture(NODE, { now: () => new Date(clock) });
    const first = await scanOracle(kb);
    const bytes = page(dir, 'stack');
    clock += 60_000;
    assert.match(page(dir, 'patterns'), /^> \tIndented\ttabs {3}$/m);
    assert.match(page(dir, 'patterns'), /^> bell \uFFFD and \uFFFD reversed$/m);
    const again = await scanOracle(kb);
    assert.equal(again.commit, null);
    assert.equal(tip(dir), first.commit, 'ref tip unchanged');
    assert.deepEqual(
      again.pages.map((p) => p.changed),
      [false, false, false],
    );
    assert.match(again.text, /Nothing new/);

    writeFiles(dir, { 'package.json': json({ name: 'app', dependencies: { express: '^5.0.0' } }) });
    clock += 60_000;
    const changed = await scanOracle(kb);
    assert.ok(changed.commit);
    assert.equal(git(dir, ['rev-list', '--count', `${first.commit}..${REF}`]).trim(), '1');
    assert.deepEqual(
      changed.pages.map((p) => p.changed),
      [true, false, false],
      'only the stack page says something new',
    );
    const message = git(dir, ['log', '-1', '--format=%B', REF]);
    assert.match(message, /^oracle: scan \(stack\)\n/);
    assert.match(message, /^Axme-Event: oracle\.scanned$/m);
    assert.match(message, /^Axme-Item: oracle\/stack\.md$/m);
    assert.match(message, /^Axme-Actor: agent$/m);
    const stack = page(dir, 'stack');
    assert.notEqual(stack, bytes);
    assert.match(stack, /^created: 2026-11-01T10:00:00.000Z$/m, 'created kept');
    assert.match(stack, /^updated: 2026-11-01T10:02:00.000Z$/m, 'updated on change');
    assert.match(stack, /Express `\^5\.0\.0`/);
    assert.match(page(dir, 'structure'), /^updated: 2026-11-01T10:00:00.000Z$/m, 'an unchanged page keeps its updated');
  });

  test('one more file in a big folder is nothing new; counts are given at the precision a reader needs', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 23; i++) files[`lib/m${i}.js`] = `export const m${i} = ${i};\n`;
    const { dir, kb } = await fixture({ ...NODE, ...files });
    const first = await scanOracle(kb);
    assert.match(page(dir, 'structure'), /`lib\/`: 20\+ files/);
    writeFiles(dir, { 'lib/m23.js': 'export const m23 = 23;\n' });
    const again = await scanOracle(kb);
    assert.equal(again.commit, null, 'no commit for one file more');
    assert.equal(tip(dir), first.commit);
    const { about } = await import('../../src/scan/render.ts');
    const cases: Array<[number, string]> = [
      [0, '0 files'],
      [1, '1 file'],
      [9, '9 files'],
      [10, '10+ files'],
      [57, '50+ files'],
      [100, '100+ files'],
      [999, '900+ files'],
      [1234, '1,200+ files'],
      [56_789, '56,000+ files'],
    ];
    for (const [n, want] of cases) assert.equal(about(n, 'file'), want, String(n));
  });

  test('a dry run computes the pages and commits nothing', async () => {
    const { dir, kb } = await fixture(NODE);
    const before = tip(dir);
    const r = await scanOracle(kb, { dryRun: true });
    assert.equal(r.commit, null);
    assert.equal(r.dryRun, true);
    assert.deepEqual(
      r.pages.map((p) => p.changed),
      [true, true, true],
    );
    assert.equal(tip(dir), before);
    assert.match(r.text, /Dry run: would write oracle\/stack\.md/);
    await scanOracle(kb);
    assert.deepEqual(
      (await scanOracle(kb, { dryRun: true })).pages.map((p) => p.changed),
      [false, false, false],
    );
  });

  test('hand-written text around the markers and pages without markers survive; the glossary is not touched', async () => {
    const { dir, kb } = await fixture(NODE);
    await scanOracle(kb);
    // a person adds text around the generated part of stack.md, writes structure.md without
    // markers (replacing the generated page) and a glossary
    const stack = kb.now().toISOString();
    await mutate(kb, (state) => {
      const s = state.items.oracle.find((p) => p.slug === 'stack')!;
      const files = new Map<string, string>([
        itemFile('oracle', { ...s, title: 'Our stack', body: `Intro written by hand.\n\n${s.body}\n\nFooter written by hand.` }),
        itemFile('oracle', {
          slug: 'structure',
          title: 'Layout',
          body: 'Hand-written layout notes.\n\n- api/: the server',
          created: stack,
          updated: stack,
          extra: { owner: 'team-a' },
        }),
        itemFile('oracle', { slug: 'glossary', title: 'Glossary', body: 'SKU: stock keeping unit', created: stack, updated: stack, extra: {} }),
      ]);
      return { result: null, files, subject: 'oracle: edit by hand', event: 'oracle.edited' };
    });
    const glossary = git(dir, ['rev-parse', `${REF}:oracle/glossary.md`]).trim();
    writeFiles(dir, { 'package.json': json({ name: 'app', dependencies: { express: '^4.19.0', react: '^18.0.0' } }) });
    const r = await scanOracle(kb);
    assert.ok(r.commit);
    const s = page(dir, 'stack');
    assert.match(s, /^title: Our stack$/m);
    assert.ok(s.includes('Intro written by hand.\n\n<!-- axme:scan:start -->'));
    assert.ok(s.includes('<!-- axme:scan:end -->\n\nFooter written by hand.'));
    assert.match(s, /React `\^18\.0\.0`/);
    const st = page(dir, 'structure');
    assert.match(st, /^title: Layout$/m);
    assert.match(st, /^owner: team-a$/m, 'unknown frontmatter kept');
    assert.ok(st.includes('Hand-written layout notes.\n\n- api/: the server\n\n<!-- axme:scan:start -->'), st);
    assert.equal(git(dir, ['rev-parse', `${REF}:oracle/glossary.md`]).trim(), glossary);
    assert.equal((await scanOracle(kb)).commit, null, 'and the next scan finds nothing new');
  });

  test('a page with broken markers is left as it is, the others are written', async () => {
    const { dir, kb } = await fixture(NODE);
    const now = kb.now().toISOString();
    await mutate(kb, () => ({
      result: null,
      files: new Map([itemFile('oracle', { slug: 'patterns', body: `Mine.\n${SCAN_START}\nold`, created: now, updated: now, extra: {} })]),
      subject: 'oracle: by hand',
    }));
    const before = page(dir, 'patterns');
    const r = await scanOracle(kb);
    assert.ok(r.commit);
    const p = r.pages.find((x) => x.slug === 'patterns')!;
    assert.equal(p.changed, false);
    assert.match(p.skipped ?? '', /1 "<!-- axme:scan:start -->" and 0 "<!-- axme:scan:end -->"/);
    assert.equal(page(dir, 'patterns'), before);
    assert.match(r.text, /^Skipped: oracle\/patterns\.md/m);
  });

  test('a page that cannot be parsed is left as it is', async () => {
    const { dir, kb } = await fixture(NODE);
    const broken = '---\ntitle: Stack\ncreated: not a date\n---\n\nWritten by hand, with a broken date.\n';
    await mutate(kb, () => ({ result: null, files: new Map([['oracle/stack.md', broken]]), subject: 'oracle: by hand' }));
    const r = await scanOracle(kb);
    assert.ok(r.commit);
    assert.deepEqual(
      r.pages.map((p) => [p.slug, p.changed]),
      [
        ['stack', false],
        ['structure', true],
        ['patterns', true],
      ],
    );
    assert.match(r.pages[0]!.skipped ?? '', /^oracle\/stack\.md is left as it is: .*created/);
    assert.equal(page(dir, 'stack'), broken);
  });

  test('a broken package.json gives a note and the scan still succeeds', async () => {
    const { dir, kb } = await fixture({
      'package.json': '{ "name": "broken", }\n',
      'packages/ok/package.json': json({ name: 'ok' }),
      'packages/ok/package-lock.json': '{}',
    });
    const r = await scanOracle(kb);
    assert.ok(r.commit);
    assert.deepEqual(
      r.facts.stack.projects.map((p) => p.dir),
      ['packages/ok'],
    );
    assert.equal(r.facts.notes.length, 1);
    assert.match(r.facts.notes[0]!, /^`package\.json` is not valid JSON \(.+\): skipped$/);
    assert.match(page(dir, 'stack'), /^## Notes\n\n- `package\.json` is not valid JSON/m);
    assert.match(r.text, /^Note: `package\.json` is not valid JSON/m);
  });

  test('a bare repository gives a clear error', async () => {
    const { dir, cleanup } = tempRepo({ bare: true });
    cleanups.push(cleanup);
    const kb = await openTestKb(dir);
    kbs.push(kb);
    await initStore(kb);
    await assert.rejects(scanOracle(kb), (err: unknown) => {
      assert.ok(isAxmeError(err, 'INVALID_INPUT'), String(err));
      assert.match(err.message, /is bare .*needs a working tree/);
      return true;
    });
  });

  test('the store must exist', async () => {
    const { dir, cleanup } = tempRepo();
    cleanups.push(cleanup);
    writeFiles(dir, NODE);
    const kb = await openTestKb(dir);
    kbs.push(kb);
    await assert.rejects(scanOracle(kb), (err: unknown) => isAxmeError(err, 'NOT_INITIALIZED'));
    const dry = await scanOracle(kb, { dryRun: true });
    assert.equal(dry.commit, null);
    assert.deepEqual(
      dry.pages.map((p) => p.changed),
      [true, true, true],
    );
  });
});

// ---------------------------------------------------------------- the file listing and reader

describe('oracle scan: files', () => {
  test('ignored files, skipped folders and .git content are not listed; untracked files are', async () => {
    const { dir, kb } = await fixture(
      {
        '.gitignore': 'secret.txt\nlogs/\n',
        'package.json': json({ name: 'app' }),
        'src/a.js': '\n',
        'node_modules/dep/package.json': json({ name: 'dep', dependencies: { express: '4' } }),
      },
      { commit: false },
    );
    git(dir, ['add', '.gitignore', 'package.json', 'src/a.js']);
    git(dir, ['add', '-f', 'node_modules/dep/package.json']); // a committed dependency is still skipped
    git(dir, ['commit', '-q', '-m', 'tracked']);
    writeFiles(dir, {
      'secret.txt': 'x\n',
      'logs/a.log': 'x\n',
      'dist/bundle.js': '\n',
      'src/new.js': '\n',
      '.idea/workspace.xml': '<x/>\n',
      'sub/inner.txt': '',
    });
    git(join(dir, 'sub'), ['init', '-q']); // an untracked nested repository
    const all = await listWorktreeFiles(kb.repo);
    assert.ok(all.files.includes('node_modules/dep/package.json'), 'the listing itself is what git lists');
    assert.ok(all.files.includes('dist/bundle.js'));
    assert.ok(!all.files.some((f) => f === 'secret.txt' || f.startsWith('logs/') || f.startsWith('.git/') || f.startsWith('sub')));
    const scanned = await listWorktreeFiles(kb.repo, { exclude: isSkipped });
    assert.deepEqual(scanned.files, ['.gitignore', 'package.json', 'src/a.js', 'src/new.js']);
    assert.equal(scanned.root, realpathSync(dir));
    const r = await scanOracle(kb);
    assert.deepEqual(
      r.facts.stack.projects.map((p) => p.name),
      ['app'],
    );
    assert.deepEqual(r.facts.structure.topFolders, [{ name: 'src', files: 2 }]);
  });

  test('the listing is bounded and says so', async () => {
    const files: Files = { 'package.json': json({ name: 'app' }) };
    for (let i = 0; i < 5; i++) files[`src/f${i}.js`] = '\n';
    const { kb } = await fixture(files);
    const r = await scanOracle(kb, { maxFiles: 3 });
    assert.equal(r.truncated, true);
    assert.equal(r.facts.structure.totalFiles, 3);
    assert.deepEqual(r.facts.notes, ['the file list stopped at 3 of 6 files: the facts come from the first 3 by path']);
    assert.match(r.text, /Note: the file list stopped at 3 of 6 files/);
  });

  test('works from a subfolder and from a linked worktree', async () => {
    const { dir, kb } = await fixture({ 'go.mod': 'module example.com/x\n\ngo 1.22\n', 'pkg/a/a.go': 'package a\n' });
    const sub = await openTestKb(join(dir, 'pkg', 'a'));
    kbs.push(sub);
    const r = await scanOracle(sub);
    assert.equal(r.root, realpathSync(dir));
    assert.deepEqual(
      r.facts.stack.projects.map((p) => p.name),
      ['example.com/x'],
    );
    const wt = join(mkdtempSync(join(tmpdir(), 'axme-wt-')), 'linked');
    cleanups.push(() => rmSync(dirname(wt), { recursive: true, force: true }));
    git(dir, ['worktree', 'add', '-q', wt]);
    writeFiles(wt, { 'go.mod': 'module example.com/linked\n\ngo 1.22\n' });
    const linked = await openTestKb(wt);
    kbs.push(linked);
    const l = await scanOracle(linked, { dryRun: true });
    assert.equal(l.root, realpathSync(wt));
    assert.deepEqual(
      l.facts.stack.projects.map((p) => p.name),
      ['example.com/linked'],
    );
    assert.equal(kb.ref, REF);
  });

  test('agent instructions: the axme block is left out, credentials are redacted, excerpts are bounded', () => {
    const text = `Intro\n<!-- axme:start -->\nmanaged\n<!-- axme:end -->\nDB_PASSWORD=hunter2hunter2\n${'word '.repeat(400)}`;
    const [a] = agentExcerpts({ files: ['CLAUDE.md'], read: () => text });
    assert.ok(a);
    assert.ok(!a.excerpt.includes('managed'));
    assert.ok(!a.excerpt.includes('hunter2'));
    assert.match(a.excerpt, /^Intro\n\[redacted: /);
    assert.equal(a.truncated, true);
    assert.ok(a.excerpt.length <= EXCERPT_CHARS);
    assert.equal(withoutAxmeBlock('a\n<!-- axme:start -->\nb'), 'a', 'a start without an end drops the rest');
  });

  test('the reader stays inside the tree and reads text only, within its bound', () => {
    const root = mkdtempSync(join(tmpdir(), 'axme-read-'));
    const outside = mkdtempSync(join(tmpdir(), 'axme-outside-'));
    cleanups.push(
      () => rmSync(root, { recursive: true, force: true }),
      () => rmSync(outside, { recursive: true, force: true }),
    );
    writeFiles(root, { 'a.txt': '\uFEFFhello\n', 'big.txt': 'x'.repeat(2000), 'd/b.txt': 'inner' });
    writeFileSync(join(root, 'bin.dat'), Buffer.from([0x68, 0x00, 0x69]));
    writeFileSync(join(outside, 'secret.txt'), 'outside');
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link-out.txt'));
    symlinkSync(outside, join(root, 'dir-out'));
    symlinkSync('d/b.txt', join(root, 'link-in.txt'));
    const cases: Array<[string, string | null]> = [
      ['a.txt', 'hello\n'],
      ['d/b.txt', 'inner'],
      ['link-in.txt', 'inner'],
      ['big.txt', null],
      ['bin.dat', null],
      ['link-out.txt', null],
      ['dir-out/secret.txt', null],
      ['../' + outside.split('/').pop() + '/secret.txt', null],
      [join(outside, 'secret.txt'), null],
      ['d', null],
      ['missing.txt', null],
    ];
    for (const [path, want] of cases) assert.equal(readWorktreeFile(root, path, { maxBytes: 1000 }), want, path);
  });
});

describe('oracle scan: TOML reader', () => {
  const cases: Array<[string, string, string, unknown]> = [
    ['dotted keys', 'a.b = 1\n[t]\nc.d = "x"', 't.c.d', 'x'],
    ['inline tables', 'x = { version = "1.0", features = ["a", "b"] }', 'x.version', '1.0'],
    ['multi-line arrays with comments', 'm = [\n  "a", # one\n  "b",\n]\n', 'm', ['a', 'b']],
    ['literal strings', "p = 'C:\\path'", 'p', 'C:\\path'],
    ['escapes', 'e = "a\\tb\\u00e9"', 'e', 'a\tbé'],
    ['multi-line strings with brackets', 'd = """x\n[not.a.table]\n"""\nafter = true', 'after', true],
    ['array tables', '[[bin]]\nname = "a"\n[[bin]]\nname = "b"', 'bin', [{ name: 'a' }, { name: 'b' }]],
  ];
  for (const [name, text, path, want] of cases) {
    test(name, () => {
      const doc = parseToml(text);
      assert.equal(doc.error, null);
      assert.deepEqual(JSON.parse(JSON.stringify(tomlGet(doc.root, path) ?? null)), want ?? null);
    });
  }

  test('quoted keys keep their dots', () => {
    const doc = parseToml('[tool."quoted.key"]\nv = 2');
    assert.equal(doc.error, null);
    assert.equal(tomlGet(doc.root.tool as TomlTable, 'quoted.key'), undefined);
    assert.deepEqual({ ...((doc.root.tool as TomlTable)['quoted.key'] as TomlTable) }, { v: 2 });
  });

  test('a broken line is reported and the rest is read', () => {
    const doc = parseToml('[project]\nname = "ok"\nbroken = \nversion = "1"\n');
    assert.match(doc.error ?? '', /^line 3: expected a value$/);
    assert.equal(tomlGet(doc.root, 'project.version'), '1');
  });
});

describe('the scan through the surfaces', () => {
  test('axme init scans a store without pages; an empty working tree gets no oracle commit; --no-scan skips; --scan rescans; axme oracle scan --json', async () => {
    // the built binary for the first init and the last scan (the process prints the answer); the
    // command lines between run in-process by the CLI's entry (axmeIn): the same parsing and handler
    const { dir, cleanup } = tempRepo({ commit: true });
    try {
      const empty = await axmeOk(dir, ['init', '--no-claude', '--no-git-hooks', '--json']);
      assert.equal(empty.oracle.commit, null, 'nothing to say about an empty tree');
      assert.equal(git(dir, ['rev-list', '--count', REF]).trim(), '1');

      writeFiles(dir, { 'go.mod': 'module example.com/svc\n\ngo 1.22\n', 'main.go': 'package main\nfunc main() {}\n' });
      const skipped = await axmeInOk(dir, ['init', '--no-claude', '--no-git-hooks', '--no-scan', '--json']);
      assert.equal(skipped.oracle, null);
      const scanned = await axmeInOk(dir, ['init', '--no-claude', '--no-git-hooks', '--json']);
      assert.ok(scanned.oracle.commit, 'init scans the project');
      assert.match(git(dir, ['show', `${REF}:oracle/stack.md`]), /example\.com\/svc/);
      // init's own files (.mcp.json, CLAUDE.md, .claude/) are not news to the next scan
      await initCore(dir, { claude: true, scan: 'if-new' });
      const rerun = await axmeInOk(dir, ['init', '--no-git-hooks', '--scan', '--json']);
      assert.equal(rerun.oracle.commit, null);
      // once the store has the pages, a plain init leaves them alone (axme oracle scan or --scan refreshes them)
      const kept = await axmeInOk(dir, ['init', '--no-git-hooks', '--json']);
      assert.equal(kept.oracle, null);

      const dry = await axmeInOk(dir, ['oracle', 'scan', '--dry-run', '--json']);
      assert.equal(dry.commit, null);
      assert.equal(dry.dryRun, true);
      writeFiles(dir, { 'Cargo.toml': '[package]\nname = "tool"\nedition = "2021"\n' });
      const again = await axmeInOk(dir, ['oracle', 'scan', '--json']);
      assert.ok(again.commit);
      assert.deepEqual(
        again.pages.filter((p: { changed: boolean }) => p.changed).map((p: { slug: string }) => p.slug),
        ['stack'],
      );
      const text = await axmeOk(dir, ['oracle', 'scan']);
      assert.match(text, /Nothing new: the oracle pages already say this; no commit\./);
    } finally {
      cleanup();
    }
  });
});

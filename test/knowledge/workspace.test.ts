import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { itemFile } from '../../src/knowledge/core/item-file.ts';
import { closeKnowledgeBase, openKnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { mutate } from '../../src/knowledge/core/mutate.ts';
import { detectWorkspace } from '../../src/knowledge/workspace/detect-workspace.ts';
import { OraclePage } from '../../src/model/oracle.ts';
import { DEFAULT_RULES } from '../../src/model/safety-defaults.ts';
import { mergeRules } from '../../src/model/safety-merge.ts';
import { backlogAdd } from '../../src/operations/backlog/writes.ts';
import { context } from '../../src/operations/context.ts';
import { decisionAdd } from '../../src/operations/decision/add.ts';
import { decisionList } from '../../src/operations/decision/list.ts';
import { decisionShow } from '../../src/operations/decision/reads.ts';
import { memoryAdd } from '../../src/operations/memory/add.ts';
import { memoryList } from '../../src/operations/memory/list.ts';
import { safetyAdd, safetyRemove, safetySet } from '../../src/operations/safety/edits.ts';
import { safetyShow } from '../../src/operations/safety/reads.ts';
import { search } from '../../src/operations/search.ts';
import { workspace } from '../../src/operations/workspace.ts';
import { exitCodeOf, rejectsWith } from '../core.ts';
import { axme, axmeOk, CLI, type CliResult, cleanEnv, git } from '../helpers.ts';
import { hookBinary, hookInProcess } from '../hooks/hook-in-process.ts';
import { cliJson, cliText, makeStore } from '../store-fixture.ts';

const REPOS = ['api', 'lib', 'web'];
const MARK = '#!axme pr=none repo=acme/app';

/** A folder with one git repository per name (identity set, one commit each); not initialised. */
function tempFolderOfRepos(names: string[]): { root: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'axme-ws-'));
  for (const n of names) gitRepo(join(root, n));
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }) };
}

function gitRepo(dir: string): void {
  mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['config', 'user.name', 'Test User']);
  git(dir, ['config', 'user.email', 'test@example.com']);
  git(dir, ['commit', '-q', '--allow-empty', '-m', 'first']);
}

/** The tip of refs/memory/main in a repository (or the workspace store), '' when absent. */
function tip(gitDir: string): string {
  try {
    return git(gitDir, ['rev-parse', '--verify', '--quiet', 'refs/memory/main']).trim();
  } catch {
    return '';
  }
}

/** The item files (decisions/, memories/, backlog/) in a store's tip. */
function itemsIn(gitDir: string): string[] {
  return git(gitDir, ['ls-tree', '-r', '--name-only', 'refs/memory/main'])
    .split('\n')
    .filter((p) => /^(decisions|memories|backlog)\//.test(p));
}

/** `axme hook <event>`: through the built binary, or in-process (the same code, without a process per call). */
function hook(cwd: string, event: string, input: string, opts: { env?: NodeJS.ProcessEnv; binary?: boolean } = {}): Promise<CliResult> {
  return opts.binary ? hookBinary(event, { cwd, input, env: opts.env }) : hookInProcess(event, { cwd, input, env: opts.env, harnessHere: true });
}

/** `axme hook pre-tool-use` for a Bash command run in `cwd` (in-process unless `binary`): denied or not, and stderr. */
async function hookBash(
  cwd: string,
  command: string,
  env: NodeJS.ProcessEnv = {},
  opts: { binary?: boolean } = {},
): Promise<{ denied: boolean; reason: string; stderr: string }> {
  const input = JSON.stringify({
    session_id: 's1',
    transcript_path: '/tmp/t.jsonl',
    cwd,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
  });
  const r = await hook(cwd, 'pre-tool-use', input, { env, ...opts });
  assert.equal(r.code, 0, r.stderr);
  if (r.stdout.trim() === '') return { denied: false, reason: '', stderr: r.stderr };
  const out = JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
  assert.equal(out.hookSpecificOutput.permissionDecision, 'deny');
  return { denied: true, reason: out.hookSpecificOutput.permissionDecisionReason, stderr: r.stderr };
}

describe('workspace detection', () => {
  let base: string;
  before(() => {
    base = mkdtempSync(join(tmpdir(), 'axme-detect-'));
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  // [case, files to write, git repositories to create, expected isWorkspace, marker pattern, members]
  const cases: Array<[string, Record<string, string>, string[], boolean, RegExp | null, string[], { force?: boolean; ownRepo?: boolean }?]> = [
    [
      'VS Code workspace (JSONC, relative paths, outside and non-repo folders dropped)',
      { 'team.code-workspace': '{\n // comment\n "folders": [{"path": "svc-a"}, {"path": "./svc-b/"}, {"path": "docs"}, {"path": "../elsewhere"},],\n}' },
      ['svc-a', 'svc-b'],
      true,
      /VS Code workspace \(team\.code-workspace\)/,
      ['svc-a', 'svc-b'],
    ],
    [
      'npm workspaces (only git repositories are members)',
      { 'package.json': '{"workspaces": ["packages/*"]}', 'packages/plain/package.json': '{}' },
      ['packages/a', 'packages/b'],
      true,
      /npm workspaces/,
      ['packages/a', 'packages/b'],
    ],
    ['yarn workspaces object form', { 'package.json': '{"workspaces": {"packages": ["apps/*"]}}' }, ['apps/site'], true, /npm workspaces/, ['apps/site']],
    [
      'pnpm-workspace.yaml with ** and a negation',
      { 'pnpm-workspace.yaml': "packages:\n  - 'libs/**'\n  - '!libs/skip'\n" },
      ['libs/core', 'libs/group/deep', 'libs/skip'],
      true,
      /pnpm workspace/,
      ['libs/core', 'libs/group/deep'],
    ],
    ['lerna.json (default packages/*)', { 'lerna.json': '{"version": "1.0.0"}' }, ['packages/one'], true, /lerna/, ['packages/one']],
    ['nx.json (apps and libs)', { 'nx.json': '{}' }, ['apps/web', 'libs/ui'], true, /nx/, ['apps/web', 'libs/ui']],
    ['git submodules', { '.gitmodules': '[submodule "one"]\n\tpath = mods/one\n\turl = ../one.git\n' }, ['mods/one'], true, /git submodules/, ['mods/one']],
    ['two child repositories, no manifest', {}, ['x', 'y'], true, /2 child repositories/, ['x', 'y']],
    ['one child repository is not a workspace', {}, ['x'], false, null, ['x']],
    ['nothing at all', { 'README.md': 'hi' }, [], false, null, []],
    [
      'a folder with its own .git is a single project (monorepo)',
      { 'package.json': '{"workspaces": ["packages/*"]}' },
      ['packages/a', 'packages/b'],
      false,
      /npm workspaces/,
      ['packages/a', 'packages/b'],
      { ownRepo: true },
    ],
    [
      '... unless forced',
      { 'package.json': '{"workspaces": ["packages/*"]}' },
      ['packages/a'],
      true,
      /npm workspaces/,
      ['packages/a'],
      { ownRepo: true, force: true },
    ],
  ];
  for (const [name, files, repos, isWorkspace, marker, members, opts] of cases) {
    test(name, () => {
      const dir = mkdtempSync(join(base, 'case-'));
      if (opts?.ownRepo) git(dir, ['init', '-q']);
      for (const r of repos) {
        mkdirSync(join(dir, r), { recursive: true });
        // a submodule's .git is a file pointing into the superproject; others are folders
        if (r.startsWith('mods/')) writeFileSync(join(dir, r, '.git'), 'gitdir: ../../.git/modules/one\n');
        else git(join(dir, r), ['init', '-q']);
      }
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(dir, path, '..'), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      const d = detectWorkspace({ dir, force: opts?.force });
      assert.equal(d.isWorkspace, isWorkspace, d.reason);
      assert.equal(d.ownRepo, !!opts?.ownRepo);
      if (marker) assert.match(d.markers.join('; '), marker);
      else assert.equal(d.markers.length, 0, d.markers.join('; '));
      assert.deepEqual(
        d.members.map((m) => m.name),
        members,
      );
      assert.deepEqual(
        d.members.map((m) => m.path),
        members.map((m) => join(dir, m)),
      );
    });
  }
});

describe('mergeRules: never less strict than either side', () => {
  test('deny lists union, allow flags AND, require flags OR, allowed prefixes need both, enums take the stricter', () => {
    const a = structuredClone(DEFAULT_RULES);
    const b = structuredClone(DEFAULT_RULES);
    a.git.allowForcePush = true;
    a.git.requirePrForMain = false;
    b.git.requirePrForMain = false;
    b.git.protectedBranches = ['release'];
    a.bash.deniedPrefixes = ['make deploy'];
    a.bash.allowedPrefixes = ['git push --force-with-lease', 'npm publish --dry-run'];
    b.bash.allowedPrefixes = ['npm publish --dry-run'];
    b.filesystem.readOnlyPaths = ['docs/'];
    a.git.requireAxmeSuffix = 'always';
    b.git.enforceFor = 'everyone';
    b.github.unverifiedPr = 'allow';
    const m = mergeRules(a, b);
    assert.deepEqual(m.git.protectedBranches, ['main', 'master', 'release']);
    assert.equal(m.git.allowForcePush, false);
    assert.equal(mergeRules({ ...a, git: { ...a.git } }, { ...b, git: { ...b.git, allowForcePush: true } }).git.allowForcePush, true);
    assert.equal(m.git.requirePrForMain, false);
    assert.equal(mergeRules(a, DEFAULT_RULES).git.requirePrForMain, true);
    assert.deepEqual(m.bash.deniedPrefixes, ['make deploy', ...DEFAULT_RULES.bash.deniedPrefixes]);
    assert.deepEqual(m.bash.allowedPrefixes, ['npm publish --dry-run']);
    assert.deepEqual(m.filesystem.readOnlyPaths, ['docs/']);
    assert.equal(m.git.requireAxmeSuffix, 'always');
    assert.equal(m.git.enforceFor, 'everyone');
    assert.equal(m.github.unverifiedPr, 'deny');
  });
});

describe('a workspace of three repositories', () => {
  let root: string;
  let cleanup: () => void;
  let store: string;
  const repo = (n: string) => join(root, n);
  before(async () => {
    ({ root, cleanup } = tempFolderOfRepos(REPOS));
    store = join(root, '.axme.git');
  });
  after(() => cleanup());

  test('axme init without --workspace in the folder says to add it; --workspace creates the store and initialises every repository', async () => {
    const plain = await axme(root, ['init']);
    assert.equal(plain.code, 2);
    assert.match(plain.stderr, /is a workspace folder, not a repository: run `axme init --workspace`/);
    assert.equal(existsSync(store), false);

    const r = await axmeOk(root, ['init', '--workspace', '--no-claude', '--no-git-hooks', '--no-scan', '--json']);
    assert.equal(r.workspace.store, store);
    assert.equal(r.workspace.created, true);
    assert.deepEqual(r.workspace.markers, ['3 child repositories']);
    assert.deepEqual(
      r.repos.map((x: { name: string; created: boolean }) => [x.name, x.created]),
      REPOS.map((n) => [n, true]),
    );
    assert.equal(git(store, ['rev-parse', '--is-bare-repository']).trim(), 'true');
    assert.match(git(store, ['show', 'refs/memory/main:axme.yaml']), /kind: workspace/);
    for (const n of REPOS) {
      assert.match(git(repo(n), ['show', 'refs/memory/main:axme.yaml']), /kind: repo/);
      // --no-claude and --no-git-hooks mean the same for members as for one repository
      assert.equal(existsSync(join(repo(n), '.claude')), false);
      assert.equal(existsSync(join(repo(n), '.git', 'hooks', 'commit-msg')), false);
    }
    const again = await axmeOk(root, ['init', '--workspace', '--no-claude', '--no-git-hooks', '--no-scan']);
    assert.match(again, /axme workspace store already initialized/);
    assert.match(again, /3 of 3 repositories initialized \(api, lib, web\)/);
  });

  test('writes route by scope: none or all -> the session store; [repo, ...] -> each named repository', async () => {
    const inWs = await cliJson(root, decisionAdd, { title: 'Use pnpm everywhere', decision: 'Every repository installs with pnpm.', enforce: 'required' });
    assert.equal(inWs.store, store);
    assert.equal(inWs.location, `refs/memory/main:decisions/use-pnpm-everywhere.md in ${store}`);
    await cliText(root, decisionAdd, { title: 'Log in JSON', decision: 'Structured logs only.' });
    const scoped = await cliJson(root, decisionAdd, { title: 'HTTP handlers use Fastify', decision: 'Fastify, not Express.', scope: 'api,web' });
    assert.deepEqual([scoped.store, ...scoped.others.map((o: { store: string }) => o.store)], [repo('api'), repo('web')]);
    const own = await cliJson(repo('lib'), memoryAdd, { type: 'feedback', title: 'Small PRs', description: 'Keep PRs small.' });
    assert.equal(own.store, undefined);
    assert.equal(own.location, 'refs/memory/main:memories/small-prs.md');
    await cliText(repo('lib'), memoryAdd, { type: 'pattern', title: 'Barrel files', description: 'index.ts re-exports.', scope: 'all' });
    const cross = await cliText(repo('api'), backlogAdd, { title: 'Adopt the new client', scope: 'web' });
    assert.match(cross, new RegExp(`Backlog item created: B-001 - Adopt the new client \\(medium\\) in ${repo('web')}`));

    assert.deepEqual(itemsIn(store), ['decisions/log-in-json.md', 'decisions/use-pnpm-everywhere.md']);
    assert.deepEqual(itemsIn(repo('api')), ['decisions/http-handlers-use-fastify.md']);
    assert.deepEqual(itemsIn(repo('web')), ['backlog/adopt-the-new-client.md', 'decisions/http-handlers-use-fastify.md']);
    assert.deepEqual(itemsIn(repo('lib')), ['memories/barrel-files.md', 'memories/small-prs.md']);

    // an unknown repository: a usage error naming the members, nothing written anywhere
    const tips = [store, ...REPOS.map(repo)].map(tip);
    const bad = await rejectsWith(
      cliJson(repo('lib'), decisionAdd, { title: 'Nope', decision: 'x', scope: 'api,mobile' }),
      'INVALID_INPUT',
      /scope names "mobile", which is not a repository of the workspace .*: use "all" or some of api, lib, web/,
    );
    assert.equal(exitCodeOf(bad), 2);
    assert.deepEqual([store, ...REPOS.map(repo)].map(tip), tips);
  });

  test('merged reads: both lists, workspace items marked; the repository wins on the same slug, a shared display ID hides nothing', async () => {
    const lib = await cliJson(repo('lib'), decisionList);
    assert.deepEqual(
      lib.map((d: { id: string; slug: string; store?: string }) => [d.id, d.slug, d.store]),
      [
        ['D-001', 'use-pnpm-everywhere', store],
        ['D-002', 'log-in-json', store],
      ],
    );
    assert.match(await cliText(repo('lib'), decisionList), /^D-001 {2}required {2}Use pnpm everywhere {2}\(use-pnpm-everywhere\) {2}\[workspace\]$/m);
    // web's own D-001 (Fastify) and the workspace's D-001 are different decisions that share a
    // number (each store numbers its own): both are listed; by ID, web's own is found first
    const web = await cliJson(repo('web'), decisionList);
    assert.deepEqual(
      web.map((d: { id: string; slug: string; store?: string }) => [d.id, d.slug, d.store ?? 'own']),
      [
        ['D-001', 'http-handlers-use-fastify', 'own'],
        ['D-001', 'use-pnpm-everywhere', store],
        ['D-002', 'log-in-json', store],
      ],
    );
    assert.equal((await cliJson(repo('web'), decisionShow, { id_or_slug: 'D-001' })).slug, 'http-handlers-use-fastify');
    assert.equal((await cliJson(repo('web'), decisionShow, { id_or_slug: 'use-pnpm-everywhere' })).store, store, 'the workspace one by its slug');
    assert.match(
      await cliText(repo('web'), context),
      /- use-pnpm-everywhere Use pnpm everywhere \[workspace\]: Every repository installs with pnpm\./,
      'a required workspace decision reaches every repository',
    );
    // same slug: lib's own decision replaces the workspace's
    await cliText(repo('lib'), decisionAdd, { title: 'Use pnpm everywhere', decision: 'lib pins pnpm 9.', enforce: 'advisory' });
    const shown = await cliJson(repo('lib'), decisionShow, { id_or_slug: 'use-pnpm-everywhere' });
    assert.equal(shown.decision, 'lib pins pnpm 9.');
    assert.equal(shown.store, undefined);
    const after = await cliJson(repo('lib'), decisionList);
    assert.deepEqual(
      after.map((d: { slug: string; store?: string }) => [d.slug, d.store ?? 'own']),
      [
        ['use-pnpm-everywhere', 'own'],
        ['log-in-json', store],
      ],
    );
    // a workspace item, shown from a repository, names the workspace store
    const ws = await cliJson(repo('api'), decisionShow, { id_or_slug: 'log-in-json' });
    assert.equal(ws.location, `refs/memory/main:decisions/log-in-json.md in ${store}`);
    assert.equal(ws.store, store);
    // memories: same slug -> the repository's
    await cliText(root, memoryAdd, { type: 'feedback', title: 'Small PRs', description: 'Workspace says: under 300 lines.' });
    await cliText(root, memoryAdd, { type: 'feedback', title: 'Ask before renaming', description: 'Names are shared across repos.' });
    const mems = await cliJson(repo('lib'), memoryList);
    assert.deepEqual(mems.map((m: { slug: string; description: string; store?: string }) => [m.slug, m.store ?? 'own']).sort(), [
      ['ask-before-renaming', store],
      ['barrel-files', 'own'],
      ['small-prs', 'own'],
    ]);
    assert.equal(mems.find((m: { slug: string }) => m.slug === 'small-prs').description, 'Keep PRs small.');
    // search cites the workspace store for its items
    const hits = await cliJson(repo('api'), search, { query: 'structured logs' });
    assert.equal(hits.hits[0].slug, 'log-in-json');
    assert.equal(hits.hits[0].store, store);
    assert.match(hits.hits[0].citation, new RegExp(`^git:${tip(store)}:decisions/log-in-json\\.md \\(in ${store}\\)$`));
    // the workspace folder itself reads the workspace store only
    const inRoot = await cliJson(root, decisionList);
    assert.deepEqual(
      inRoot.map((d: { slug: string }) => d.slug),
      ['use-pnpm-everywhere', 'log-in-json'],
    );
  });

  test('a deny added in the workspace blocks in every repository, through the real hook; the cache follows the workspace tip', async () => {
    const outside = await makeStore();
    try {
      for (const n of REPOS) assert.equal((await hookBash(repo(n), 'make deploy-prod')).denied, false, n);
      // the allowed answers above were cached, keyed by both tips
      const key = () => (JSON.parse(readFileSync(join(repo('lib'), '.git', 'axme', 'policy.json'), 'utf8')) as { key: string }).key;
      assert.match(key(), new RegExp(`workspace ${store} refs/memory/main=${tip(store)}$`));
      const before = tip(store);
      await cliText(root, safetyAdd, { rule_type: 'bash_deny', value: 'make deploy-prod' });
      assert.notEqual(tip(store), before);
      for (const n of REPOS) {
        // the first through the built binary: the deny a real hook process prints
        const d = await hookBash(repo(n), 'make deploy-prod --yes', {}, { binary: n === REPOS[0] });
        assert.equal(d.denied, true, n);
        assert.match(d.reason, /make deploy-prod/);
      }
      assert.match(key(), new RegExp(`workspace ${store} refs/memory/main=${tip(store)}$`));
      // in the workspace folder itself, and not outside the workspace
      assert.equal((await hookBash(root, 'make deploy-prod')).denied, true);
      assert.equal((await hookBash(outside.dir, 'make deploy-prod')).denied, false);
      // the workspace folder keeps its compiled policy too: keyed by the workspace store's tip alone, and reused
      const wsCache = join(store, 'axme', 'policy.json');
      assert.match((JSON.parse(readFileSync(wsCache, 'utf8')) as { key: string }).key, new RegExp(`refs/memory/main=${tip(store)}$`));
      const written = statSync(wsCache).mtimeMs;
      assert.equal((await hookBash(root, 'make deploy-prod --now')).denied, true);
      assert.equal(statSync(wsCache).mtimeMs, written, 'a cache hit, not a compile, in the workspace folder');
      // a git hook or a shell with GIT_DIR set (alone, as git sets it for hooks of linked worktrees, or with the work tree) still gets the workspace rules
      for (const env of [{ GIT_DIR: join(repo('web'), '.git') }, { GIT_DIR: join(repo('web'), '.git'), GIT_WORK_TREE: repo('web') }]) {
        rmSync(join(repo('web'), '.git', 'axme', 'policy.json'), { force: true });
        const d = await hookBash(repo('web'), 'make deploy-prod', env);
        assert.equal(d.denied, true, JSON.stringify(env));
        assert.doesNotMatch(d.stderr, /kind: repo/, 'the member was not taken for the workspace store');
      }
      // axme safety show in a repository shows the rules in force
      const shown = await cliJson(repo('api'), safetyShow);
      assert.ok(shown.bash.deniedPrefixes.includes('make deploy-prod'));
    } finally {
      outside.cleanup();
    }
  });

  test('a force push needs both stores to allow it', async () => {
    const push = `git push --force origin feature ${MARK}`;
    assert.equal((await hookBash(repo('lib'), push)).denied, true);
    await cliText(repo('lib'), safetySet, { key: 'git.allowForcePush', value: 'true' });
    const onlyRepo = await hookBash(repo('lib'), push);
    assert.equal(onlyRepo.denied, true, 'the workspace still denies force pushes');
    assert.match(onlyRepo.reason, /force/i);
    await cliText(root, safetySet, { key: 'git.allowForcePush', value: 'true' });
    assert.equal((await hookBash(repo('lib'), push)).denied, false, 'both allow it');
    assert.equal((await hookBash(repo('api'), push)).denied, true, 'api does not allow it');
    await cliText(root, safetySet, { key: 'git.allowForcePush', value: 'false' });
    assert.equal((await hookBash(repo('lib'), push)).denied, true, 'the workspace took it back');
  });

  test('a broken workspace store: the default rules stand in for it, with a warning; never fail open', async () => {
    // a person removes a rule; an agent adds one
    await cliText(repo('web'), safetyRemove, { rule_type: 'bash_deny', value: 'npm publish' }, { actor: 'human' });
    await cliText(repo('web'), safetyAdd, { rule_type: 'bash_deny', value: 'make web-only' }, { actor: 'agent' });
    assert.equal((await hookBash(repo('web'), 'npm publish')).denied, true, 'the workspace keeps denying npm publish');
    const good = tip(store);
    const ref = join(store, 'refs', 'memory', 'main');
    writeFileSync(ref, `${'1234567890'.repeat(4)}\n`);
    try {
      const d = await hookBash(repo('web'), 'npm publish');
      assert.equal(d.denied, true, 'defaults apply for the unreadable workspace store');
      assert.match(d.stderr, /workspace store .*could not be read/);
      assert.equal((await hookBash(repo('web'), 'make web-only')).denied, true, "the repository's own rules still apply");
      const list = await axme(repo('web'), ['decision', 'list']);
      assert.equal(list.code, 0);
      assert.match(list.stdout, /http-handlers-use-fastify/);
      assert.match(list.stderr, /could not be read/);
    } finally {
      writeFileSync(ref, `${good}\n`);
    }
    assert.equal((await hookBash(repo('web'), 'npm publish')).denied, true);
  });

  test('oracle pages of both stores, labelled Workspace and Project; axme_workspace and scoped saves over MCP', async () => {
    for (const [dir, body] of [
      [store, 'A *service* is one repository of this workspace.'],
      [repo('lib'), 'lib: the shared TypeScript library.'],
    ] as const) {
      const kb = await openKnowledgeBase({ cwd: dir, env: cleanEnv(), actor: 'human' });
      try {
        const page = OraclePage.parse({ slug: 'glossary', title: 'Glossary', body, created: '2026-11-01T00:00:00.000Z', updated: '2026-11-01T00:00:00.000Z' });
        await mutate(kb, () => ({ result: null, files: new Map([itemFile('oracle', page)]), subject: 'oracle: write glossary', event: 'oracle.written' }));
      } finally {
        await closeKnowledgeBase(kb);
      }
    }
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve'],
      cwd: repo('lib'),
      env: cleanEnv({ AXME_SESSION: 'ws-test' }) as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'axme-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      type R = { content: Array<{ text: string }>; structuredContent?: any; isError?: boolean };
      const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as R;
      const oracle = (await call('axme_oracle')).content[0]!.text;
      assert.match(oracle, /## Workspace: Glossary\n\nA \*service\* is one repository of this workspace\./);
      assert.match(oracle, /## Project: Glossary\n\nlib: the shared TypeScript library\./);
      assert.ok(oracle.indexOf('## Workspace: Glossary') < oracle.indexOf('## Project: Glossary'));
      const decisions = (await call('axme_decisions')).content[0]!.text;
      assert.match(decisions, /### log-in-json \[advisory\] Log in JSON {2}\[workspace\]/);
      assert.doesNotMatch(decisions, /Use pnpm everywhere {2}\[workspace\]/);

      const saved = await call('axme_save_memory', {
        type: 'pattern',
        title: 'Errors are typed',
        description: 'Throw AxmeError-like classes.',
        scope: ['api', 'web'],
      });
      assert.equal(saved.isError, undefined, saved.content[0]!.text);
      assert.equal(
        saved.content[0]!.text,
        `Memory saved: errors-are-typed (pattern) -> refs/memory/main:memories/errors-are-typed.md in ${repo('api')}\nMemory saved: errors-are-typed (pattern) -> refs/memory/main:memories/errors-are-typed.md in ${repo('web')}`,
      );
      assert.ok(itemsIn(repo('api')).includes('memories/errors-are-typed.md'));
      assert.ok(!itemsIn(repo('lib')).includes('memories/errors-are-typed.md'));
      const unknown = await call('axme_save_decision', { title: 'x', decision: 'y', scope: ['nope'] });
      assert.equal(unknown.isError, true);
      assert.match(unknown.content[0]!.text, /invalid request: scope names "nope".*api, lib, web/);

      const ws = (await call('axme_workspace')).structuredContent;
      assert.equal(ws.root, root);
      assert.equal(ws.store.path, store);
      assert.equal(ws.store.kind, 'workspace');
      assert.equal(ws.store.commit, tip(store));
      assert.deepEqual(
        ws.repos.map((r: { name: string; commit: string }) => [r.name, r.commit]),
        REPOS.map((n) => [n, tip(repo(n))]),
      );
      assert.equal(ws.repos.find((r: { name: string }) => r.name === 'web').counts.backlog.open, 1);
    } finally {
      await client.close();
    }
  });

  test('session start: a repository gets the merged context; the workspace folder its store', async () => {
    const start = async (cwd: string, binary = false) => {
      const input = JSON.stringify({
        session_id: `ss-${cwd.length}`,
        transcript_path: '/tmp/t.jsonl',
        cwd,
        hook_event_name: 'SessionStart',
        source: 'startup',
      });
      const r = await hook(cwd, 'session-start', input, { binary });
      assert.equal(r.code, 0, r.stderr);
      return (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    };
    const inLib = await start(repo('lib'), true);
    assert.match(
      inLib,
      new RegExp(`^# Project knowledge \\(axme, refs/memory/main @ ${tip(repo('lib')).slice(0, 12)}; workspace ${store} @ ${tip(store).slice(0, 12)}\\)`),
    );
    assert.match(inLib, /make deploy-prod/);
    const inRoot = await start(root);
    assert.match(inRoot, new RegExp(`^# Project knowledge \\(axme, refs/memory/main @ ${tip(store).slice(0, 12)}\\)`));
    assert.match(inRoot, /Use pnpm everywhere/);
    // a session in the workspace folder is tracked in the workspace store: its edits, and its end
    const id = /\(axme session ([\w-]+)\)/.exec(inRoot)![1]!;
    const hookInRoot = (event: string, extra: Record<string, unknown>) =>
      hook(root, event, JSON.stringify({ session_id: `ss-${root.length}`, transcript_path: '/tmp/t.jsonl', cwd: root, hook_event_name: event, ...extra }));
    writeFileSync(join(root, 'NOTES.md'), 'workspace notes\n');
    assert.equal((await hookInRoot('post-tool-use', { tool_name: 'Write', tool_input: { file_path: join(root, 'NOTES.md') } })).code, 0);
    assert.equal((await hookInRoot('session-end', { reason: 'other' })).code, 0);
    const log = readFileSync(join(store, 'axme', 'sessions', `${id}.jsonl`), 'utf8');
    assert.match(log, /"type":"file","path":"[^"]*NOTES\.md"/);
    assert.match(log, /"type":"end"/);
  });

  test('axme workspace: the store and each repository with tip and counts, as text and --json', async () => {
    // the real binary: the command must be in the CLI's table, not only in its module
    const run = async (cwd: string, argv: string[]) => {
      const r = await axme(cwd, argv);
      assert.equal(r.code, 0, r.stderr);
      return r.stdout;
    };
    const text = await run(repo('api'), ['workspace']);
    assert.match(text, new RegExp(`^Workspace ${root} \\(3 child repositories\\)$`, 'm'));
    assert.match(text, new RegExp(`^ {2}workspace store {2}refs/memory/main @ ${tip(store).slice(0, 12)} .*2 decisions, 2 memories, 1 oracle page$`, 'm'));
    assert.match(text, new RegExp(`^ {2}web {14}refs/memory/main @ ${tip(repo('web')).slice(0, 12)} .*1 decision, 1 memory, 1 backlog item$`, 'm'));
    // --json in-process: what the command prints is the operation's json
    const json: any = workspace.json(await workspace.run({ cwd: root, env: cleanEnv() }, {}));
    assert.deepEqual(
      json.repos.map((r: { name: string }) => r.name),
      REPOS,
    );
    assert.equal(json.store.counts.decision.active, 2);
    // a repository outside any workspace: a workspace of one
    const solo = await makeStore();
    try {
      const one: any = workspace.json(await workspace.run({ cwd: solo.dir, env: cleanEnv() }, {}));
      assert.equal(one.root, null);
      assert.equal(one.repos.length, 1);
      assert.equal(one.repos[0].commit, tip(solo.dir));
    } finally {
      solo.cleanup();
    }
  });
});

describe('axme init --workspace refuses a folder without repositories', () => {
  test('exit 2, nothing created', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'axme-ws-empty-'));
    try {
      const r = await axme(dir, ['init', '--workspace', '--no-claude']);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /is not a workspace: no git repositories found/);
      assert.equal(existsSync(join(dir, '.axme.git')), false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('axme init --workspace in a folder that is a repository itself', () => {
  test('the workspace store is excluded from the outer repository: git add -A does not stage it', async () => {
    const { root, cleanup } = tempFolderOfRepos(['one', 'two']);
    try {
      gitRepo(root);
      await axmeOk(root, ['init', '--workspace', '--no-claude', '--no-git-hooks', '--no-scan']);
      assert.ok(existsSync(join(root, '.axme.git', 'HEAD')));
      assert.match(readFileSync(join(root, '.git', 'info', 'exclude'), 'utf8'), /^\/\.axme\.git\/$/m);
      git(root, ['add', '-A']);
      assert.doesNotMatch(git(root, ['diff', '--cached', '--name-only']), /\.axme\.git/);
      await axmeOk(root, ['init', '--workspace', '--no-claude', '--no-git-hooks', '--no-scan']);
      assert.equal(readFileSync(join(root, '.git', 'info', 'exclude'), 'utf8').split('/.axme.git/').length, 2, 'written once');
    } finally {
      cleanup();
    }
  });
});

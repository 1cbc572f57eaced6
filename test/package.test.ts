import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cleanEnv, git, type ProcessRun, runProcess } from './helpers.ts';

const ROOT = resolve(import.meta.dirname, '..');

/** The files of a folder, recursively, relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n), `${prefix}${n}/`) : [`${prefix}${n}`]));
}

/**
 * The package as a user gets it: `npm pack` run the way a maintainer runs it (its prepack builds
 * dist/ and strips the manifest, its postpack restores it), from a copy of this checkout's sources
 * (so the test never touches the working tree), then installed from the tarball with no network.
 * The tests run at once, each in its own folders: npm spends most of its time waiting on files.
 */
describe('the npm package, packed from a checkout and installed from its tarball', { concurrency: true }, () => {
  const tmp = mkdtempSync(join(tmpdir(), 'axme-package-'));
  const checkout = join(tmp, 'checkout');
  const prefix = join(tmp, 'prefix');
  let tarball = '';
  let manifestBefore = '';
  /** `npm i -g` of the tarball into `prefix`, started once it is packed: checked by the test that uses it first, needed by the teammate's test */
  let globalInstall: Promise<ProcessRun>;
  // a user's environment: the global prefix's bin first on PATH, nothing of this checkout
  const userEnv = (bin = join(prefix, 'bin'), home?: string) => ({
    ...cleanEnv({
      PATH: `${bin}${delimiter}${process.env.PATH}`,
      npm_config_cache: join(tmp, 'npm-cache'),
      npm_config_update_notifier: 'false',
      ...(home ? { HOME: home } : {}),
    }),
    // what this machine's user has: the package on PATH, not this checkout's build
    AXME_BIN: '',
    AXME_NODE: '',
  });

  before(() => {
    mkdirSync(checkout);
    for (const f of ['package.json', 'package-lock.json', 'tsconfig.json', 'README.md', 'src', 'scripts', 'hooks', 'docs'])
      cpSync(join(ROOT, f), join(checkout, f), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));
    manifestBefore = readFileSync(join(checkout, 'package.json'), 'utf8');
    const packed = execFileSync('npm', ['pack', '--json', '--pack-destination', tmp], {
      cwd: checkout,
      env: userEnv(),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    tarball = join(tmp, (JSON.parse(packed) as Array<{ filename: string }>)[0]!.filename);
    globalInstall = runProcess('npm', ['i', '-g', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, tarball], { env: userEnv() });
  });
  after(() => rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

  test('npm pack builds first, and postpack puts the manifest back as it was', () => {
    assert.ok(statSync(join(checkout, 'dist', 'axme.cjs')).isFile(), 'prepack built dist/');
    assert.equal(readFileSync(join(checkout, 'package.json'), 'utf8'), manifestBefore);
    assert.deepEqual(
      readdirSync(checkout).filter((n) => n.startsWith('package.json.')),
      [],
      'no backup left behind',
    );
  });

  test('the tarball holds only what runs and what its messages point to: the bundle, the thin git hooks, the README, the docs pages and a manifest with no scripts or dependencies', () => {
    const unpacked = join(tmp, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', tarball, '-C', unpacked]);
    const files = filesUnder(join(unpacked, 'package'));
    assert.ok(files.includes('dist/axme.cjs') && files.includes('dist/cli.cjs'), files.join(', '));
    assert.deepEqual(
      files.filter((f) => f.endsWith('.map') || /^(src|test|bench|scripts)\//.test(f) || /^docs\/(?!.*\.md$)/.test(f) || f.endsWith('.ts')),
      [],
    );
    // every docs/<page>.md a message or help text names is in the package: the user can open it (node_modules/axme/docs/)
    const named = new Set(
      files
        .filter((f) => f.startsWith('dist/'))
        .flatMap((f) => [...readFileSync(join(unpacked, 'package', f), 'utf8').matchAll(/docs\/([a-z-]+\.md)/g)].map((m) => `docs/${m[1]}`)),
    );
    assert.ok(named.size > 3, [...named].join(', '));
    assert.deepEqual(
      [...named].filter((d) => !files.includes(d)),
      [],
    );
    const manifest = JSON.parse(readFileSync(join(unpacked, 'package', 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(manifest.scripts, undefined, 'no development scripts (husky, tests) shown to users');
    assert.equal(manifest.devDependencies, undefined);
    assert.equal(manifest.dependencies, undefined, 'everything axme runs is in dist/: nothing to install besides it');
    assert.deepEqual(manifest.bin, { axme: 'dist/axme.cjs' });
  });

  test('npm i -g from the tarball, offline: axme on PATH initialises a repository, guards a tool call, serves MCP', async () => {
    const install = await globalInstall;
    assert.equal(install.status, 0, install.stderr);
    assert.doesNotMatch(install.stderr, /EBADENGINE|deprecated/);
    const repo = join(tmp, 'repo');
    mkdirSync(repo);
    git(repo, ['init', '-q', '-b', 'main']);
    const axme = (args: string[], input = '') => runProcess('axme', args, { cwd: repo, env: userEnv(), input });
    const init = await axme(['init', '--no-scan']);
    assert.equal(init.status, 0, init.stderr);
    assert.equal(
      (await axme(['decision', 'add', '--title', 'Packaged', '--decision', 'It runs from the tarball.', '--reasoning', 'Users install it so.'])).status,
      0,
    );
    assert.match((await axme(['decision', 'list'])).stdout, /D-001 .*Packaged/);
    const hook = await axme(
      ['hook', 'pre-tool-use'],
      JSON.stringify({ session_id: 'pkg-test', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd: repo }),
    );
    assert.equal(JSON.parse(hook.stdout).hookSpecificOutput.permissionDecision, 'deny');
    const transport = new StdioClientTransport({ command: 'axme', args: ['serve'], cwd: repo, env: userEnv() as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'package-test', version: '1' });
    await client.connect(transport);
    try {
      const r = (await client.callTool({ name: 'axme_get_decision', arguments: { id_or_slug: 'D-001' } })) as { content: Array<{ text: string }> };
      assert.match(r.content[0]!.text, /It runs from the tarball/);
    } finally {
      await client.close();
    }
  });

  test("a teammate's clone in another folder, with another HOME and PATH: the committed files work there, and without axme the safety hook blocks with the install line", async () => {
    // the first machine: axme from the global prefix above; the store shared through a bare remote
    const first = await globalInstall;
    assert.equal(first.status, 0, `axme installed globally from the tarball: ${first.stderr}`);
    const remote = join(tmp, 'team.git');
    git(tmp, ['init', '-q', '--bare', '-b', 'main', remote]);
    const mine = join(tmp, 'mine');
    git(tmp, ['clone', '-q', remote, mine]);
    const me = userEnv();
    const runIn = (cwd: string, env: NodeJS.ProcessEnv, cmd: string, args: string[], input = '') => runProcess(cmd, args, { cwd, env, input });
    assert.equal((await runIn(mine, me, 'axme', ['init', '--no-scan'])).status, 0);
    assert.equal((await runIn(mine, me, 'axme', ['decision', 'add', '--title', 'Shared through git', '--decision', 'Teammates get it by cloning.'])).status, 0);
    for (const args of [
      ['add', '.claude/settings.json', '.mcp.json', 'CLAUDE.md'],
      ['-c', 'user.name=A', '-c', 'user.email=a@example.com', 'commit', '-q', '-m', 'connect axme', '-m', '#!axme pr=none repo=team/app'],
      ['push', '-q', 'origin', 'main'],
    ]) {
      const r = await runIn(mine, me, 'git', args);
      assert.equal(r.status, 0, r.stderr);
    }
    assert.equal((await runIn(mine, me, 'axme', ['sync'])).status, 0);
    // the teammate: a different folder, HOME, and their own install of axme in another prefix
    const home = join(tmp, 'teammate-home');
    const theirPrefix = join(tmp, 'teammate-prefix');
    mkdirSync(home);
    // the same `npm i -g` of the same tarball as the first machine's, so a copy of that prefix (its bin link is relative): npm's work is checked there
    cpSync(prefix, theirPrefix, { recursive: true, verbatimSymlinks: true });
    assert.equal(readlinkSync(join(theirPrefix, 'bin', 'axme')).startsWith('/'), false, 'the copied bin link points into the copy');
    const them = userEnv(join(theirPrefix, 'bin'), home);
    const theirs = join(tmp, 'elsewhere', 'app');
    mkdirSync(join(tmp, 'elsewhere'));
    git(tmp, ['clone', '-q', remote, theirs]);
    const init = await runIn(theirs, them, 'axme', ['init', '--no-scan']);
    assert.equal(init.status, 0, init.stderr);
    assert.match(init.stderr, /started from origin's knowledge/);
    assert.equal(git(theirs, ['status', '--porcelain']).trim(), '', 'init rewrote none of the committed files: they hold nothing machine-specific');
    assert.match((await runIn(theirs, them, 'axme', ['decision', 'list'])).stdout, /D-001 .*Shared through git/);
    // the committed pre-tool-use command, as Claude Code runs it (through a shell), from a subfolder
    const settings = JSON.parse(readFileSync(join(theirs, '.claude', 'settings.json'), 'utf8'));
    const pre = settings.hooks.PreToolUse.at(-1).hooks[0].command as string;
    mkdirSync(join(theirs, 'src'));
    const call = JSON.stringify({ session_id: 'teammate', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd: theirs });
    const denied = await runIn(join(theirs, 'src'), them, '/bin/sh', ['-c', pre], call);
    assert.equal(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision, 'deny', denied.stderr);
    // git hooks bind agents there too
    const agentCommit = await runIn(theirs, { ...them, CLAUDECODE: '1' }, 'git', [
      '-c',
      'user.name=B',
      '-c',
      'user.email=b@example.com',
      'commit',
      '--allow-empty',
      '-m',
      'no marker',
    ]);
    assert.equal(agentCommit.status, 1);
    assert.match(agentCommit.stderr, /needs its PR metadata/);
    // the MCP server starts from the committed .mcp.json
    const mcp = JSON.parse(readFileSync(join(theirs, '.mcp.json'), 'utf8')).mcpServers.axme as { command: string; args: string[] };
    const client = new Client({ name: 'teammate', version: '1' });
    await client.connect(new StdioClientTransport({ command: mcp.command, args: mcp.args, cwd: theirs, env: them as Record<string, string>, stderr: 'pipe' }));
    try {
      const r = (await client.callTool({ name: 'axme_get_decision', arguments: { id_or_slug: 'D-001' } })) as { content: Array<{ text: string }> };
      assert.match(r.content[0]!.text, /Teammates get it by cloning/);
    } finally {
      await client.close();
    }
    // a machine without axme at all (the teammate's install removed: the launcher init recorded names a file that is gone): the safety hook blocks, saying how to install it
    rmSync(theirPrefix, { recursive: true, force: true });
    const none = { ...them, PATH: '/usr/bin:/bin' };
    const blocked = await runIn(theirs, none, '/bin/sh', ['-c', pre], call);
    assert.equal(blocked.status, 2);
    assert.match(blocked.stderr, /axme is not installed on this machine \(npm i -D <the axme package: .*\); the call is blocked/);
  });

  test("the README's install: the tarball committed in the project, npm i -D from it, npx axme runs that copy; a teammate's clone gets axme from npm install; doctor passes for both; the teammate's init commits nothing", async () => {
    const remote = join(tmp, 'readme-remote.git');
    git(tmp, ['init', '-q', '--bare', '-b', 'main', remote]);
    const first = join(tmp, 'readme-first');
    mkdirSync(join(first, 'vendor'), { recursive: true });
    git(first, ['init', '-q', '-b', 'main']);
    writeFileSync(join(first, 'package.json'), '{"name":"app","version":"1.0.0"}\n');
    writeFileSync(join(first, '.gitignore'), 'node_modules\n');
    git(first, ['add', '.']);
    git(first, ['-c', 'user.name=First', '-c', 'user.email=f@example.com', 'commit', '-q', '-m', 'app']);
    git(first, ['remote', 'add', 'origin', remote]);
    const name = tarball.split('/').at(-1)!;
    cpSync(tarball, join(first, 'vendor', name));
    const env = (home: string) => ({
      ...userEnv(join(prefix, 'no-bin'), home),
      GIT_AUTHOR_NAME: 'Someone',
      GIT_AUTHOR_EMAIL: 's@example.com',
      GIT_COMMITTER_NAME: 'Someone',
      GIT_COMMITTER_EMAIL: 's@example.com',
    });
    const sh = (cwd: string, cmd: string, home = cwd) => runProcess('/bin/sh', ['-c', cmd], { cwd, env: env(home) });
    // the README's lines, as written (offline: the tarball has no dependencies)
    const install = await sh(first, `npm i -D --offline --no-audit --no-fund ./vendor/${name}`);
    assert.equal(install.status, 0, install.stderr);
    assert.equal(JSON.parse(readFileSync(join(first, 'package.json'), 'utf8')).devDependencies.axme, `file:vendor/${name}`, 'recorded as a devDependency');
    assert.deepEqual(
      readdirSync(join(first, 'node_modules')).filter((n) => !n.startsWith('.')),
      ['axme'],
      'no other package installed',
    );
    // npx runs the project-local copy
    const v = await runProcess('npx', ['--offline', 'axme', '--version'], { cwd: first, env: cleanEnv({ npm_config_cache: join(tmp, 'npm-cache') }) });
    assert.equal(v.status, 0, v.stderr);
    assert.match(v.stdout, /^\d+\.\d+\.\d+/);
    for (const cmd of [
      'node_modules/.bin/axme init',
      'git add package.json package-lock.json vendor .claude/settings.json .mcp.json CLAUDE.md && git commit -q -m "Add axme"',
      'git push -q origin main',
    ]) {
      const r = await sh(first, cmd);
      assert.equal(r.status, 0, `${cmd}: ${r.stderr}`);
    }
    const doctorFirst = await sh(first, 'node_modules/.bin/axme doctor');
    assert.equal(doctorFirst.status, 0, doctorFirst.stdout);
    assert.match(doctorFirst.stdout, /^axme doctor: ready: all \d+ checks passed\n/);
    assert.equal((await sh(first, 'node_modules/.bin/axme sync')).status, 0);
    // the teammate: clone, npm install, init
    const mate = join(tmp, 'readme-mate');
    git(tmp, ['clone', '-q', remote, mate]);
    const npmInstall = await sh(mate, 'npm install --offline --no-audit --no-fund');
    assert.equal(npmInstall.status, 0, npmInstall.stderr);
    const init = await sh(mate, 'node_modules/.bin/axme init');
    assert.equal(init.status, 0, init.stderr);
    assert.equal(
      git(mate, ['rev-parse', 'refs/memory/main']).trim(),
      git(first, ['rev-parse', 'refs/memory/main']).trim(),
      "the teammate's init made no commit",
    );
    const doctorMate = await sh(mate, 'node_modules/.bin/axme doctor');
    assert.equal(doctorMate.status, 0, doctorMate.stdout);
    assert.match(doctorMate.stdout, /^axme doctor: ready/);
  });
});

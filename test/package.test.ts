import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cleanEnv, git } from './helpers.ts';

const ROOT = resolve(import.meta.dirname, '..');

/** The files of a folder, recursively, relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n), `${prefix}${n}/`) : [`${prefix}${n}`]));
}

/**
 * The package as a user gets it: `npm pack` run the way a maintainer runs it (its prepack builds
 * dist/ and strips the manifest, its postpack restores it), from a copy of this checkout's sources
 * (so the test never touches the working tree), then installed from the tarball with no network.
 */
describe('the npm package, packed from a checkout and installed from its tarball', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'axme-package-'));
  const checkout = join(tmp, 'checkout');
  const prefix = join(tmp, 'prefix');
  let tarball = '';
  let manifestBefore = '';
  // a user's environment: the global prefix's bin first on PATH, nothing of this checkout
  const userEnv = () => cleanEnv({ PATH: `${join(prefix, 'bin')}${delimiter}${process.env.PATH}`, npm_config_cache: join(tmp, 'npm-cache'), npm_config_update_notifier: 'false' });

  before(() => {
    mkdirSync(checkout);
    for (const f of ['package.json', 'package-lock.json', 'tsconfig.json', 'README.md', 'src', 'scripts', 'hooks']) cpSync(join(ROOT, f), join(checkout, f), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));
    manifestBefore = readFileSync(join(checkout, 'package.json'), 'utf8');
    const packed = execFileSync('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: checkout, env: userEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    tarball = join(tmp, (JSON.parse(packed) as Array<{ filename: string }>)[0]!.filename);
  });
  after(() => rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

  test('npm pack builds first, and postpack puts the manifest back as it was', () => {
    assert.ok(statSync(join(checkout, 'dist', 'axme.cjs')).isFile(), 'prepack built dist/');
    assert.equal(readFileSync(join(checkout, 'package.json'), 'utf8'), manifestBefore);
    assert.deepEqual(readdirSync(checkout).filter((n) => n.startsWith('package.json.')), [], 'no backup left behind');
  });

  test('the tarball holds only what runs: the bundle, the thin git hooks, the README and a manifest with no scripts or dependencies', () => {
    const unpacked = join(tmp, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', tarball, '-C', unpacked]);
    const files = filesUnder(join(unpacked, 'package'));
    assert.ok(files.includes('dist/axme.cjs') && files.includes('dist/cli.cjs'), files.join(', '));
    assert.deepEqual(files.filter((f) => f.endsWith('.map') || /^(src|test|bench|docs|scripts)\//.test(f) || f.endsWith('.ts')), []);
    const manifest = JSON.parse(readFileSync(join(unpacked, 'package', 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(manifest.scripts, undefined, 'no development scripts (husky, tests) shown to users');
    assert.equal(manifest.devDependencies, undefined);
    assert.equal(manifest.dependencies, undefined, 'everything axme runs is in dist/: nothing to install besides it');
    assert.deepEqual(manifest.bin, { axme: 'dist/axme.cjs' });
  });

  test('npm i -g from the tarball, offline: axme on PATH initialises a repository, guards a tool call, serves MCP', async () => {
    const install = spawnSync('npm', ['i', '-g', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, tarball], { env: userEnv(), encoding: 'utf8' });
    assert.equal(install.status, 0, install.stderr);
    assert.doesNotMatch(install.stderr, /EBADENGINE|deprecated/);
    const repo = join(tmp, 'repo');
    mkdirSync(repo);
    git(repo, ['init', '-q', '-b', 'main']);
    const run = (args: string[], input = '') => spawnSync('axme', args, { cwd: repo, env: userEnv(), input, encoding: 'utf8' });
    const init = run(['init', '--no-scan']);
    assert.equal(init.status, 0, init.stderr);
    assert.equal(run(['decision', 'add', '--title', 'Packaged', '--decision', 'It runs from the tarball.', '--reasoning', 'Users install it so.']).status, 0);
    assert.match(run(['decision', 'list']).stdout, /D-001 .*Packaged/);
    const hook = run(['hook', 'pre-tool-use'], JSON.stringify({ session_id: 'pkg-test', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd: repo }));
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

  test('npm i -D from the tarball, offline: npx axme runs the project-local copy', () => {
    const project = join(tmp, 'project');
    mkdirSync(project);
    execFileSync('npm', ['init', '-y'], { cwd: project, env: userEnv(), stdio: 'ignore' });
    const install = spawnSync('npm', ['i', '-D', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project, env: userEnv(), encoding: 'utf8' });
    assert.equal(install.status, 0, install.stderr);
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    assert.ok(manifest.devDependencies.axme, 'recorded as a devDependency');
    assert.deepEqual(readdirSync(join(project, 'node_modules')).filter((n) => !n.startsWith('.')), ['axme'], 'no other package installed');
    const v = spawnSync('npx', ['--offline', 'axme', '--version'], { cwd: project, env: cleanEnv({ npm_config_cache: join(tmp, 'npm-cache') }), encoding: 'utf8' });
    assert.equal(v.status, 0, v.stderr);
    assert.match(v.stdout, /^\d+\.\d+\.\d+/);
  });
});

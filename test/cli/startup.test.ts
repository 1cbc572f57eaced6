import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { commandWords } from '../../src/cli/command-line.ts';
import { axme, cleanEnv, tempRepo } from '../helpers.ts';

// Start-up (issue 18): a command line loads its own command module only (the tree and its
// generated index: test/cli/command-tree.test.ts), and the CLI bundle is compiled from a code
// cache. What it costs is measured in bench/startup.bench.ts, never here.

describe('the command table', () => {
  test("the command is the first word after the global options (and a group's subcommand); anything else needs the whole table", () => {
    const cases: Array<[string[], string[]]> = [
      [
        ['decision', 'list', '--json'],
        ['decision', 'list'],
      ],
      [
        ['-C', '/x', 'decision', 'add', '--title', 't'],
        ['decision', 'add'],
      ],
      [['--C', '/x', 'log'], ['log']],
      [['-C/x', 'log', '-n', '3'], ['log']],
      [
        ['-C=/x', '--json', 'memory', 'add'],
        ['memory', 'add'],
      ],
      [['--C=/x', 'fsck'], ['fsck']],
      [['--json', 'status'], ['status']],
      [['--no-json', 'status'], ['status']],
      // only a group's next word is its subcommand: a search query or a revision is not
      [['search', 'caching', 'layer'], ['search']],
      [['history', 'D-001'], ['history']],
      [['decision', '--json', 'list'], ['decision']],
      [['decision', 'D-001'], ['decision']],
      // -C takes the next word as its folder: the command is the one after
      [['-C', 'decision', 'list'], ['list']],
      [[], []],
      [['--help'], []],
      [['--version', 'decision'], []],
      [['-x', 'decision', 'list'], []],
      [['--', 'decision'], []],
      [['--json=true', 'decision'], []],
    ];
    for (const [argv, words] of cases) assert.deepEqual(commandWords(argv), words, argv.join(' '));
  });
});

describe('the code cache of the CLI bundle', () => {
  let dir: string;
  let cleanup: () => void;
  let cache: string;
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    cache = mkdtempSync(join(tmpdir(), 'axme-cache-'));
    const r = await axme(dir, ['init', '--no-claude', '--no-git-hooks', '--no-scan', '--no-fetch-config'], { env: { AXME_COMPILE_CACHE: 'off' } });
    assert.equal(r.code, 0, r.stderr);
  });
  after(() => {
    cleanup();
    rmSync(cache, { recursive: true, force: true });
  });
  /** The caches under a cache folder: `<build folder>/<command>.bin`. */
  const caches = (folder: string) => readdirSync(folder).flatMap((build) => readdirSync(join(folder, build)).map((f) => join(build, f)));

  test('the first run of a command writes its cache, later runs use it as it is', async () => {
    const folder = join(cache, 'fresh');
    const env = { AXME_COMPILE_CACHE: folder };
    const first = await axme(dir, ['--version'], { env });
    assert.equal(first.code, 0, first.stderr);
    const [file, ...more] = caches(folder);
    assert.ok(file && more.length === 0, `one cache: ${caches(folder).join(', ')}`);
    assert.match(file, /^cli-[0-9a-f]{16}\/v\d+\.\d+\.\d+-\w+-[0-9a-f]{8}-_\.bin$/);
    for (const f of [folder, join(folder, file, '..')]) assert.equal(statSync(f).mode & 0o777, 0o700, `${f}: a folder of this user only`);
    assert.equal(statSync(join(folder, file)).mode & 0o777, 0o600);
    const bytes = readFileSync(join(folder, file));
    const second = await axme(dir, ['--version'], { env });
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout, first.stdout);
    assert.deepEqual(readFileSync(join(folder, file)), bytes, 'not written again');
    // another command: a cache of its own, beside the first
    assert.equal((await axme(dir, ['-C', dir, 'decision', 'list', '--json'], { env })).code, 0);
    assert.deepEqual(
      caches(folder)
        .map((f) => f.replace(/^.*-/, ''))
        .sort(),
      ['_.bin', 'list.bin'],
    );
    assert.ok(caches(folder).some((f) => f.endsWith('-decision-list.bin')));
  });

  test('a damaged cache is refused by V8 and written again; the command runs all the same', async () => {
    const folder = join(cache, 'damaged');
    const env = { AXME_COMPILE_CACHE: folder };
    assert.equal((await axme(dir, ['log'], { env })).code, 0);
    const [file] = caches(folder);
    writeFileSync(join(folder, file!), Buffer.alloc(4096, 7), { mode: 0o600 });
    const r = await axme(dir, ['log'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!readFileSync(join(folder, file!)).equals(Buffer.alloc(4096, 7)), 'replaced');
  });

  test("the hooks' bundle has its own cache; a run that died while running from it makes the next compile anew, and still answer", async () => {
    const folder = join(cache, 'hook');
    const env = { AXME_COMPILE_CACHE: folder };
    const input = JSON.stringify({ cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } });
    const denies = async () => {
      const r = await axme(dir, ['hook', 'pre-tool-use'], { env, input });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'deny');
    };
    await denies();
    const [file, ...more] = caches(folder);
    assert.ok(file && more.length === 0 && /^hook-[0-9a-f]{16}\/.*-hook\.bin$/.test(file), caches(folder).join(', '));
    await denies();
    assert.deepEqual(caches(folder), [file], 'a run from the cache leaves no mark behind');
    // a process that died while running from the cache left its mark; the cache itself is damaged
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(join(folder, `${file}.run-${dead}`), '');
    const bytes = readFileSync(join(folder, file!));
    for (let i = 4096; i < Math.min(bytes.length, 4096 + 256); i++) bytes[i] = bytes[i]! ^ 0xff;
    writeFileSync(join(folder, file!), bytes, { mode: 0o600 });
    await denies();
    assert.deepEqual(caches(folder), [file], 'the mark is gone');
    assert.ok(!readFileSync(join(folder, file!)).equals(bytes), 'the damaged cache was not used again: it was compiled and written anew');
    await denies();
  });

  test('the query at the tip (axme search, the prompt hook) has its own cache, and answers the same from it', async () => {
    const folder = join(cache, 'tip');
    const env = { AXME_COMPILE_CACHE: folder };
    const first = await axme(dir, ['search', 'anything'], { env });
    assert.equal(first.code, 0, first.stderr);
    const tip = caches(folder).filter((f) => f.startsWith('tip-'));
    assert.equal(tip.length, 1, caches(folder).join(', '));
    assert.match(tip[0]!, /^tip-[0-9a-f]{16}\/.*-tip\.bin$/);
    const again = await axme(dir, ['search', 'anything'], { env });
    assert.deepEqual([again.code, again.stdout], [first.code, first.stdout]);
    assert.deepEqual(
      caches(folder).filter((f) => f.startsWith('tip-')),
      tip,
      'used as it is',
    );
  });

  test('a folder others may write to is not used, and AXME_COMPILE_CACHE=off writes nothing', async () => {
    const shared = join(cache, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    assert.equal((await axme(dir, ['--version'], { env: { AXME_COMPILE_CACHE: shared } })).code, 0);
    assert.deepEqual(readdirSync(shared), []);
    const home = mkdtempSync(join(tmpdir(), 'axme-home-'));
    try {
      const r = await axme(dir, ['--version'], { env: { AXME_COMPILE_CACHE: 'off', HOME: home, XDG_CACHE_HOME: join(home, 'cache') } });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(readdirSync(home), []);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  test("without AXME_COMPILE_CACHE the cache is in $XDG_CACHE_HOME/axme; older builds' caches are pruned", async () => {
    const xdg = join(cache, 'xdg');
    for (const old of ['cli-0000000000000001', 'cli-0000000000000002']) {
      mkdirSync(join(xdg, 'axme', old), { recursive: true, mode: 0o700 });
      writeFileSync(join(xdg, 'axme', old, 'v0-x-0-_.bin'), 'old');
    }
    writeFileSync(join(xdg, 'axme', 'cli-notes.txt'), "not axme's: never pruned");
    chmodSync(join(xdg, 'axme'), 0o700);
    utimesSync(join(xdg, 'axme', 'cli-0000000000000001'), new Date(2020, 0, 1), new Date(2020, 0, 1));
    assert.equal((await axme(dir, ['--version'], { env: { XDG_CACHE_HOME: xdg } })).code, 0);
    const builds = readdirSync(join(xdg, 'axme')).filter((f) => f !== 'cli-notes.txt');
    assert.equal(builds.length, 2, `this build's and the newest other: ${builds.join(', ')}`);
    assert.ok(readdirSync(join(xdg, 'axme')).includes('cli-notes.txt'));
    assert.ok(builds.includes('cli-0000000000000002') && !builds.includes('cli-0000000000000001'));
  });

  test('node dist/cli.js runs the same CLI (without the hook fast path)', () => {
    const r = spawnSync(process.execPath, [join(import.meta.dirname, '../../dist/cli.js'), 'decision', 'list', '--json'], {
      cwd: dir,
      env: cleanEnv({ AXME_COMPILE_CACHE: 'off' }),
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), []);
  });
});

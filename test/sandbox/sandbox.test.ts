/**
 * The kernel sandbox under the guard (docs/safety.md, "The kernel sandbox"): the policy built from
 * the paths as they are, bubblewrap running it for real (`axme sandbox -c`), the settings that
 * choose it, each client's way in through the installed hook, and doctor. Worlds live outside the
 * temp folder, which is writable in the sandbox; one is set up (git, `axme init`) and each group
 * of tests gets a copy of its folder (nothing in it names its own path). Commands, `init`, the
 * hook's answers and doctor run in-process (the CLI's `run`, the built hook's `runHook`, doctor's
 * operation) where the answer is the subject; the binary keeps the exit status of a sandboxed
 * command and a sample of the hook's answers, which must equal the in-process ones.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseYamlText } from '../../src/model/yaml-text.ts';
import { sandboxPolicy, treeSecrets } from '../../src/sandbox/policy.ts';
import { readSandboxSettings } from '../../src/sandbox/settings.ts';
import { sandboxState } from '../../src/sandbox/state.ts';
import type { HookClientId } from '../../src/setup/clients/hook-registry.ts';
import { sandboxCheck } from '../../src/setup/doctor-sandbox.ts';
import { guardedPaths } from '../../src/setup/paths.ts';
import { locateRepo } from '../../src/store/locate.ts';
import { axmeIn, axmeInOk } from '../cli-in-process.ts';
import { doctorJson } from '../core.ts';
import { axme, cleanEnv, git, sandboxWorldBase } from '../helpers.ts';
import { hookBinary, hookInProcess, loadBuiltHook, sameAnswer } from '../hooks/hook-in-process.ts';

const BASE = sandboxWorldBase();
const bwrapWorks = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--', '/bin/true']).status === 0;
const ON = { AXME_SANDBOX: 'auto' };

interface World {
  root: string;
  home: string;
  project: string;
  outside: string;
  token: string;
}

/** The world's ~/.bashrc: a write canary holding the token as a shell comment. */
const bashrcOf = (token: string) => `# ${token}\n`;

/** The paths of the world in `root`. */
const worldAt = (root: string, token: string): World => ({
  root,
  home: join(root, 'home'),
  project: join(root, 'project'),
  outside: join(root, 'outside'),
  token,
});

/** A HOME with a credential, a folder outside the project with a canary, and a project with axme initialised and a `.env`. */
async function makeWorld(): Promise<World> {
  mkdirSync(BASE, { recursive: true });
  const token = `TOKEN-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const { root, home, project, outside } = worldAt(mkdtempSync(join(BASE, 'sandbox-')), token);
  for (const d of [join(home, '.ssh'), join(home, '.config', 'gh'), project, outside, join(project, 'config')]) mkdirSync(d, { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_ed25519'), token);
  writeFileSync(join(home, '.config', 'gh', 'hosts.yml'), token);
  writeFileSync(join(home, '.git-credentials'), token);
  // a comment: bash started with a socket for stdin (a Node pipe) and SHLVL unset sources ~/.bashrc
  // even for `bash -c`, so the canary must print nothing when read that way
  writeFileSync(join(home, '.bashrc'), bashrcOf(token));
  // a credential no parser rule names: only the sandbox keeps it from a reader
  mkdirSync(join(home, '.config', 'gcloud'), { recursive: true });
  writeFileSync(join(home, '.config', 'gcloud', 'application_default_credentials.json'), token);
  writeFileSync(join(outside, 'canary.txt'), token);
  git(project, ['init', '-q', '-b', 'main']);
  git(project, ['config', 'user.name', 'T']);
  git(project, ['config', 'user.email', 't@example.com']);
  writeFileSync(join(project, '.gitignore'), '.env\n');
  writeFileSync(join(project, '.env'), `API_KEY=${token}\n`);
  writeFileSync(join(project, '.env.example'), 'API_KEY=\n');
  writeFileSync(join(project, 'config', 'server.pem'), token);
  writeFileSync(join(project, 'README.md'), '# demo\n');
  git(project, ['add', 'README.md', '.gitignore', '.env.example']);
  git(project, ['commit', '-q', '-m', 'first']);
  await axmeInOk(project, ['init', '--agent', 'gemini,codex'], { env: { HOME: home, ...ON } });
  return { root, home, project, outside, token };
}

let template: Promise<World> | undefined;
after(async () => {
  if (template) rmSync((await template).root, { recursive: true, force: true });
});

/** A world of its own: a copy of the one made first (the same token, its own folder). */
async function world(): Promise<World> {
  const from = await (template ??= makeWorld());
  const w = worldAt(mkdtempSync(join(BASE, 'sandbox-')), from.token);
  cpSync(from.root, w.root, { recursive: true, verbatimSymlinks: true });
  return w;
}

/** `axme sandbox -c <command>` in the world's project, in-process (the CLI's `run`; the command itself runs in bubblewrap). */
const run = (w: World, command: string, env: NodeJS.ProcessEnv = {}) => axmeIn(w.project, ['sandbox', '-c', command], { env: { HOME: w.home, ...ON, ...env } });

describe('the sandbox policy', () => {
  let w: World;
  before(async () => (w = await world()));
  after(() => rmSync(w.root, { recursive: true, force: true }));

  test('the tree and the caches are writable; guarded paths and their client folders read-only; secrets hidden, examples not', () => {
    const loc = locateRepo(w.project)!;
    const policy = sandboxPolicy({
      loc,
      cwd: w.project,
      home: w.home,
      env: {},
      guarded: guardedPaths(loc, w.home),
      writableAgain: [join(loc.commonDir, 'axme', 'sessions')],
    });
    assert.ok(policy.writable.includes(w.project));
    assert.ok(policy.writable.includes(join(w.home, '.cache')), 'a cache missing before is made and writable');
    assert.ok(!policy.writable.some((p) => p === w.home || p === w.outside), JSON.stringify(policy.writable));
    for (const p of ['.git/config', '.git/hooks', '.git/axme', '.gemini', '.codex', '.codex/config.toml'])
      assert.ok(policy.readOnly.includes(join(w.project, p)), `${p} is read-only: ${JSON.stringify(policy.readOnly)}`);
    assert.deepEqual(policy.writableAgain, [join(w.project, '.git', 'axme', 'sessions')]);
    assert.ok(policy.hiddenFiles.includes(join(w.project, '.env')));
    assert.ok(policy.hiddenFiles.includes(join(w.project, 'config', 'server.pem')));
    assert.ok(!policy.hiddenFiles.includes(join(w.project, '.env.example')), 'an example holds no secret');
    assert.ok(policy.hiddenDirs.includes(join(w.home, '.ssh')) && policy.hiddenDirs.includes(join(w.home, '.config', 'gh')));
    assert.ok(policy.hiddenFiles.includes(join(w.home, '.git-credentials')));
    assert.equal(policy.network, 'allow');
  });

  test('the walk for secrets skips installed packages and git, and stops at its limit', () => {
    mkdirSync(join(w.project, 'node_modules', 'pkg'), { recursive: true });
    writeFileSync(join(w.project, 'node_modules', 'pkg', 'test.pem'), 'x');
    const found = treeSecrets(w.project);
    assert.ok(!found.some((f) => f.includes('node_modules')), JSON.stringify(found));
    assert.ok(found.includes(join(w.project, '.env')));
  });
});

describe('settings and state', () => {
  let dir: string;
  before(() => {
    mkdirSync(BASE, { recursive: true });
    dir = mkdtempSync(join(BASE, 'settings-'));
    mkdirSync(join(dir, 'axme'), { recursive: true });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('machine-local files choose the mode and network; the environment overrides the mode; a bad value is a problem, not a change', async () => {
    writeFileSync(join(dir, 'axme', 'config.yaml'), 'sandbox:\n  mode: required\n  network: deny\n  writable: [/srv/data]\n  hidden: 7\n');
    const s = await readSandboxSettings(dir, { XDG_CONFIG_HOME: join(dir, 'none') }, parseYamlText);
    assert.equal(s.mode, 'required');
    assert.equal(s.network, 'deny');
    assert.deepEqual(s.writable, ['/srv/data']);
    assert.deepEqual(s.hidden, []);
    assert.match(s.problems.join('\n'), /sandbox\.hidden must be a list/);
    const env = await readSandboxSettings(dir, { XDG_CONFIG_HOME: join(dir, 'none'), AXME_SANDBOX: 'off' }, parseYamlText);
    assert.equal(env.mode, 'off');
    const bad = await readSandboxSettings(dir, { XDG_CONFIG_HOME: join(dir, 'none'), AXME_SANDBOX: 'maybe' }, parseYamlText);
    assert.equal(bad.mode, 'required');
    assert.match(bad.problems.join('\n'), /AXME_SANDBOX=maybe/);
  });

  test('off by choice, no bubblewrap (with the install line), another platform: each says why', async () => {
    const base = { mode: 'auto' as const, network: 'allow' as const, domains: [], writable: [], hidden: [], sockets: [], sources: [], problems: [] };
    const off = sandboxState({ ...base, mode: 'off' }, {}, null);
    assert.ok(!off.on && off.chosen);
    const missing = sandboxState(base, { AXME_BWRAP: join(dir, 'no-bwrap') }, null, 'linux');
    assert.ok(!missing.on && !missing.chosen && !missing.required);
    assert.match(missing.fix ?? '', /apt-get install -y bubblewrap/);
    const required = sandboxState({ ...base, mode: 'required' }, { AXME_BWRAP: join(dir, 'no-bwrap') }, null, 'linux');
    assert.ok(!required.on && required.required);
    const mac = sandboxState(base, {}, null, 'darwin');
    assert.ok(!mac.on);
    assert.match(mac.why, /darwin/);
  });
});

describe('axme sandbox -c: commands run in bubblewrap', { skip: !bwrapWorks && 'bubblewrap cannot start a sandbox here' }, () => {
  let w: World;
  before(async () => (w = await world()));
  after(() => rmSync(w.root, { recursive: true, force: true }));

  test("writes outside the tree fail, inside work; the exit status is the command's", async () => {
    // through the binary: the exit status is its process's
    const r = await axme(
      w.project,
      [
        'sandbox',
        '-c',
        `echo pwned > ${w.outside}/canary.txt; echo pwned > ~/.bashrc; echo made > made.txt; mkdir -p /tmp/axme-sandbox-test && echo ok > /tmp/axme-sandbox-test/x; exit 3`,
      ],
      { env: { HOME: w.home, ...ON } },
    );
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /Read-only file system/);
    assert.equal(readFileSync(join(w.outside, 'canary.txt'), 'utf8'), w.token);
    assert.equal(readFileSync(join(w.home, '.bashrc'), 'utf8'), bashrcOf(w.token));
    assert.equal(readFileSync(join(w.project, 'made.txt'), 'utf8'), 'made\n');
  });

  test('secrets read as empty, whatever the reader; the token never reaches the output', async () => {
    const r = await run(
      w,
      'cat .env config/server.pem ~/.git-credentials ~/.ssh/id_ed25519 ~/.config/gh/hosts.yml /proc/self/root$PWD/.env 2>&1; base64 .env; ls -A ~/.ssh; git show HEAD:README.md',
    );
    assert.doesNotMatch(r.stdout + r.stderr, new RegExp(w.token));
    assert.match(r.stdout, /# demo/, 'everyday reads work');
  });

  test("the guard's own files cannot be changed, by any writer", async () => {
    const before = {
      config: readFileSync(join(w.project, '.git', 'config'), 'utf8'),
      settings: readFileSync(join(w.project, '.gemini', 'settings.json'), 'utf8'),
      memory: git(w.project, ['rev-parse', 'refs/memory/main']),
    };
    await run(
      w,
      'git config core.hooksPath /tmp/none; printf x > .git/hooks/pre-commit; rm -rf .gemini; mv .codex .codex.off; cp /dev/null .gemini/settings.json; git update-ref refs/memory/main HEAD; printf 0 > .git/refs/memory/main; rm -rf .git/axme; true',
    );
    assert.equal(readFileSync(join(w.project, '.git', 'config'), 'utf8'), before.config);
    assert.equal(readFileSync(join(w.project, '.gemini', 'settings.json'), 'utf8'), before.settings);
    assert.equal(git(w.project, ['rev-parse', 'refs/memory/main']), before.memory);
    assert.ok(readFileSync(join(w.project, '.codex', 'config.toml'), 'utf8').length > 0);
    assert.ok(!existsSync(join(w.project, '.git', 'hooks', 'pre-commit')), 'no hook was added');
  });

  test('git on a feature branch works, its hooks included', async () => {
    const r = await run(w, 'git checkout -q -b feat/x && echo hi > hi.txt && git add hi.txt && git commit -q -m "Add hi" && git log -1 --format=%s');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'Add hi');
  });

  test('--print shows the command line; usage errors exit 2 and run nothing', async () => {
    const printed = await run(w, 'echo hi', {});
    assert.equal(printed.code, 0);
    const line = await axmeIn(w.project, ['sandbox', '-c', 'touch printed-only', '--print'], { env: { HOME: w.home, ...ON } });
    assert.equal(line.code, 0, line.stderr);
    assert.match(line.stdout, /bwrap.*--ro-bind/);
    assert.throws(() => readFileSync(join(w.project, 'printed-only')));
    const empty = await axmeIn(w.project, ['sandbox', '-c', ''], { env: { HOME: w.home, ...ON } });
    assert.equal(empty.code, 2);
    const print = await axmeIn(w.project, ['sandbox', '--print'], { env: { HOME: w.home, ...ON } });
    assert.equal(print.code, 2);
    assert.match(print.stderr, /--print goes with -c/);
    const off = await axmeIn(w.project, ['sandbox', '-c', 'true'], { env: { HOME: w.home, AXME_SANDBOX: 'off' } });
    assert.equal(off.code, 2);
    assert.match(off.stderr, /sandbox\.mode is off/);
  });

  test('status and --json say what it holds', async () => {
    const s = await axmeInOk(w.project, ['sandbox', '--json'], { env: { HOME: w.home, ...ON } });
    assert.equal(s.on, true);
    assert.ok(s.policy.hiddenFiles.includes(join(w.project, '.env')));
  });
});

describe('the hook routes each client into the sandbox', { skip: !bwrapWorks && 'bubblewrap cannot start a sandbox here' }, () => {
  let w: World;
  before(async () => (w = await world()));
  after(() => rmSync(w.root, { recursive: true, force: true }));
  const payload = (tool: string, input: Record<string, unknown>, event = 'PreToolUse') =>
    JSON.stringify({ session_id: 's', cwd: w.project, hook_event_name: event, tool_name: tool, tool_input: input });
  before(loadBuiltHook);
  /**
   * The hook's answer, from the built hook in this process; with `binary` (one answer per client)
   * also from the installed command's binary, which must answer the same.
   */
  const hook = async (client: HookClientId, input: string, env: NodeJS.ProcessEnv = ON, opts: { binary?: boolean } = {}) => {
    const call = { cwd: w.project, client, input, env: { HOME: w.home, ...env } };
    const answer = await hookInProcess('pre-tool-use', call);
    if (opts.binary) sameAnswer(await hookBinary('pre-tool-use', call), answer, `${client} ${input}`);
    return answer;
  };

  test('Gemini CLI: the command handed back runs the original in the sandbox', async () => {
    const r = await hook(
      'gemini',
      payload(
        'run_shell_command',
        { command: `find ~/.config -name '*.json' > found.txt; xargs cat < found.txt; touch ../outside/new-file; echo ran` },
        'BeforeTool',
      ),
      ON,
      { binary: true },
    );
    // (the files found are read by xargs from a list written at run time: the parser cannot see the credential, the sandbox hides it)
    assert.equal(r.code, 0, r.stderr);
    const command = JSON.parse(r.stdout).hookSpecificOutput.tool_input.command as string;
    assert.match(command, /bwrap/);
    const ran = spawnSync('bash', ['-c', command], { cwd: w.project, encoding: 'utf8', env: { ...process.env, HOME: w.home } });
    assert.match(ran.stdout, /ran/);
    assert.doesNotMatch(ran.stdout + ran.stderr, new RegExp(w.token));
    assert.ok(!existsSync(join(w.outside, 'new-file')), 'nothing was written beside the project');
  });

  test('Codex: allow with the changed input (Codex refuses one without); a patch through the shell is left to Codex', async () => {
    const r = await hook('codex', payload('Bash', { command: 'echo hi' }));
    const out = JSON.parse(r.stdout).hookSpecificOutput;
    assert.equal(out.permissionDecision, 'allow');
    assert.match(out.updatedInput.command, /bwrap/);
    const patch = await hook('codex', payload('Bash', { command: "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\nEOF" }));
    assert.equal(patch.stdout.trim(), '', 'no change: Codex applies it itself');
  });

  test('a denied call stays denied; the sandbox off by choice changes nothing; required without bubblewrap denies with the install line', async () => {
    const denied = await hook('codex', payload('Bash', { command: 'rm -rf /' }), ON, { binary: true });
    assert.equal(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision, 'deny');
    const off = await hook('codex', payload('Bash', { command: 'echo hi' }), { AXME_SANDBOX: 'off' });
    assert.equal(off.stdout.trim(), '');
    const required = await hook('codex', payload('Bash', { command: 'echo hi' }), { AXME_SANDBOX: 'required', AXME_BWRAP: join(w.root, 'no-bwrap') });
    const reason = JSON.parse(required.stdout).hookSpecificOutput.permissionDecisionReason as string;
    assert.match(reason, /sandbox is required here/);
    assert.match(reason, /apt-get install -y bubblewrap/);
  });

  test("Claude Code: init names the prefix script; the hook rewrites it for a secret that appears later; axme's hooks run outside it, commands inside", async () => {
    await axmeInOk(w.project, ['init'], { env: { HOME: w.home, ...ON } });
    const local = JSON.parse(readFileSync(join(w.project, '.claude', 'settings.local.json'), 'utf8'));
    const script = local.env.CLAUDE_CODE_SHELL_PREFIX as string;
    // it names a path of this machine: git ignores it (a global ignore of Claude Code's, or axme's line in info/exclude)
    assert.equal(spawnSync('git', ['check-ignore', '-q', '.claude/settings.local.json'], { cwd: w.project, env: cleanEnv() }).status, 0);
    writeFileSync(join(w.project, '.env.production'), w.token);
    const r = await hook('claude-code', payload('Bash', { command: 'ls' }), ON, { binary: true });
    assert.equal(r.stdout.trim(), '', 'Claude Code is not handed a changed command: its permission rules match the original');
    assert.match(readFileSync(script, 'utf8'), /\.env\.production/);
    // a command as Claude Code wraps it: in the sandbox
    const cmd = spawnSync(
      script,
      [`eval 'cat .env.production ~/.config/gcloud/*; touch ${w.outside}/x 2>&1; echo done' && pwd -P >| /tmp/cc-cwd-${process.pid}`],
      { cwd: w.project, encoding: 'utf8', env: { ...process.env, HOME: w.home } },
    );
    assert.match(cmd.stdout, /done/);
    assert.doesNotMatch(cmd.stdout, new RegExp(w.token));
    assert.match(cmd.stdout, /Read-only file system/);
    // axme's own hook command, whole: outside (it writes the session records)
    const settings = JSON.parse(readFileSync(join(w.project, '.claude', 'settings.json'), 'utf8'));
    const hookCommand = settings.hooks.PreToolUse[0].hooks[0].command as string;
    const outside = spawnSync(script, [hookCommand], {
      cwd: w.project,
      encoding: 'utf8',
      input: payload('Bash', { command: `printf x > ${w.outside}/y` }),
      env: { ...process.env, HOME: w.home, AXME_SANDBOX: 'auto', AXME_BIN: resolve(import.meta.dirname, '../../dist/axme.cjs'), AXME_NODE: process.execPath },
    });
    assert.equal(outside.status, 0, outside.stderr);
    // a command that only looks like the hook does not get out
    const lookalike = spawnSync(script, [`${hookCommand}; touch ${w.outside}/z`], {
      cwd: w.project,
      encoding: 'utf8',
      input: '{}',
      env: { ...process.env, HOME: w.home },
    });
    assert.notEqual(lookalike.status, null);
    assert.throws(() => readFileSync(join(w.outside, 'z')), 'the look-alike ran in the sandbox');
  });

  test("doctor: on, with each client's way in", async () => {
    const check = (await doctorJson(w.project, { HOME: w.home, ...ON })).checks.find((c: any) => c.name === 'sandbox');
    assert.equal(check.status, 'ok', JSON.stringify(check));
    assert.match(check.detail, /Claude Code through its shell prefix/);
    // the sandbox's own check (the one doctor ran above), without bubblewrap
    const m = await sandboxCheck(locateRepo(w.project)!, cleanEnv({ HOME: w.home, ...ON, AXME_BWRAP: join(w.root, 'no-bwrap') }));
    assert.equal(m.status, 'missing');
    assert.match(m.fix ?? '', /apt-get install -y bubblewrap/);
  });
});

describe("the guard's own switch: the hook commands find axme through the launcher first", () => {
  test('node_modules/.bin/axme pointed at /bin/true changes nothing: the hook still denies', async () => {
    mkdirSync(BASE, { recursive: true });
    const root = mkdtempSync(join(BASE, 'switch-'));
    try {
      const project = join(root, 'project');
      mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
      git(project, ['init', '-q', '-b', 'main']);
      git(project, ['-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'first']);
      await axmeInOk(project, ['init'], { env: { HOME: root } });
      assert.ok(existsSync(join(project, '.git', 'axme', 'launcher')), 'init recorded the launcher');
      symlinkSync('/bin/true', join(project, 'node_modules', '.bin', 'axme'));
      const settings = JSON.parse(readFileSync(join(project, '.claude', 'settings.json'), 'utf8'));
      const command = settings.hooks.PreToolUse[0].hooks[0].command as string;
      const env = { ...cleanEnv({ HOME: root }), AXME_BIN: '', AXME_NODE: '' };
      const r = spawnSync('/bin/sh', ['-c', command], {
        cwd: project,
        env,
        encoding: 'utf8',
        input: JSON.stringify({ session_id: 's', cwd: project, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } }),
      });
      assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'deny', r.stdout + r.stderr);
      const found = (await doctorJson(project, { HOME: root, AXME_BIN: '', AXME_NODE: '' })).checks.find((c: any) => c.name === 'axme found');
      assert.equal(found.status, 'ok', JSON.stringify(found));
      assert.match(found.detail, /launcher/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

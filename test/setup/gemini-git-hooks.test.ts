import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axmeGitHooksPath } from '../../src/hooks/git-hooks-path.ts';
import { gitHooksPath } from '../../src/hooks/store-work.ts';
import { GIT_HOOK_MARK } from '../../src/model/hook-names.ts';
import { gitHooksOn, mayRunGitHooks } from '../../src/setup/clients/gemini.hook.ts';
import { hookCommand } from '../../src/setup/launch.ts';
import { axmeOk, cleanEnv, git, tempRepo } from '../helpers.ts';

/**
 * Gemini CLI runs the agent's shell commands with every git hook switched off: `GIT_CONFIG_*`
 * overrides appended after any there are, `core.hooksPath` set to '' among them, and the global and
 * system git config files at /dev/null (0.61: shellExecutionService, getSafeGitEnv). axme's
 * BeforeTool answer hands back a command that may run git with one more override, setting
 * `core.hooksPath` back to where axme's git hooks are. Real git, real hooks, Gemini's environment.
 */

/** The environment Gemini CLI 0.61 runs a shell command in, over `base` (its own GIT_CONFIG_* overrides appended after base's). */
function geminiShellEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...base,
    GEMINI_CLI: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_SYSTEM: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    PAGER: 'cat',
    GIT_PAGER: 'cat',
  };
  const overrides = [
    ['credential.helper', ''],
    ['core.fsmonitor', ''],
    ['core.hooksPath', ''],
    ['core.sshCommand', ''],
    ['core.pager', 'cat'],
    ['core.editor', ''],
    ['sequence.editor', ''],
    ['diff.external', ''],
  ];
  let n = Number(env.GIT_CONFIG_COUNT ?? 0);
  for (const [key, value] of overrides) {
    env[`GIT_CONFIG_KEY_${n}`] = key;
    env[`GIT_CONFIG_VALUE_${n}`] = value;
    n++;
  }
  env.GIT_CONFIG_COUNT = String(n);
  return env;
}

describe("Gemini CLI: git hooks back on for the agent's git commands", () => {
  let dir: string;
  let cleanup: () => void;
  // an override of the user's own before Gemini's: the one axme adds goes after both
  const base = cleanEnv({ GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'user.name', GIT_CONFIG_VALUE_0: 'Override User' });
  const env = geminiShellEnv(base);
  const beforeTool = (toolInput: Record<string, unknown>, cwd = dir) =>
    spawnSync('/bin/sh', ['-c', hookCommand('pre-tool-use', 'gemini')], {
      cwd,
      env: cleanEnv(),
      input: JSON.stringify({
        session_id: 'gemini-git',
        transcript_path: null,
        cwd,
        hook_event_name: 'BeforeTool',
        timestamp: '2026-11-25T10:00:00.000Z',
        tool_name: 'run_shell_command',
        tool_input: toolInput,
      }),
      encoding: 'utf8',
    });
  /** The command Gemini runs after axme's answer (the original when the answer changes nothing). */
  const answered = (command: string, extra: Record<string, unknown> = {}): { command: string; answer: Record<string, any> } => {
    const r = beforeTool({ command, description: 'run it', ...extra });
    assert.equal(r.status, 0, r.stderr);
    const answer = JSON.parse(r.stdout) as Record<string, any>;
    assert.equal(answer.decision, undefined, `no deny: ${r.stdout}`);
    const input = answer.hookSpecificOutput?.tool_input as Record<string, unknown> | undefined;
    if (input) assert.deepEqual({ ...input, command: undefined }, { command: undefined, description: 'run it', ...extra }, 'the rest of the input as it was');
    return { command: (input?.command as string | undefined) ?? command, answer };
  };
  const bash = (command: string, cwd = dir) => spawnSync('bash', ['-c', command], { cwd, env, encoding: 'utf8' });

  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    await axmeOk(dir, ['init', '--agent', 'gemini', '--no-scan', '--no-fetch-config']);
    // the test process plays Gemini CLI: it starts the session, then runs the agent's commands (its ancestor owns the session)
    const start = spawnSync('/bin/sh', ['-c', hookCommand('session-start', 'gemini')], {
      cwd: dir,
      env: cleanEnv(),
      input: JSON.stringify({ session_id: 'gemini-git', transcript_path: null, cwd: dir, hook_event_name: 'SessionStart', source: 'startup' }),
      encoding: 'utf8',
    });
    assert.equal(start.status, 0, start.stderr);
  });
  after(() => cleanup());

  test("without the answer, Gemini's environment runs no git hook: an agent's commit without the marker goes through", () => {
    const r = bash('git commit -q --allow-empty -m "no marker, hooks off"');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(git(dir, ['log', '-1', '--format=%s']).trim(), 'no marker, hooks off');
  });

  test('the rewritten command runs the commit-msg hook: a commit without the marker is refused, one with it gets its trailers', () => {
    // a commit the command line does not show (a script's): the safety hook cannot see it, only the git hooks can
    writeFileSync(join(dir, 'commit.sh'), 'git commit -q --allow-empty -m "from a script, no marker"\n');
    const { command, answer } = answered('git log -1 --format=%h >/dev/null && sh commit.sh');
    assert.equal(answer.hookSpecificOutput.hookEventName, 'BeforeTool');
    assert.match(command, /core\.hooksPath/);
    const refused = bash(command);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /needs its PR metadata/);
    assert.notEqual(git(dir, ['log', '-1', '--format=%s']).trim(), 'from a script, no marker');
    // without the answer the same command commits: Gemini had the hooks off
    assert.equal(bash('git log -1 --format=%h >/dev/null && sh commit.sh').status, 0);
    const marked = answered('git commit -q --allow-empty -m "with a marker" -m "#!axme pr=none repo=acme/app"');
    const ok = bash(marked.command);
    assert.equal(ok.status, 0, ok.stderr);
    assert.equal(git(dir, ['log', '-1', '--format=%s']).trim(), 'with a marker');
    assert.match(git(dir, ['log', '-1', '--format=%B']), /^Axme-Repo: acme\/app$/m, 'the commit-msg hook turned the marker into trailers');
    // Gemini's other overrides and the user's own are still in force; only the hooks are back
    const hooks = realpathSync(join(dir, '.git', 'hooks'));
    assert.equal(bash(gitHooksOn('git config user.name; git config core.pager; git config core.hooksPath', hooks)).stdout, `Override User\ncat\n${hooks}\n`);
  });

  test("the original command runs unchanged in bash (its own cd, output, exit status, arguments); the change passes Gemini's command substitution check", () => {
    mkdirSync(join(dir, 'sub'), { recursive: true });
    for (const original of [
      'cd sub && pwd && git rev-parse --show-prefix; echo done >&2; exit 3',
      'git status --short >/dev/null; printf "%s|%s|%s\\n" "$#" "$0" "$?"',
      'false || git stash list | head -c 3',
      "git log -1 --format='%s' | sed 's/a/A/'",
    ]) {
      const { command } = answered(original);
      assert.ok(command.endsWith(`; ${original}`), 'the original follows, as it was');
      // Gemini CLI refuses a command holding $(, backticks, <( or >( outside single quotes (detectBashSubstitution)
      assert.doesNotMatch(command.slice(0, -original.length), /\$\(|`|[<>]\(/);
      // Gemini runs it as `bash -c` after its own `shopt -u …;` guard
      const was = spawnSync('bash', ['-c', `shopt -u promptvars nullglob extglob nocaseglob dotglob; ${original}`], { cwd: dir, env, encoding: 'utf8' });
      const now = spawnSync('bash', ['-c', `shopt -u promptvars nullglob extglob nocaseglob dotglob; ${command}`], { cwd: dir, env, encoding: 'utf8' });
      assert.deepEqual([now.status, now.stdout, now.stderr], [was.status, was.stdout, was.stderr], original);
    }
  });

  test('a command in a sub-folder (dir_path) finds the repository there; no git named, or no axme git hooks: no change', async () => {
    const sub = answered('git status --short >/dev/null && sh ../commit.sh', { dir_path: 'sub' });
    assert.equal(bash(sub.command, join(dir, 'sub')).status, 1, 'the hooks of the repository the call runs in');
    // what cannot fire a git hook is left for Gemini to approve as it would
    assert.deepEqual(answered('ls -la && git status --short').answer, {}, 'read-only programs and git subcommands');
    const other = tempRepo({ commit: true });
    try {
      await axmeOk(other.dir, ['init', '--agent', 'gemini', '--no-scan', '--no-fetch-config', '--no-git-hooks']);
      const r = beforeTool({ command: 'sh commit.sh' }, other.dir);
      assert.deepEqual(JSON.parse(r.stdout), {}, "no axme git hooks there: Gemini's choice stands");
    } finally {
      other.cleanup();
    }
  });

  test('which commands may fire git hooks: any but read-only programs and hook-free git subcommands; anything not read for sure counts', () => {
    const cases: Array<[string, boolean]> = [
      ['git status', false],
      ['ls -la | grep x && cat README.md; pwd', false],
      ['git -C sub --no-pager log --format=%h -3', false],
      ['GIT_PAGER=cat git diff HEAD~1 > out.txt', false],
      ["echo 'a; git commit -m x'", false],
      ['git commit -m x', true],
      ['git push origin main', true],
      ['git -c core.hooksPath=/dev/null commit -m x', true],
      ['sh scripts/commit.sh', true],
      ['npm version patch', true],
      ['ls && make release', true],
      ['echo $(git commit -m x)', true],
      ['echo `git push`', true],
      ['(cd sub && git commit -m x)', true],
      ['"git" commit -m x', true],
      ['echo "unclosed', true],
    ];
    for (const [command, expected] of cases) assert.equal(mayRunGitHooks(command), expected, command);
  });

  test("where axme's git hooks are: the hooks folder git runs, husky's `.husky/_` with axme's line in `.husky/<hook>`, a folder of the user's config; overrides in the environment do not count", async () => {
    const found = async (at: string, over: NodeJS.ProcessEnv = {}) => {
      const e = { ...env, ...over };
      const path = await axmeGitHooksPath(at, e, (d) => gitHooksPath(d, e));
      return path && realpathSync(path);
    };
    assert.equal(await found(join(dir, 'sub')), realpathSync(join(dir, '.git', 'hooks')));
    const husky = tempRepo({ commit: true });
    try {
      mkdirSync(join(husky.dir, '.husky', '_'), { recursive: true });
      git(husky.dir, ['config', 'core.hooksPath', '.husky/_']);
      assert.equal(await found(husky.dir), null, "husky without axme's line");
      writeFileSync(join(husky.dir, '.husky', 'commit-msg'), `#!/bin/sh\naxme git-hook commit-msg "$1" ${GIT_HOOK_MARK}\n`);
      assert.equal(await found(husky.dir), realpathSync(join(husky.dir, '.husky', '_')));
      // a hooks folder set where only git can tell (an included config file): git is asked
      writeFileSync(join(husky.dir, '.git', 'hooks-path.inc'), '[core]\n\thooksPath = .husky/_\n');
      git(husky.dir, ['config', '--unset', 'core.hooksPath']);
      git(husky.dir, ['config', 'include.path', 'hooks-path.inc']);
      assert.equal(await found(husky.dir), realpathSync(join(husky.dir, '.husky', '_')));
      // a team's folder outside the repository (`axme init --hooks-path`), from the user's git config
      git(husky.dir, ['config', '--unset', 'include.path']);
      const team = join(husky.dir, '.git', 'team-hooks');
      mkdirSync(team);
      writeFileSync(join(team, 'pre-push'), `#!/bin/sh\n${GIT_HOOK_MARK}\n`);
      const global = join(husky.dir, '.git', 'global-config');
      writeFileSync(global, `[core]\n\thooksPath = ${team}\n`);
      assert.equal(await found(husky.dir, { GIT_CONFIG_GLOBAL: global }), realpathSync(team));
      // an include there too: git itself is asked
      writeFileSync(join(husky.dir, '.git', 'team.inc'), `[core]\n\thooksPath = ${team}\n`);
      writeFileSync(global, `[include]\n\tpath = ${join(husky.dir, '.git', 'team.inc')}\n`);
      assert.equal(await found(husky.dir, { GIT_CONFIG_GLOBAL: global }), realpathSync(team));
    } finally {
      husky.cleanup();
    }
    assert.equal(await found('/'), null, 'no repository');
  });
});

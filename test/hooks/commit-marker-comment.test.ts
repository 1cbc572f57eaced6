import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { typedCommits } from '../../src/hooks/git/command-marker.ts';
import { axmeOk, cleanEnv, git, tempRepo } from '../helpers.ts';
import { hookInProcess } from './hook-in-process.ts';

/**
 * The `#!axme` marker an agent ends its `git commit` command with, as a shell comment — the form
 * the instructions (CLAUDE.md, AGENTS.md), the session's context and the guard's own reason give.
 * The shell drops the comment before git runs; the pre-tool-use hook, which reads the command,
 * leaves the marker for the commit-msg hook. Each call here goes through the built pre-tool-use
 * hook (Claude Code's payload), then runs through a real shell as the clients' shell tools start
 * it (`bash -c`, Codex's `bash -lc`, Claude Code's `eval '…'` wrapper), with CLAUDECODE=1 set, so
 * the marker is required.
 */

let n = 0;
/**
 * An agent's shell call: `command` (built around a fresh file's commit by `typed`) through the
 * pre-tool-use hook, then, as the client would run it, `shape` of it through `shell` in `dir` (no
 * hook for a person's); its exit, stderr and the new commit's message.
 */
async function commitThrough(dir: string, shell: string[], typed: (commit: string) => string, opts: { agent?: boolean; shape?: (c: string) => string } = {}) {
  const agent = opts.agent ?? true;
  const file = `f${++n}.txt`;
  writeFileSync(join(dir, file), `${n}\n`);
  git(dir, ['add', file]);
  const command = typed(`git commit -q -m "Change ${n}"`);
  if (agent) {
    const input = JSON.stringify({ session_id: 's1', hook_event_name: 'PreToolUse', cwd: dir, tool_name: 'Bash', tool_input: { command } });
    const hook = await hookInProcess('pre-tool-use', { cwd: dir, input, env: { CLAUDECODE: '1' } });
    assert.doesNotMatch(hook.stdout, /"deny"/, `the guard denied ${command}: ${hook.stdout}`);
  }
  const line = (opts.shape ?? ((c) => c))(command);
  const r = spawnSync(shell[0]!, [...shell.slice(1), line], { cwd: dir, env: cleanEnv(agent ? { CLAUDECODE: '1' } : {}), encoding: 'utf8' });
  const message = git(dir, ['log', '-1', '--format=%B']);
  return { status: r.status, stderr: r.stderr, message, committed: message.startsWith(`Change ${n}`) };
}

/** Claude Code's Bash tool: the command inside `eval '…'`, its quotes escaped, between a snapshot's source and a pwd. */
const claudeShape = (command: string) =>
  `source /dev/null 2>/dev/null || true && eval '${command.replaceAll("'", `'"'"'`)}' \\< /dev/null && pwd -P >| /dev/null`;

describe('commit-msg: the #!axme marker as a shell comment at the end of the git commit command', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    await axmeOk(dir, ['init', '--no-claude', '--json']);
  });
  after(() => cleanup());

  const marked = (c: string) => `${c} #!axme pr=none repo=acme/app`;
  const shapes: Array<[string, string[], (c: string) => string, ((c: string) => string)?]> = [
    ['bash -c (Gemini CLI; Claude Code under its shell prefix)', ['bash', '-c'], marked],
    ["Codex's bash -lc (one command: bash runs git in its own place)", ['bash', '-lc'], marked],
    ["Claude Code's eval wrapper", ['bash', '-c'], marked, claudeShape],
    ['after git add on the same line, keys in the other order', ['sh', '-c'], (c) => `git add -A && ${c} #!axme repo=acme/app pr=none`],
  ];
  for (const [name, shell, typed, shape] of shapes)
    test(`${name}: the commit is made and carries the marker's trailers`, async () => {
      const r = await commitThrough(dir, shell, typed, { shape });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.message, /^Axme-PR: none$/m);
      assert.match(r.message, /^Axme-Repo: acme\/app$/m);
      assert.doesNotMatch(r.message, /#!axme/);
    });

  test("a marker followed by another command on the next line: still the commit's", async () => {
    const r = await commitThrough(dir, ['bash', '-c'], (c) => `${c} #!axme pr=none repo=acme/other\ngit status >/dev/null`);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.message, /^Axme-Repo: acme\/other$/m);
  });

  test("a commit the typed one does not name (another message, a script's) gets no marker: rejected with the format", async () => {
    await commitThrough(dir, ['bash', '-c'], marked);
    writeFileSync(join(dir, 'late.txt'), 'x\n');
    git(dir, ['add', 'late.txt']);
    const r = spawnSync('bash', ['-c', 'git commit -q -m "Another message"'], { cwd: dir, env: cleanEnv({ CLAUDECODE: '1' }), encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /needs its PR metadata/);
  });

  test('a marker in the message still wins over the comment', async () => {
    const r = await commitThrough(dir, ['bash', '-c'], (c) => `${c} -m "#!axme pr=none repo=acme/msg" #!axme pr=none repo=acme/app`);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.message, /^Axme-Repo: acme\/msg$/m);
  });
});

describe('typedCommits: the git commits of a command line that end with a marker, as the shell hands git its arguments', () => {
  const home = '/home/u';
  test('the commit ending with the comment, through eval and sh -c bodies', () => {
    assert.deepEqual(typedCommits('git add -A && git commit -q -m "a b" #!axme pr=3 repo=a/b', home), [
      { args: ['commit', '-q', '-m', 'a b'], marker: '#!axme pr=3 repo=a/b' },
    ]);
    assert.deepEqual(typedCommits(`eval 'git commit -m "it'"'"'s" #!axme pr=none repo=a/b' && pwd`, home), [
      { args: ['commit', '-m', "it's"], marker: '#!axme pr=none repo=a/b' },
    ]);
    assert.deepEqual(typedCommits(`sh -c 'git -C sub commit -m x #!axme pr=none repo=a/b'`, home), [
      { args: ['-C', 'sub', 'commit', '-m', 'x'], marker: '#!axme pr=none repo=a/b' },
    ]);
  });
  test("none for another git command's marker, a malformed one, or one in quoted text", () => {
    assert.deepEqual(typedCommits('git commit -m a && git push #!axme pr=none repo=a/b', home), []);
    assert.deepEqual(typedCommits('git commit -m a #!axme pr=none', home), []);
    assert.deepEqual(typedCommits('echo "#!axme pr=none repo=a/b"; git commit -m a', home), []);
  });
});

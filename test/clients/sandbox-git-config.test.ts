/**
 * git's settings under the kernel sandbox in the real clients (docs/safety.md, "git's settings"):
 * the scripted model runs `git push -u origin feat` and `git remote add up https://…`, and the
 * tracking and the remote are recorded although `.git/config` stays read-only in the sandbox —
 * Claude Code through its shell prefix and the hook's one-time grant, Codex and Gemini CLI through
 * the command the hook hands back. The user's identity and a setting that runs a program stay unset.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { git, sandboxWorldBase } from '../helpers.ts';
import { anthropicFormat, resultOfStep as claudeResult } from './anthropic.ts';
import { describeRun, runClaude } from './claude-code.ts';
import { codexHome, runCodex } from './codex.ts';
import { explain, runGemini } from './gemini.ts';
import { resultOfStep as geminiResult, geminiWire } from './gemini-wire.ts';
import { type ScriptedModel, startModel, type WireFormat } from './model-server.ts';
import { openai, resultOf } from './openai.ts';
import { axmeAsDevDependency, type ClientWorld, cleanupWorld, clientWorld, inClientWorld } from './project.ts';

const BASE = sandboxWorldBase();
const ON = { AXME_SANDBOX: 'auto' };
const TEST = { timeout: 600_000 };
const bwrapWorks = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--', '/bin/true']).status === 0;

const COMMANDS = [
  'git push -u origin feat #!axme pr=none repo=acme/demo',
  'git remote add up https://example.com/team/up.git',
  'git config user.name "Agent Smith"',
  'git config core.pager ./pager; echo pager-set',
];

/** A world whose `origin` is a bare repository in the temp folder (writable in the sandbox: the push lands) and a branch `feat` to push. */
async function inWorld(agents: string, format: WireFormat, fn: (w: ClientWorld, m: ScriptedModel) => Promise<void>): Promise<void> {
  const remoteDir = mkdtempSync(join(tmpdir(), 'axme-client-remote-'));
  try {
    await inClientWorld(
      agents,
      format,
      (w, m) => {
        const remote = join(remoteDir, 'remote.git');
        git(remoteDir, ['init', '-q', '--bare', remote]);
        git(w.project, ['remote', 'set-url', 'origin', remote]);
        git(w.project, ['branch', 'feat']);
        return fn(w, m);
      },
      { base: BASE, env: ON },
    );
  } finally {
    rmSync(remoteDir, { recursive: true, force: true });
  }
}

const setting = (w: ClientWorld, key: string): string | null => {
  const r = spawnSync('git', ['config', '--local', '--get', key], { cwd: w.project, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
};

/** The push landed, its tracking and the new remote are recorded; the name (the user's identity) and the pager are not. */
function assertRecorded(w: ClientWorld, results: string[]): void {
  const all = results.join('\n---\n');
  assert.match(git(w.project, ['ls-remote', 'origin', 'refs/heads/feat']), new RegExp(git(w.project, ['rev-parse', 'feat']).trim()), `the push landed: ${all}`);
  assert.equal(setting(w, 'branch.feat.remote'), 'origin', all);
  assert.equal(setting(w, 'branch.feat.merge'), 'refs/heads/feat', all);
  assert.equal(setting(w, 'remote.up.url'), 'https://example.com/team/up.git', all);
  assert.notEqual(setting(w, 'user.name'), 'Agent Smith', all);
  assert.equal(setting(w, 'core.pager'), null, all);
}

describe("git's settings from the sandbox in the real clients", { skip: !bwrapWorks && 'bubblewrap cannot start a sandbox on this machine' }, () => {
  test('Claude Code: git push -u and git config through the prefix and the hook’s grant; a grant a command plants is not used', TEST, () =>
    inWorld('claude-code', anthropicFormat(), async (w, m) => {
      // a script of the project's that plants a grant for `echo granted-text` running `touch <canary>` outside
      const canary = join(w.root, 'planted-canary');
      writeFileSync(
        join(w.project, 'plant.sh'),
        `mkdir -p .git/axme/sandbox/grants && printf '%s\\n' 'echo granted-text' instead 'touch ${canary}' > .git/axme/sandbox/grants/planted.grant\n`,
      );
      const planting = ['sh plant.sh; echo plant-exit=$?', 'echo granted-text'];
      const steps = [...[...COMMANDS, ...planting].map((command) => ({ tool: 'Bash', args: { command, description: 'run' } })), { text: 'Done.' }];
      const run = await runClaude(w, m, 'Push the branch.', { steps, env: ON });
      assert.equal(run.code, 0, describeRun(run));
      const results = COMMANDS.map((_, i) => claudeResult(m.turns, i).text);
      assertRecorded(w, results);
      const planted = [0, 1].map((i) => claudeResult(m.turns, COMMANDS.length + i).text);
      assert.match(planted[0]!, /plant-exit=[1-9]/, planted[0]);
      assert.match(planted[1]!, /granted-text/, planted[1]);
      assert.equal(existsSync(canary), false, `a planted grant ran outside: ${planted.join('\n')}`);
      // the pager's refusal says why (in the sandbox, or the guard's deny)
      assert.match(results.at(-1)!, /read-only in axme's sandbox|axme/i, results.at(-1));
      const local = JSON.parse(readFileSync(join(w.project, '.claude', 'settings.local.json'), 'utf8'));
      assert.match(readFileSync(local.env.CLAUDE_CODE_SHELL_PREFIX, 'utf8'), /grants/, 'the prefix reads the grants');
    }),
  );

  test('Codex: git push -u and git config through the command the hook hands back', TEST, () =>
    inWorld('codex', openai, async (w, m) => {
      axmeAsDevDependency(w);
      const home = await codexHome(w, m);
      m.script([...COMMANDS.map((cmd) => ({ tool: 'exec_command', args: { cmd } })), { text: 'Done.' }]);
      const run = await runCodex(w, home, 'Push the branch.', { env: ON });
      assert.equal(run.code, 0, run.stderr);
      assertRecorded(
        w,
        ['feat', 'up.git', 'Agent Smith', 'pager-set'].map((needle) => resultOf(m.turns, needle) ?? ''),
      );
    }),
  );

  test('Gemini CLI: git push -u and git config through the command the hook hands back (git hooks on)', TEST, () =>
    inWorld('gemini', geminiWire, async (w, m) => {
      m.script([...COMMANDS.map((command) => ({ tool: 'run_shell_command', args: { command } })), { text: 'Done.' }]);
      const run = await runGemini(w, m, 'Push the branch.', { env: ON });
      assert.equal(run.code, 0, explain(run));
      assertRecorded(
        w,
        COMMANDS.map((_, i) => JSON.stringify(geminiResult(m.turns, i))),
      );
    }),
  );
});

/**
 * Claude Code with the kernel sandbox on and AXME_NODE set but empty (h/firstday6 saw the model's
 * saves fail with EROFS then, and work with it unset): Claude Code expands `${AXME_NODE:-…}` in
 * .mcp.json to the empty value, the prefix script must expand its copy of the server's line the
 * same way, or the line does not match and axme's MCP server runs inside the sandbox.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { git, sandboxWorldBase } from '../helpers.ts';
import { anthropic, resultOfStep } from './anthropic.ts';
import { describeRun, runClaude } from './claude-code.ts';
import { startModel } from './model-server.ts';
import { cleanupWorld, clientWorld } from './project.ts';

const ON = { AXME_SANDBOX: 'auto' };
const bwrapWorks = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--', '/bin/true']).status === 0;

describe("axme's MCP server in Claude Code with AXME_NODE=''", { skip: !bwrapWorks && 'bubblewrap cannot start a sandbox on this machine' }, () => {
  test('runs outside the sandbox: the decision the model saves lands on refs/memory/main', { timeout: 600_000 }, async () => {
    const w = await clientWorld('claude-code', { base: sandboxWorldBase(), env: ON });
    const m = await startModel(anthropic);
    try {
      const tip = git(w.project, ['rev-parse', 'refs/memory/main']).trim();
      const run = await runClaude(w, m, 'Record the logging decision.', {
        env: { ...ON, AXME_NODE: '' },
        steps: [
          { tool: 'mcp__axme__axme_save_decision', args: { title: 'Log as JSON lines', decision: 'Every service logs one JSON object a line.' } },
          { text: 'Recorded.' },
        ],
      });
      assert.equal(run.code, 0, describeRun(run));
      const saved = resultOfStep(m.turns, 0);
      assert.equal(saved.isError, false, saved.text);
      assert.match(git(w.project, ['log', '--format=%s', `${tip}..refs/memory/main`]), /Log as JSON lines/);
    } finally {
      await m.close();
      await cleanupWorld(w);
    }
  });
});

/**
 * Claude Code with axme's kernel sandbox on (the default where bubblewrap runs): Claude Code starts
 * the project's MCP servers through CLAUDE_CODE_SHELL_PREFIX as it does its hooks, as one command
 * line (`sh -c '<.mcp.json's script, its ${…} expanded>'`). axme's server must run outside the
 * sandbox, as the hooks do: inside it the store is read-only (every write the model asks for fails)
 * and no process of the session is seen (the server took the session for an orphan and set it
 * aside while it ran).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { axmeInOk } from '../cli-in-process.ts';
import { cleanEnv, git, sandboxWorldBase } from '../helpers.ts';
import { anthropic, resultOfStep } from './anthropic.ts';
import { describeRun, runClaude } from './claude-code.ts';
import { startModel } from './model-server.ts';
import { cleanupWorld, clientWorld } from './project.ts';

const ON = { AXME_SANDBOX: 'auto' };
const TEST = { timeout: 600_000 };
const bwrapWorks = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--', '/bin/true']).status === 0;

describe("axme's MCP server in Claude Code with the kernel sandbox on", { skip: !bwrapWorks && 'bubblewrap cannot start a sandbox on this machine' }, () => {
  test('runs outside the sandbox: a decision the model saves lands on refs/memory/main; the session is not set aside while it runs', TEST, async (t) => {
    const w = await clientWorld('claude-code', { base: sandboxWorldBase(), env: ON });
    const m = await startModel(anthropic);
    try {
      const tip = git(w.project, ['rev-parse', 'refs/memory/main']).trim();
      const run = await runClaude(w, m, 'Record the logging decision.', {
        env: ON,
        steps: [
          {
            tool: 'mcp__axme__axme_save_decision',
            args: { title: 'Log as JSON lines', decision: 'Every service logs one JSON object a line.', reasoning: 'The collector parses them.' },
          },
          { tool: 'Bash', args: { command: 'test -w / && echo ROOT-WRITABLE || echo ROOT-READ-ONLY', description: 'Check the shell' } },
          { text: 'Recorded.' },
        ],
      });
      assert.equal(run.code, 0, describeRun(run));
      assert.equal(m.remaining(), 0, describeRun(run));
      await t.test('the model is told the decision was saved, and it is in the store', () => {
        const saved = resultOfStep(m.turns, 0);
        assert.equal(saved.isError, false, saved.text);
        assert.match(saved.text, /Decision saved: D-\d+ - Log as JSON lines/);
        assert.match(git(w.project, ['log', '--format=%s', `${tip}..refs/memory/main`]), /Log as JSON lines/);
      });
      await t.test('a Bash command still runs in the sandbox', () => {
        // (what the sandbox holds is sandbox.test.ts's)
        assert.equal(resultOfStep(m.turns, 1).text.trim(), 'ROOT-READ-ONLY');
      });
      await t.test("the session is Claude Code's alone, never set aside while it ran", async () => {
        const sessions: any[] = await axmeInOk(w.project, ['session', 'list', '--json'], { env: { HOME: w.home } });
        assert.deepEqual(
          sessions.map((s) => s.harness),
          ['claude-code'],
          `a server that cannot see the session opens one of its own: ${JSON.stringify(sessions)}`,
        );
        assert.notEqual(sessions[0].status, 'discarded', JSON.stringify(sessions[0]));
      });
      await t.test("a command that only holds the server's command line runs in the sandbox", () => {
        const prefix = JSON.parse(readFileSync(join(w.project, '.claude', 'settings.local.json'), 'utf8')).env.CLAUDE_CODE_SHELL_PREFIX as string;
        const { command, args } = JSON.parse(readFileSync(join(w.project, '.mcp.json'), 'utf8')).mcpServers.axme;
        const line = [command, args[0], `'${String(args[1]).replaceAll("'", `'"'"'`)}'`].join(' ');
        const escaped = join(w.root, 'escaped');
        // stdin closed: the server it starts (in the sandbox) ends at once
        const r = spawnSync(prefix, [`touch ${escaped}; ${line}`], {
          cwd: w.project,
          input: '',
          encoding: 'utf8',
          timeout: 60_000,
          env: cleanEnv({ HOME: w.home, ...ON }),
        });
        assert.equal(r.error, undefined, String(r.error));
        assert.equal(existsSync(escaped), false, `the look-alike ran outside the sandbox\n${r.stderr}`);
      });
    } finally {
      await m.close();
      await cleanupWorld(w);
    }
  });
});

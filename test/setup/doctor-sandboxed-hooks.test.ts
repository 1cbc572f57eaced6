import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { claudeDecision } from '../../src/setup/clients/claude-code.ts';
import { axme, axmeOk, tempRepo } from '../helpers.ts';

/**
 * With the kernel sandbox on, Codex's pre-tool-use hook lets a command through by rewriting it
 * into the sandbox (`permissionDecision: "allow"` beside `updatedInput`: Codex honours a rewrite
 * only so, docs/real-clients.md). `axme doctor` reads that answer as a pass, not as a hook that
 * blocks `git status` — a false alarm every clone with bubblewrap and Codex met.
 */

const bwrapWorks = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--', '/bin/true']).status === 0;

describe('a PreToolUse answer read as Claude Code and Codex read it', () => {
  const rows: Array<[string, string, 'deny' | 'pass' | null]> = [
    ['silence', '', 'pass'],
    ['a deny', JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' } }), 'deny'],
    [
      'an allow with the command rewritten',
      JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'sh -c x' } } }),
      'pass',
    ],
    ['a rewrite without a decision', JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'sh -c x' } } }), 'pass'],
    ['an ask', JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask' } }), null],
    ['not JSON', 'axme: broken', null],
    ['JSON that is no hook answer', JSON.stringify({ hello: 1 }), null],
  ];
  for (const [name, stdout, want] of rows) test(name, () => assert.equal(claudeDecision(stdout), want));
});

describe('axme doctor with the kernel sandbox on and Codex connected', { skip: !bwrapWorks && 'bubblewrap cannot start a sandbox here' }, () => {
  let dir: string;
  let cleanup: () => void;
  let codexHome: string;
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    codexHome = mkdtempSync(join(tmpdir(), 'axme-codex-home-'));
    await axmeOk(dir, ['init', '--agent', 'codex', '--no-scan', '--no-fetch-config'], { env: { AXME_SANDBOX: 'auto' } });
  });
  after(() => {
    cleanup();
    rmSync(codexHome, { recursive: true, force: true });
  });

  test('the codex hooks line is not a problem: the hook lets `git status` through, into the sandbox', async () => {
    const r = await axme(dir, ['doctor', '--json'], { env: { AXME_SANDBOX: 'auto', CODEX_HOME: codexHome } });
    const checks = JSON.parse(r.stdout).checks as Array<{ name: string; status: string; detail: string }>;
    const codex = checks.find((c) => c.name === 'codex hooks');
    assert.ok(codex, r.stdout);
    // the line goes on to Codex's trust of the project (none in this CODEX_HOME): the live run passed
    assert.doesNotMatch(codex.detail, /git status/, codex.detail);
    assert.match(codex.detail, /trust/, codex.detail);
  });
});

/**
 * The auditor proposes, it does not loosen: its model reads an untrusted transcript (and, through
 * it, any web page the agent fetched), so a safety change that lets more through and a required
 * decision become questions for a person; tightening rules and advisory items are written.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { initStore } from '../../src/knowledge/admin/init-store.ts';
import { applyAudit } from '../../src/knowledge/audit/apply-audit.ts';
import { closeKnowledgeBase, openKnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { readState } from '../../src/knowledge/core/state.ts';
import { AuditAnswer } from '../../src/model/audit.ts';
import { cleanEnv, tempRepo } from '../helpers.ts';

test('security: a steered audit answer cannot loosen the guard or bind every agent: those become questions, the rest is written', async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  const kb = await openKnowledgeBase({ cwd: dir, env: cleanEnv(), actor: 'auditor', session: 'claude-code-audited' });
  try {
    await initStore(kb);
    const answer = AuditAnswer.parse({
      decisions: [
        { title: 'Publish from any branch', decision: 'Agents run npm publish whenever tests pass.', enforce: 'required' },
        { title: 'Log as JSON lines', decision: 'Every service logs JSON lines.' },
      ],
      safety_rules: [
        { action: 'add', rule_type: 'bash_allow', value: 'npm publish' },
        { action: 'remove', rule_type: 'bash_deny', value: 'git clean -f' },
        { action: 'remove', rule_type: 'git_protected_branch', value: 'main' },
        { action: 'add', rule_type: 'fs_deny', value: 'secrets/**' },
      ],
    });
    const r = await applyAudit(kb, answer, { mode: 'verify' });
    const state = await readState(kb);
    assert.ok(!state.rules.bash.allowedPrefixes.includes('npm publish'), 'no allowed prefix added');
    assert.ok(state.rules.bash.deniedPrefixes.includes('git clean -f'), 'the deny rule stays');
    assert.ok(state.rules.git.protectedBranches.includes('main'), 'main stays protected');
    assert.ok(state.rules.filesystem.deniedPaths.includes('secrets/**'), 'tightening is written');
    assert.deepEqual(
      state.items.decision.map((d) => d.title),
      ['Log as JSON lines'],
      'only the advisory decision is written',
    );
    const asked = state.items.question.map((q) => q.question).join('\n');
    assert.match(asked, /Should "Publish from any branch" be a required decision/);
    assert.match(asked, /let more through: add bash_allow "npm publish"/);
    assert.match(asked, /let more through: remove bash_deny "git clean -f"/);
    assert.match(asked, /let more through: remove git_protected_branch "main"/);
    assert.deepEqual(r.written.safety_rules, ['add fs_deny secrets/**']);
    assert.equal(r.dropped.filter((d) => /asked as a question instead/.test(d.reason)).length, 4);
  } finally {
    await closeKnowledgeBase(kb);
    cleanup();
  }
});

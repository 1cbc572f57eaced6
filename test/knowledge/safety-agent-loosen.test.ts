import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { safetyAdd, safetyReset, safetySet } from '../../src/operations/safety/edits.ts';
import { coreAt, rejectsWith, runOp } from '../core.ts';
import { git, tempRepo } from '../helpers.ts';

const agent = { actor: 'agent' as const, session: '20261203-0000safe' };
const tip = (dir: string) => git(dir, ['rev-parse', 'refs/memory/main']).trim();

describe("an agent's safety set and reset loosen nothing", () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    await coreAt(dir).init({ scan: false });
  });
  after(() => cleanup());

  test('a set that loosens and a reset that drops a rule are NOT_ALLOWED for an agent; tightening is open; a person may', async () => {
    await runOp(dir, safetyAdd, { rule_type: 'bash_deny', value: 'make deploy' });
    const before = tip(dir);
    await rejectsWith(
      runOp(dir, safetySet, { key: 'git.allowForcePush', value: 'true' }, agent),
      'NOT_ALLOWED',
      /only a person.*axme safety set git\.allowForcePush true/,
    );
    await rejectsWith(runOp(dir, safetySet, { key: 'families.publish', value: 'off' }, agent), 'NOT_ALLOWED', /axme safety set families\.publish off/);
    await rejectsWith(runOp(dir, safetyReset, {}, agent), 'NOT_ALLOWED', /axme safety reset/);
    assert.equal(tip(dir), before, 'nothing written');
    const person = await runOp(dir, safetySet, { key: 'git.allowForcePush', value: 'true' });
    assert.equal(person.changed, true);
    const tighter = await runOp(dir, safetySet, { key: 'git.allowForcePush', value: 'false' }, agent);
    assert.equal(tighter.changed, true);
    await runOp(dir, safetyReset, {});
  });
});

import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { importAxmeCode } from '../../src/operations/import/axme-code.ts';
import { coreAt, rejectsWith, runOp } from '../core.ts';
import { git, tempRepo } from '../helpers.ts';

test("an agent's import of AXME Code rules that loosen the store's is NOT_ALLOWED; a person's imports them", async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    await coreAt(dir).init({ scan: false });
    const src = join(dir, '.axme-code');
    mkdirSync(join(src, 'safety'), { recursive: true });
    writeFileSync(
      join(src, 'safety', 'rules.yaml'),
      'git:\n  allowForcePush: true\n  protectedBranches: []\nfamilies:\n  publish: "off"\nbash:\n  deniedPrefixes: []\n',
    );
    const before = git(dir, ['rev-parse', 'refs/memory/main']).trim();
    await rejectsWith(
      runOp(dir, importAxmeCode, { path: src }, { actor: 'agent', session: '20261203-0000impt' }),
      'NOT_ALLOWED',
      /loosens the safety rules.*allowForcePush.*axme import axme-code/,
    );
    assert.equal(git(dir, ['rev-parse', 'refs/memory/main']).trim(), before, 'nothing written');
    const r = await runOp(dir, importAxmeCode, { path: src });
    assert.equal(r.rules, 'new');
  } finally {
    cleanup();
  }
});

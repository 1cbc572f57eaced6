import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { initStore } from '../../src/knowledge/admin/init-store.ts';
import { closeKnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { updateSafety } from '../../src/knowledge/rules/update-safety.ts';
import { DEFAULT_RULES } from '../../src/model/safety-defaults.ts';
import { RETIRED_DEFAULTS, RULE_TYPES } from '../../src/model/safety-rules.ts';
import { doctor } from '../../src/setup/doctor.ts';
import { CLI, cleanEnv, openTestKb, tempRepo } from '../helpers.ts';

test('axme doctor names the defaults an earlier axme wrote into rules.yaml and no longer ships, still applied, with the command that drops them', async () => {
  const { dir, cleanup } = tempRepo();
  const env = cleanEnv({ HOME: `${dir}/.home` });
  const kb = await openTestKb(dir, { env });
  try {
    await initStore(kb);
    const rules = async () => (await doctor({ cwd: dir, env })).checks.find((c) => c.name === 'safety rules')!;
    const fresh = await rules();
    assert.equal(fresh.status, 'ok');
    assert.doesNotMatch(fresh.detail, /earlier axme/, 'a new store holds no retired default');

    // a store made by an earlier axme: its init wrote `dd if=` among the denied commands and `.env`, `*.pem`, `*.key` among the denied paths
    await updateSafety(kb, { rule_type: 'bash_deny_command', value: 'dd if=' });
    for (const value of ['.env', '*.pem', '*.key']) await updateSafety(kb, { rule_type: 'fs_deny', value });
    const old = await rules();
    assert.equal(old.status, 'ok', 'a stricter rule the team keeps is no problem');
    // the entries retired for one reason are named together, the reason said once
    assert.match(
      old.detail,
      /kept from an earlier axme's defaults, no longer shipped: bash_deny_command "dd if=" \(.+\); fs_deny "\.env", "\*\.pem", "\*\.key" \([^;]+\); to drop them/,
    );
    const drop = /to drop them: (.+)$/.exec(old.detail)?.[1];
    assert.equal(
      drop,
      "axme safety remove bash_deny_command 'dd if=' && axme safety remove fs_deny .env && axme safety remove fs_deny '*.pem' && axme safety remove fs_deny '*.key'",
    );

    // the command it prints, run as written, drops them
    execFileSync('sh', ['-c', `axme() { "$NODE" "$CLI" "$@"; }; ${drop}`], { cwd: dir, env: { ...env, NODE: process.execPath, CLI }, stdio: 'pipe' });
    assert.doesNotMatch((await rules()).detail, /earlier axme/);
  } finally {
    await closeKnowledgeBase(kb);
    cleanup();
  }
});

test('no retired default is among the defaults a new store is given', () => {
  assert.ok(RETIRED_DEFAULTS.length > 0);
  for (const r of RETIRED_DEFAULTS) {
    const [section, key] = RULE_TYPES[r.rule_type];
    assert.ok(!(DEFAULT_RULES[section] as Record<string, readonly string[]>)[key]!.includes(r.value), r.value);
  }
});

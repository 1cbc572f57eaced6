/**
 * The one table of rule families (src/model/families.ts): the defaults, the names, the schema of
 * `safety/rules.yaml`, the `families.<name>` settings and the words of the hook's messages are
 * derived from it, so a family added or renamed there is added or renamed everywhere.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defaultFamilyActions, FAMILIES, FAMILY_NAMES } from '../../src/model/families.ts';
import { DEFAULT_RULES } from '../../src/model/safety-defaults.ts';
import { RULE_SETTINGS, SafetyRules } from '../../src/model/safety-rules.ts';
import { evaluateCommand } from '../../src/safety/evaluate.ts';
import { FAMILY_CHECKS } from '../../src/safety/families/index.ts';
import { defaultPolicy, policyFromRules } from '../../src/safety/policy.ts';
import { safetyContext } from './context.ts';

describe('the FAMILIES table', () => {
  test('names the five families, each with an action, a promise, a description, words and a check', () => {
    assert.deepEqual([...FAMILY_NAMES], ['publish', 'infra', 'gitHistory', 'system', 'interpreter']);
    for (const f of FAMILIES) {
      assert.ok(f.action === 'deny' || f.action === 'ask', f.name);
      assert.match(f.promise, /^P\d/);
      assert.ok(f.description.length > 20 && f.words.length > 5, f.name);
    }
  });

  test('DEFAULT_RULES.families is derived from it, as plain data', () => {
    assert.deepEqual(DEFAULT_RULES.families, defaultFamilyActions());
    assert.deepEqual(DEFAULT_RULES.families, Object.fromEntries(FAMILIES.map((f) => [f.name, f.action])));
    assert.equal(Object.getPrototypeOf(DEFAULT_RULES.families), Object.prototype);
  });

  test('the schema of safety/rules.yaml has one entry per family, with its default and description', () => {
    const shape = SafetyRules.shape.families.unwrap().shape as Record<string, { description?: string }>;
    assert.deepEqual(Object.keys(shape), [...FAMILY_NAMES]);
    for (const f of FAMILIES) assert.ok(shape[f.name]!.description!.startsWith(f.description), f.name);
    assert.deepEqual(SafetyRules.parse({}).families, defaultFamilyActions());
    assert.equal(SafetyRules.parse({ families: { infra: 'deny' } }).families.infra, 'deny');
    assert.throws(() => SafetyRules.parse({ families: { infra: 'maybe' } }));
  });

  test('RULE_SETTINGS has families.<name> for every family and no other families.* key', () => {
    const keys = Object.keys(RULE_SETTINGS).filter((k) => k.startsWith('families.'));
    assert.deepEqual(
      keys,
      FAMILY_NAMES.map((n) => `families.${n}`),
    );
    for (const k of keys) {
      const s = RULE_SETTINGS[k as keyof typeof RULE_SETTINGS];
      assert.equal(s.safeParse('ask').success, true, k);
      assert.equal(s.safeParse('maybe').success, false, k);
    }
  });

  test('every family names a check the engine has', () => {
    for (const f of FAMILIES) assert.equal(typeof FAMILY_CHECKS[f.check.id], 'function', f.name);
  });

  test("the hook's deny and ask messages say the family's words", async () => {
    const ctx = safetyContext();
    const rows: Array<[string, string]> = [
      ['cargo publish', 'publish'],
      ['terraform destroy', 'infra'],
      ['git branch -D main', 'gitHistory'],
      ['echo x > ~/.bashrc', 'system'],
      [`python3 -c "import os; os.system('cargo publish')"`, 'interpreter'],
    ];
    for (const [command, name] of rows) {
      const v = await evaluateCommand(command, defaultPolicy(), ctx);
      const f = FAMILIES.find((x) => x.name === name)!;
      assert.ok(v.rule?.startsWith(`families.${name}:`), `${command} -> ${v.rule}`);
      assert.ok(v.reason.includes(f.words), `${command}: "${v.reason}" should say "${f.words}"`);
      assert.equal(v.decision, f.action, command);
    }
    // a family switched off says nothing
    const off = policyFromRules({ ...DEFAULT_RULES, families: { ...DEFAULT_RULES.families, publish: 'off' } });
    assert.equal((await evaluateCommand('cargo publish', off, ctx)).decision, 'allow');
  });
});

/**
 * The rule for commands no family check knows (docs/safety.md, "How an unknown command is
 * judged"; the verbs and targets are data in src/model/families.ts): a publish, deploy or release
 * verb gets the publish family's action, a destroy, delete or drop verb toward a cluster, database
 * or stack the infra family's, and everyday commands with the same words stay silent. The rows
 * are test/fixtures/safety/unknown-commands.tsv.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { FAMILIES } from '../../src/model/families.ts';
import { DEFAULT_RULES } from '../../src/model/safety-defaults.ts';
import { evaluateCommand } from '../../src/safety/evaluate.ts';
import { defaultPolicy, policyFromRules } from '../../src/safety/policy.ts';
import { safetyContext } from './context.ts';

const rows = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'safety', 'unknown-commands.tsv'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'))
  .map((l) => {
    const [expected, command, ...rest] = l.split('\t');
    assert.equal(rest.length, 0, l);
    assert.ok(expected === 'deny' || expected === 'ask' || expected === 'allow', l);
    return { expected: expected as 'deny' | 'ask' | 'allow', command: command! };
  });

const policy = defaultPolicy();
const FAMILY_OF = { deny: 'publish', ask: 'infra' } as const;

describe('commands no family knows, by their verbs', () => {
  test('the fixture holds about 60 judged and 60 everyday commands, no duplicates', () => {
    assert.ok(rows.filter((r) => r.expected !== 'allow').length >= 60);
    assert.ok(rows.filter((r) => r.expected === 'allow').length >= 60);
    assert.equal(new Set(rows.map((r) => r.command)).size, rows.length);
  });

  for (const kind of ['deny', 'ask', 'allow'] as const) {
    const list = rows.filter((r) => r.expected === kind);
    test(`${kind}: every row (${list.length})`, async () => {
      const wrong: string[] = [];
      for (const r of list) {
        const v = await evaluateCommand(r.command, policy, safetyContext());
        const ok = v.decision === kind && (kind === 'allow' || v.rule!.startsWith(`families.${FAMILY_OF[kind]}: `));
        if (!ok) wrong.push(`${r.command} -> ${v.decision} [${v.rule}] ${v.reason.slice(0, 120)}`);
      }
      assert.deepEqual(wrong, [], `${wrong.length} of ${list.length}:\n${wrong.join('\n')}`);
    });
  }

  test("the verbs and targets are the table's: every verb of the table is judged", async () => {
    for (const f of FAMILIES) {
      if (!('unknown' in f)) continue;
      for (const verb of f.unknown.verbs) {
        const v = await evaluateCommand(`acmectl ${verb}`, policy, safetyContext());
        assert.equal(v.decision, f.action, `acmectl ${verb} -> ${v.rule}`);
        assert.ok(v.rule!.startsWith(`families.${f.name}: acmectl ${verb}`), `${verb}: ${v.rule}`);
      }
      for (const verb of f.unknown.targeted) {
        assert.equal((await evaluateCommand(`acmectl ${verb} thing`, policy, safetyContext())).decision, 'allow', `acmectl ${verb} thing`);
      }
    }
  });

  test("the unknown-command rule takes the family's action and goes silent with it", async () => {
    const with_ = (families: Partial<typeof DEFAULT_RULES.families>) =>
      policyFromRules({ ...DEFAULT_RULES, families: { ...DEFAULT_RULES.families, ...families } });
    assert.equal((await evaluateCommand('kamal deploy', with_({ publish: 'ask' }), safetyContext())).decision, 'ask');
    assert.equal((await evaluateCommand('kamal deploy', with_({ publish: 'off' }), safetyContext())).decision, 'allow');
    assert.equal((await evaluateCommand('kind delete cluster', with_({ infra: 'deny' }), safetyContext())).decision, 'deny');
    assert.equal((await evaluateCommand('kind delete cluster', with_({ infra: 'off' }), safetyContext())).decision, 'allow');
  });

  test('bash.allowedPrefixes exempts a command from it', async () => {
    const p = policyFromRules({ ...DEFAULT_RULES, bash: { ...DEFAULT_RULES.bash, allowedPrefixes: ['kamal deploy'] } });
    assert.equal((await evaluateCommand('kamal deploy', p, safetyContext())).decision, 'allow');
    assert.equal((await evaluateCommand('kamal redeploy', p, safetyContext())).decision, 'deny');
  });
});

import { z } from 'zod';
import type { SafetyUpdateResult } from '../../knowledge/rules/update-safety.ts';
import { RULE_SETTINGS, type RuleSetting, SafetyRuleChange, type SafetyRules } from '../../model/safety-rules.ts';
import { defineOperation, EDIT } from '../operation.ts';

/**
 * The CLI's own ways to change the safety rules: `axme safety add|remove <type> <value>` (the
 * agent's twin is `axme_update_safety`, safety.update, which takes the direction as a field),
 * `axme safety set <key> <value>` and `axme safety reset`.
 */

const Changed = z.looseObject({
  rules: z.looseObject({}).describe('the rules by section: git, bash, filesystem, github'),
  changed: z.boolean().describe('false when the rules already said so: nothing was written'),
  commit: z.string().nullable().describe('the commit (null when nothing changed)'),
});

function ruleChange(action: 'add' | 'remove') {
  return defineOperation({
    id: `safety.${action}`,
    summary: action === 'add' ? 'Add a safety rule' : 'Remove a safety rule',
    description: `${action === 'add' ? 'Adds a rule to' : 'Removes a rule from'} one of the lists the hooks enforce: protected branches, denied or allowed command prefixes, denied commands, denied or read-only paths. The file before stays in history.`,
    input: SafetyRuleChange.shape,
    output: Changed,
    annotations: EDIT,
    write: false,
    mcp: null,
    async run(kb, input): Promise<SafetyUpdateResult & { input: typeof input }> {
      const { updateSafety } = await import('../../knowledge/rules/update-safety.ts');
      return { ...(await updateSafety(kb, { ...input, action })), input };
    },
    json: ({ input: _i, ...r }) => r,
    // removing a rule that is not there is NOT_FOUND in the core: unchanged means already present
    text: ({ changed, input }) => `Safety rule ${changed ? (action === 'add' ? 'added' : 'removed') : 'already present'}: ${input.rule_type} = ${input.value}`,
    cli: {
      command: ['safety', action],
      describe: action === 'add' ? 'add a rule to a list' : 'remove a rule from a list',
      positional: ['rule_type', 'value'],
      names: { rule_type: 'type' },
    },
  });
}

export const safetyAdd = ruleChange('add');
export const safetyRemove = ruleChange('remove');

export const safetySet = defineOperation({
  id: 'safety.set',
  summary: 'Change a safety setting',
  description:
    'Sets one of the settings of the git rules (force pushes, direct pushes to protected branches, the #!axme marker, whom the rules bind) or of the GitHub check.',
  input: {
    key: z.enum(Object.keys(RULE_SETTINGS) as [RuleSetting, ...RuleSetting[]]).describe(`the setting: ${Object.keys(RULE_SETTINGS).join(', ')}`),
    value: z.string().min(1).max(20).describe('true/false, or agents/always/never, agents/everyone, deny/allow'),
  },
  output: Changed,
  annotations: EDIT,
  write: false,
  mcp: null,
  async run(kb, input): Promise<{ rules: SafetyRules; changed: boolean; commit: string | null; input: typeof input }> {
    const { setSafetySetting } = await import('../../knowledge/rules/set-safety-setting.ts');
    return { ...(await setSafetySetting(kb, input)), input };
  },
  json: ({ input: _i, ...r }) => r,
  text: ({ changed, input }) => `${changed ? 'Safety setting changed' : 'Safety setting unchanged'}: ${input.key} = ${input.value}`,
  cli: { command: ['safety', 'set'], describe: 'change a setting', positional: ['key', 'value'] },
});

export const safetyReset = defineOperation({
  id: 'safety.reset',
  summary: 'Reset the safety rules to the defaults',
  description: 'Writes the default rules; the current file stays in history (axme history safety/rules.yaml).',
  input: {},
  output: z.looseObject({ rules: z.looseObject({}).describe('the default rules'), commit: z.string().nullable().describe('the commit written') }),
  annotations: EDIT,
  write: false,
  mcp: null,
  async run(kb): Promise<{ rules: SafetyRules; commit: string | null }> {
    const { resetSafetyRules } = await import('../../knowledge/rules/reset-safety-rules.ts');
    return resetSafetyRules(kb);
  },
  json: (r) => r,
  text: () => 'Safety rules reset to the defaults',
  cli: { command: ['safety', 'reset'], describe: 'write the default rules (the current file stays in history)' },
});

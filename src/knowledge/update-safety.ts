import { z } from 'zod';
import { AxmeError } from '../model/errors.ts';
import { RULES_PATH } from '../model/paths.ts';
import { RULE_TYPES, SafetyRuleChange, type SafetyRules } from '../model/safety-rules.ts';
import { parseInput } from '../model/validate.ts';
import type { KnowledgeBase } from './kb.ts';
import { mutate } from './mutate.ts';
import { loadRulesDocument, renderRules } from './rules-file.ts';

export const SafetyUpdate = SafetyRuleChange.extend({
  action: z.enum(['add', 'remove']).default('add').describe('add the rule or remove it'),
});
export type SafetyUpdate = z.input<typeof SafetyUpdate>;

export interface SafetyUpdateResult {
  rules: SafetyRules;
  changed: boolean;
  commit: string | null;
}

/** Adds a value to, or removes it from, one rule list (AXME's axme_update_safety), in one commit. */
export async function updateSafety(kb: KnowledgeBase, input: SafetyUpdate): Promise<SafetyUpdateResult> {
  const data = parseInput(SafetyUpdate, input, 'safety rule');
  const [section, key] = RULE_TYPES[data.rule_type];
  const r = await mutate(kb, async (state) => {
    const current = (state.rules[section] as Record<string, string[]>)[key]!;
    const has = current.includes(data.value);
    if (data.action === 'add' ? has : !has) {
      if (data.action === 'remove') {
        throw new AxmeError('NOT_FOUND', `${data.rule_type} has no rule ${JSON.stringify(data.value)}: \`axme safety show\` lists the rules in force`, { rule_type: data.rule_type, value: data.value });
      }
      return { result: { rules: state.rules, changed: false } };
    }
    const next = data.action === 'add' ? [...current, data.value] : current.filter((v) => v !== data.value);
    const doc = await loadRulesDocument(kb, state);
    // The whole effective list is written: a list present in the file replaces the default one.
    doc.setIn([section, key], doc.createNode(next));
    const rules = { ...state.rules, [section]: { ...state.rules[section], [key]: next } } as SafetyRules;
    return {
      result: { rules, changed: true },
      files: new Map([[RULES_PATH, renderRules(doc)]]),
      subject: `safety: ${data.action} ${data.rule_type} ${data.value}`,
      event: `safety.rule-${data.action === 'add' ? 'added' : 'removed'}`,
    };
  });
  return { ...r.result, commit: r.commit };
}

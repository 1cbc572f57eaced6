import { z } from 'zod';
import { AxmeError } from '../../model/errors.ts';
import { describeIssues } from '../../model/kind.ts';
import { RULES_PATH } from '../../model/paths.ts';
import { RULE_SETTINGS, type RuleSetting, SafetyRules } from '../../model/safety-rules.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { mutate } from '../core/mutate.ts';
import { assertPersonMayLoosenRules } from '../core/rules-loosening.ts';
import { loadRulesDocument, renderRules } from './rules-file.ts';

export const SafetySetting = z.object({
  key: z.enum(Object.keys(RULE_SETTINGS) as [RuleSetting, ...RuleSetting[]]).describe('the setting, e.g. git.allowForcePush'),
  value: z
    .union([z.string(), z.boolean()])
    .describe('its new value: true/false; agents/always/never for git.requireAxmeSuffix; deny/allow for github.unverifiedPr; deny/ask/off for families.<name>'),
});
export type SafetySetting = z.input<typeof SafetySetting>;

/** Changes one scalar safety setting (e.g. git.allowForcePush) in one commit; one that loosens is a person's. */
export async function setSafetySetting(kb: KnowledgeBase, input: SafetySetting): Promise<{ rules: SafetyRules; changed: boolean; commit: string | null }> {
  const parsed = SafetySetting.safeParse(input);
  if (!parsed.success) {
    throw new AxmeError('INVALID_INPUT', `invalid setting: ${describeIssues(parsed.error)}; settings are ${Object.keys(RULE_SETTINGS).join(', ')}`);
  }
  const { key } = parsed.data;
  const raw = parsed.data.value;
  const coerced = raw === 'true' ? true : raw === 'false' ? false : raw;
  const v = RULE_SETTINGS[key].safeParse(coerced);
  if (!v.success) throw new AxmeError('INVALID_INPUT', `${key} cannot be ${JSON.stringify(raw)}: ${describeIssues(v.error)}`);
  const [section, field] = key.split('.') as ['git', string];
  const r = await mutate(kb, async (state) => {
    if ((state.rules[section] as Record<string, unknown>)[field] === v.data) return { result: { rules: state.rules, changed: false } };
    const rules = { ...state.rules, [section]: { ...state.rules[section], [field]: v.data } } as SafetyRules;
    assertPersonMayLoosenRules(kb, state.rules, rules, `setting ${key} to ${String(v.data)}`, `axme safety set ${key} ${String(v.data)}`);
    const doc = await loadRulesDocument(kb, state);
    doc.setIn([section, field], v.data);
    return {
      result: { rules, changed: true },
      files: new Map([[RULES_PATH, renderRules(doc)]]),
      subject: `safety: set ${key} ${String(v.data)}`,
      event: 'safety.setting-changed',
    };
  });
  return { ...r.result, commit: r.commit };
}

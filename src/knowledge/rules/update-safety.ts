import { z } from 'zod';
import { AxmeError } from '../../model/errors.ts';
import { RULES_PATH } from '../../model/paths.ts';
import { loosensRules } from '../../model/rule-loosening.ts';
import { RULE_TYPES, type SafetyRules, SafetyUpdate } from '../../model/safety-rules.ts';
import { parseInput } from '../../model/validate.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { mutate } from '../core/mutate.ts';
import { putFile, type Staged, single, stage } from '../core/staging.ts';
import { loadRulesDocument, renderRules, rulesOf } from './rules-file.ts';

export interface SafetyUpdateResult {
  rules: SafetyRules;
  changed: boolean;
  commit: string | null;
}

/**
 * Stages one rule change; sees rule changes staged before it in the same commit. A change that
 * loosens the rules (loosensRules) is refused unless a person makes it (`kb.actor` human): an
 * agent or the auditor cannot switch off the rules that bind it, whatever surface it uses.
 */
export async function planSafetyUpdate(kb: KnowledgeBase, st: Staged, data: z.output<typeof SafetyUpdate>): Promise<{ rules: SafetyRules; changed: boolean }> {
  const [section, key] = RULE_TYPES[data.rule_type];
  const staged = st.files.get(RULES_PATH);
  const doc = staged !== undefined ? await loadRulesDocument(kb, st.state, staged) : undefined;
  const rules = doc ? rulesOf(doc) : st.state.rules;
  const current = (rules[section] as Record<string, string[]>)[key]!;
  const has = current.includes(data.value);
  if (data.action === 'add' ? has : !has) {
    if (data.action === 'remove') {
      throw new AxmeError('NOT_FOUND', `${data.rule_type} has no rule ${JSON.stringify(data.value)}: \`axme safety show\` lists the rules in force`, {
        rule_type: data.rule_type,
        value: data.value,
      });
    }
    return { rules, changed: false };
  }
  if (loosensRules(data) && kb.actor !== 'human') {
    const how = `axme safety ${data.action} ${data.rule_type} ${JSON.stringify(data.value)}`;
    throw new AxmeError(
      'NOT_ALLOWED',
      `${data.action === 'remove' ? 'removing' : 'adding'} ${data.rule_type} ${JSON.stringify(data.value)} loosens the safety rules, which only a person may do: ask the user to run \`${how}\` themselves (tightening rules is fine)`,
      {
        rule_type: data.rule_type,
        value: data.value,
        action: data.action,
        actor: kb.actor,
      },
    );
  }
  const next = data.action === 'add' ? [...current, data.value] : current.filter((v) => v !== data.value);
  const edit = doc ?? (await loadRulesDocument(kb, st.state));
  // The whole effective list is written: a list present in the file replaces the default one.
  edit.setIn([section, key], edit.createNode(next));
  putFile(
    st,
    RULES_PATH,
    renderRules(edit),
    `safety.rule-${data.action === 'add' ? 'added' : 'removed'}`,
    `safety: ${data.action} ${data.rule_type} ${data.value}`,
  );
  return { rules: rulesOf(edit), changed: true };
}

/** Adds a value to, or removes it from, one rule list (AXME's axme_update_safety), in one commit. */
export async function updateSafety(kb: KnowledgeBase, input: SafetyUpdate): Promise<SafetyUpdateResult> {
  const data = parseInput(SafetyUpdate, input, 'safety rule');
  const r = await mutate(kb, async (state) => {
    const st = stage(state);
    return single(st, await planSafetyUpdate(kb, st, data));
  });
  return { ...r.result, commit: r.commit };
}

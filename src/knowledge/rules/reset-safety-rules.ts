import { stringifyYaml } from '../../model/frontmatter.ts';
import { RULES_PATH } from '../../model/paths.ts';
import { DEFAULT_RULES, SafetyRules } from '../../model/safety-rules.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { mutate } from '../core/mutate.ts';
import { assertPersonMayLoosenRules } from '../core/rules-loosening.ts';

/** Writes the default rules over the current file (which stays in history), in one commit; a reset
 * that loosens anything is a person's. */
export async function resetSafetyRules(kb: KnowledgeBase): Promise<{ rules: SafetyRules; commit: string | null }> {
  const r = await mutate(kb, (state) => {
    const rules = SafetyRules.parse({});
    // a reset drops every rule added and undoes every tightening: a person's when it loosens anything
    assertPersonMayLoosenRules(kb, state.rules, rules, 'resetting to the defaults', 'axme safety reset');
    return {
      result: rules,
      files: new Map([[RULES_PATH, `# axme safety rules (reset to the defaults)\n${stringifyYaml(DEFAULT_RULES)}`]]),
      subject: 'safety: reset to the defaults',
      event: 'safety.reset',
    };
  });
  return { rules: r.result, commit: r.commit };
}

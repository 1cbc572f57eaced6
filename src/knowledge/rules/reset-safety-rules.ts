import { stringifyYaml } from '../../model/frontmatter.ts';
import { RULES_PATH } from '../../model/paths.ts';
import { DEFAULT_RULES, SafetyRules } from '../../model/safety-rules.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { mutate } from '../core/mutate.ts';

/** Writes the default rules over the current file (which stays in history), in one commit. */
export async function resetSafetyRules(kb: KnowledgeBase): Promise<{ rules: SafetyRules; commit: string | null }> {
  const r = await mutate(kb, () => ({
    result: SafetyRules.parse({}),
    files: new Map([[RULES_PATH, `# axme safety rules (reset to the defaults)\n${stringifyYaml(DEFAULT_RULES)}`]]),
    subject: 'safety: reset to the defaults',
    event: 'safety.reset',
  }));
  return { rules: r.result, commit: r.commit };
}

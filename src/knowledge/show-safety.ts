import { RULES_PATH } from '../model/paths.ts';
import type { SafetyRules } from '../model/safety-rules.ts';
import type { KnowledgeBase } from './kb.ts';
import { readState, type Diagnostic } from './state.ts';

/** The safety rules in force (defaults where the file is missing or broken, with a diagnostic). */
export async function showSafety(kb: KnowledgeBase, opts: { at?: string | undefined } = {}): Promise<{ rules: SafetyRules; diagnostics: Diagnostic[]; commit: string }> {
  const state = await readState(kb, opts.at);
  return { rules: state.rules, diagnostics: state.diagnostics.filter((d) => d.path === RULES_PATH), commit: state.commit! };
}

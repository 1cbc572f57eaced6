import { RULES_PATH } from '../../model/paths.ts';
import type { SafetyRules } from '../../model/safety-rules.ts';
import { blobAt } from '../../store/tree.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { notInitialized } from '../core/kb.ts';
import { type Diagnostic, type KnowledgeState, rulesFrom, textOf } from '../core/state.ts';

export interface RulesAt {
  commit: string;
  rules: SafetyRules;
  /** problems of the rules file only */
  diagnostics: Diagnostic[];
}

/**
 * The safety rules at the tip of the store, read without parsing the items: the root tree, the
 * `safety` tree, the rules blob. What the safety hook compiles its policy from, so that a store
 * of 100k items costs it three object reads, not a parse of everything (which the hook's
 * deadline would cut short). A state already parsed in this process is used instead.
 */
export async function readRulesOnly(kb: KnowledgeBase): Promise<RulesAt> {
  const commit = await kb.repo.backend.resolveRef(kb.ref);
  if (!commit) throw notInitialized(kb);
  const parsed = kb.cache.recall<KnowledgeState>(`state:${commit}`);
  if (parsed) return { commit, rules: parsed.rules, diagnostics: parsed.diagnostics.filter((d) => d.path === RULES_PATH) };
  const diagnostics: Diagnostic[] = [];
  const blob = await blobAt(kb.repo.backend, commit, RULES_PATH);
  const rules = rulesFrom(blob ? textOf(blob) : null, true, diagnostics);
  return { commit, rules, diagnostics };
}

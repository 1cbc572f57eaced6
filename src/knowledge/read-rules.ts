import { RULES_PATH } from '../model/paths.ts';
import type { SafetyRules } from '../model/safety-rules.ts';
import type { KnowledgeBase } from './kb.ts';
import { notInitialized } from './kb.ts';
import { blobText, rulesFrom, type Diagnostic, type KnowledgeState } from './state.ts';

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
  const parsed = kb.memo.get(`state:${commit}`) as KnowledgeState | undefined;
  if (parsed) return { commit, rules: parsed.rules, diagnostics: parsed.diagnostics.filter((d) => d.path === RULES_PATH) };
  const diagnostics: Diagnostic[] = [];
  const rules = rulesFrom(await rulesText(kb, commit), true, diagnostics);
  return { commit, rules, diagnostics };
}

async function rulesText(kb: KnowledgeBase, commit: string): Promise<string | { error: string } | null> {
  const { backend } = kb.repo;
  let tree = (await backend.readCommit(commit)).tree;
  const parts = RULES_PATH.split('/');
  for (const [i, name] of parts.entries()) {
    const entry = (await backend.readTree(tree)).find((e) => e.name === name);
    const last = i === parts.length - 1;
    if (!entry || entry.type !== (last ? 'blob' : 'tree')) return null;
    if (last) return blobText(await backend.readBlob(entry.oid));
    tree = entry.oid;
  }
  return null;
}

import { RULES_PATH } from '../../model/paths.ts';
import type { SafetyRules } from '../../model/safety-rules.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { readMergedState } from '../core/merged-state.ts';
import type { Diagnostic } from '../core/state.ts';

/**
 * The safety rules in force (defaults where the file is missing or broken, with a diagnostic);
 * in a workspace, this repository's rules combined with the workspace's (docs/workspaces.md).
 */
export async function showSafety(
  kb: KnowledgeBase,
  opts: { at?: string | undefined } = {},
): Promise<{ rules: SafetyRules; diagnostics: Diagnostic[]; commit: string; workspace?: { store: string; commit: string | null } }> {
  const state = await readMergedState(kb, opts.at);
  const r = {
    rules: state.rules,
    diagnostics: state.diagnostics.filter((d) => d.path === RULES_PATH || (d.store && d.path === d.store)),
    commit: state.commit!,
  };
  return state.workspace ? { ...r, workspace: { store: state.workspace.store, commit: state.workspace.commit } } : r;
}

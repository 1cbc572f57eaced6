import { AxmeError } from '../../model/errors.ts';
import { RULES_PATH } from '../../model/paths.ts';
import { DEFAULT_RULES } from '../../model/safety-defaults.ts';
import { mergeRules } from '../../model/safety-merge.ts';
import type { SafetyRules } from '../../model/safety-rules.ts';
import { type Policy, policyFromRules } from '../../safety/policy.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { type RulesAt, readRulesOnly } from './read-rules.ts';

/** The commits a policy was compiled from: the repository's store and, in a workspace, the workspace store's. */
export interface CompiledPolicy {
  policy: Policy;
  commit: string | null;
  /** the workspace store's commit merged in; undefined outside a workspace, null when it holds no knowledge */
  workspaceCommit?: string | null;
}

/**
 * Compiles the safety policy of a store: its effective rules (defaults where rules.yaml is
 * missing or broken, with the problem carried as a warning). No store: the built-in defaults.
 * In a workspace, the rules are combined with the workspace store's (docs/workspaces.md); a repository
 * without a store of its own gets the defaults combined with the workspace's; a workspace store
 * that cannot be read counts as the defaults, with a warning.
 */
export async function readStorePolicy(kb: KnowledgeBase): Promise<CompiledPolicy> {
  const link = kb.workspace && !kb.workspace.self ? kb.workspace : null;
  let own: RulesAt | null = null;
  try {
    own = await readRulesOnly(kb);
  } catch (err) {
    if (!(err instanceof AxmeError && err.code === 'NOT_INITIALIZED')) throw err;
    // no store here: the defaults, combined below with the workspace's rules when there is one
  }
  const rules = own?.rules ?? (DEFAULT_RULES as SafetyRules);
  const warnings = (own?.diagnostics ?? []).filter((d) => d.severity === 'error').map((d) => `${RULES_PATH}: ${d.reason}`);
  if (!link) return { policy: policyFromRules(rules, warnings), commit: own?.commit ?? null };
  // in a workspace: combined with the workspace store's rules; one that cannot be read counts as the defaults
  let ws: RulesAt | null = null;
  let wsRules: SafetyRules | null = null;
  try {
    ws = await readRulesOnly(await link.open());
    wsRules = ws.rules;
    warnings.push(...ws.diagnostics.filter((d) => d.severity === 'error').map((d) => `${link.store}: ${RULES_PATH}: ${d.reason}`));
  } catch (err) {
    if (!(err instanceof AxmeError && err.code === 'NOT_INITIALIZED')) {
      wsRules = DEFAULT_RULES as SafetyRules;
      warnings.push(
        `workspace store ${link.store}: the workspace store could not be read (${(err as Error).message.split('\n')[0]}); this repository's knowledge and the default safety rules apply in its place`,
      );
    }
  }
  return {
    policy: policyFromRules(wsRules ? (mergeRules(rules, wsRules) as SafetyRules) : rules, warnings),
    commit: own?.commit ?? null,
    workspaceCommit: ws?.commit ?? null,
  };
}

import { AxmeError } from '../model/errors.ts';
import { RULES_PATH } from '../model/paths.ts';
import { DEFAULT_RULES } from '../model/safety-defaults.ts';
import { mergeRules } from '../model/safety-merge.ts';
import { compilePolicy, defaultPolicy, type Policy } from '../safety/policy.ts';
import type { KnowledgeBase } from './kb.ts';
import type { Diagnostic } from './state.ts';
import { readRulesOnly } from './read-rules.ts';
import type { SafetyRules } from '../model/safety-rules.ts';

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
 * In a workspace, the rules are combined with the workspace store's (DESIGN.md §7); a repository
 * without a store of its own gets the defaults combined with the workspace's; a workspace store
 * that cannot be read counts as the defaults, with a warning.
 */
export async function compileStorePolicy(kb: KnowledgeBase): Promise<CompiledPolicy> {
  let own;
  try {
    own = await readRulesOnly(kb);
  } catch (err) {
    if (!(err instanceof AxmeError && err.code === 'NOT_INITIALIZED')) throw err;
    if (!kb.workspace || kb.workspace.self) return { policy: defaultPolicy(), commit: null };
    return workspaceOnly(kb);
  }
  const warnings = own.diagnostics.filter(isRulesProblem).map(warningOf);
  const link = kb.workspace;
  if (!link || link.self) return { policy: compilePolicy(own.rules, warnings), commit: own.commit };
  // in a workspace: combined with the workspace store's rules; an unreadable workspace store counts as the defaults
  let ws: Awaited<ReturnType<typeof readRulesOnly>> | null = null;
  let wsRules: SafetyRules | null = null;
  try {
    ws = await readRulesOnly(await link.open());
    wsRules = ws.rules;
    warnings.push(...ws.diagnostics.filter((d) => d.severity === 'error').map((d) => `${link.store}: ${RULES_PATH}: ${d.reason}`));
  } catch (err) {
    if (!(err instanceof AxmeError && err.code === 'NOT_INITIALIZED')) {
      wsRules = DEFAULT_RULES as SafetyRules;
      warnings.push(`workspace store ${link.store}: the workspace store could not be read (${(err as Error).message.split('\n')[0]}); this repository's knowledge and the default safety rules apply in its place`);
    }
  }
  const rules = wsRules ? (mergeRules(own.rules, wsRules) as SafetyRules) : own.rules;
  return { policy: compilePolicy(rules, warnings), commit: own.commit, workspaceCommit: ws?.commit ?? null };
}

/** A repository of a workspace without a store of its own: the defaults combined with the workspace's rules. */
async function workspaceOnly(kb: KnowledgeBase): Promise<CompiledPolicy> {
  const store = kb.workspace!.store;
  try {
    const ws = await readRulesOnly(await kb.workspace!.open());
    const warnings = ws.diagnostics.filter(isRulesProblem).map((d) => `${store}: ${warningOf(d)}`);
    return { policy: compilePolicy(mergeRules(DEFAULT_RULES, ws.rules), warnings), commit: null, workspaceCommit: ws.commit };
  } catch (err) {
    if (err instanceof AxmeError && err.code === 'NOT_INITIALIZED') return { policy: defaultPolicy(), commit: null, workspaceCommit: null };
    return { policy: defaultPolicy([`could not read the workspace store ${store} (${(err as Error).message.split('\n')[0]}); the built-in defaults apply`]), commit: null, workspaceCommit: null };
  }
}

function isRulesProblem(d: Diagnostic): boolean {
  return d.severity === 'error' && (d.path === RULES_PATH || (d.store !== undefined && d.path === d.store));
}

function warningOf(d: Diagnostic): string {
  if (d.store && d.path === d.store) return `workspace store ${d.store}: ${d.reason}`;
  return `${d.store ? `${d.store}: ` : ''}${RULES_PATH}: ${d.reason}`;
}

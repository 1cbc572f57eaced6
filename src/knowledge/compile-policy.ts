import { AxmeError } from '../model/errors.ts';
import { RULES_PATH } from '../model/paths.ts';
import { compilePolicy, defaultPolicy, type Policy } from '../safety/policy.ts';
import type { KnowledgeBase } from './kb.ts';
import { readState } from './state.ts';

/**
 * Compiles the safety policy of a store: its effective rules (defaults where rules.yaml is
 * missing or broken, with the problem carried as a warning). No store: the built-in defaults.
 */
export async function compileStorePolicy(kb: KnowledgeBase): Promise<{ policy: Policy; commit: string | null }> {
  let state;
  try {
    state = await readState(kb);
  } catch (err) {
    if (err instanceof AxmeError && err.code === 'NOT_INITIALIZED') return { policy: defaultPolicy(), commit: null };
    throw err;
  }
  const warnings = state.diagnostics.filter((d) => d.path === RULES_PATH && d.severity === 'error').map((d) => `${RULES_PATH}: ${d.reason}`);
  return { policy: compilePolicy(state.rules, warnings), commit: state.commit };
}

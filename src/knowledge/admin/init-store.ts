import { FORMAT_VERSION } from '../../model/config.ts';
import { stringifyYaml } from '../../model/frontmatter.ts';
import { CONFIG_PATH, RULES_PATH } from '../../model/paths.ts';
import { DEFAULT_RULES, RULES_HEADER } from '../../model/safety-rules.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { mutate } from '../core/mutate.ts';

export interface InitResult {
  /** true when this call created the store (false: it existed and was complete) */
  created: boolean;
  /** files written by this call (a repaired store gets its missing files back) */
  written: string[];
  commit: string | null;
  ref: string;
}

/**
 * Creates the store on refs/memory/main: axme.yaml and the default safety rules, in one commit.
 * Idempotent: on an existing store it only writes what is missing, and nothing when complete.
 */
export async function initStore(kb: KnowledgeBase, opts: { kind?: 'repo' | 'workspace' } = {}): Promise<InitResult> {
  const r = await mutate(
    kb,
    (state) => {
      const files = new Map<string, string>();
      if (!state.snapshot.files.has(CONFIG_PATH)) files.set(CONFIG_PATH, stringifyYaml({ format: FORMAT_VERSION, kind: opts.kind ?? 'repo' }));
      if (!state.snapshot.files.has(RULES_PATH)) files.set(RULES_PATH, RULES_HEADER + stringifyYaml(DEFAULT_RULES));
      const created = state.commit === null;
      return {
        result: { created, written: [...files.keys()] },
        files,
        subject: created ? 'store: init' : 'store: repair missing files',
        event: created ? 'store.initialized' : 'store.repaired',
      };
    },
    { allowEmptyStore: true },
  );
  return { ...r.result, commit: r.commit, ref: kb.ref };
}

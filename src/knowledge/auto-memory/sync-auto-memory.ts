import type { StoreConfig } from '../../model/config.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { readState } from '../core/state.ts';
import { type AutoMemoryOptions, folderOf } from './auto-memory-options.ts';
import { exportAutoMemory } from './export-auto-memory.ts';
import { importAutoMemory } from './import-auto-memory.ts';

/** `autoMemory` of axme.yaml: off (the default) or sync (a session's end imports, then exports). */
function autoMemoryMode(config: StoreConfig | null): 'off' | 'sync' {
  return config?.autoMemory ?? 'off';
}

/**
 * At a session's end, when axme.yaml says `autoMemory: sync` and Claude Code's auto memory is on:
 * what Claude wrote comes in as memories, then the knowledge goes out into the folder. Returns a
 * line saying what was left out, or null. Throws what the import or export throws.
 */
export async function syncAutoMemory(kb: KnowledgeBase, opts: AutoMemoryOptions): Promise<string | null> {
  if (autoMemoryMode((await readState(kb)).config) !== 'sync' || folderOf(kb, undefined, opts).disabled) return null;
  const imported = await importAutoMemory(kb, {}, { ...opts, allowSecret: false });
  await exportAutoMemory(kb, {}, opts);
  const left = imported.problems.length;
  return left
    ? `axme: auto memory: ${left} ${left === 1 ? 'entry was' : 'entries were'} not imported (${imported.problems[0]!.file}: ${imported.problems[0]!.reason}); run \`axme import auto-memory\` to see all`
    : null;
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Decision } from '../../model/decision.ts';
import { ExportAutoMemoryInput } from '../../model/import-export.ts';
import { isLive } from '../../model/liveness.ts';
import { folderRefusal, makeFolder } from '../../model/make-folder.ts';
import type { Memory } from '../../model/memory.ts';
import { parseInput } from '../../model/validate.ts';
import { writeFileAtomicSync } from '../../store/atomic-file.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { readMergedState } from '../core/merged-state.ts';
import { latestHandoff } from '../views/context.ts';
import { type AutoMemoryOptions, folderOf } from './auto-memory-options.ts';
import type { FolderSource } from './memory-folder.ts';
import { byteCount, fitsLimits, lineCount, mergeSection, userText } from './memory-md.ts';
import { folderEntries, MEMORY_MD, readFolder } from './read-folder.ts';
import { DECISIONS_FILE, MEMORIES_FILE, renderDecisionsFile, renderMemoriesFile, renderSection, type SectionCounts } from './render-section.ts';

export interface ExportAutoMemoryResult {
  dir: string;
  source: FolderSource;
  /** Claude Code's auto memory is off here (the variable or its settings): it will not read what was written */
  disabled: boolean;
  dry_run: boolean;
  /** each file axme owns in the folder (MEMORY.md: its section), and whether it changed (with dry_run: would) */
  files: Array<{ name: string; changed: boolean }>;
  /** false when the user's own text leaves no room for axme's section in MEMORY.md */
  section: boolean;
  counts: SectionCounts & { decisions: number };
  /** MEMORY.md as written: lines and bytes, and the lines of the user's own text */
  lines: number;
  bytes: number;
  user_lines: number;
}

/**
 * Writes the knowledge into Claude Code's auto memory folder: axme's section of MEMORY.md (required
 * decisions, safety rules, the latest handoff, memories; the user's text around it kept byte for byte,
 * the whole within 200 lines and 25 KB) and the topic files axme-decisions.md and axme-memories.md.
 * Files that would not change are not touched, so a second export writes nothing.
 */
export async function exportAutoMemory(kb: KnowledgeBase, input: ExportAutoMemoryInput, opts: AutoMemoryOptions = {}): Promise<ExportAutoMemoryResult> {
  const data = parseInput(ExportAutoMemoryInput, input, 'export');
  const folder = folderOf(kb, data.dir, opts);
  const state = await readMergedState(kb);
  const content = readFolder(folder.dir);
  const decisions = state.items.decision.filter((d) => isLive('decision', d)).sort(byEnforceAndId);
  const memories = state.items.memory.filter((m) => isLive('memory', m)).sort(byTypeAndNewest);
  // memories imported from these very notes are in the user's part already: not listed twice
  const own = new Set(folderEntries(content).map((e) => e.hash));
  const listed = memories.filter((m) => !own.has(String(m.extra.auto_memory_hash ?? '')));
  const items = { decisions, memories: listed, handoff: latestHandoff(state.items.handoff), rules: state.rules };
  const section = renderSection(items, (body) => fitsLimits(mergeSection(content.split, body)));
  const memoryMd = mergeSection(content.split, section?.body ?? null);
  const wanted: Array<[string, string]> = [
    [MEMORY_MD, memoryMd],
    [DECISIONS_FILE, renderDecisionsFile(decisions)],
    [MEMORIES_FILE, renderMemoriesFile(memories)],
  ];
  const files = wanted.map(([name, text]) => ({ name, text, changed: (name === MEMORY_MD ? content.memoryMd : readOr(join(folder.dir, name))) !== text }));
  if (!data.dry_run && files.some((f) => f.changed)) {
    // the folder may be the user's --dir: made a level at a time (never a hang), a refusal said with what to do
    try {
      makeFolder(folder.dir);
    } catch (err) {
      throw folderRefusal(err, folder.dir, { verb: 'export', usage: 'axme export auto-memory --dir <dir>' }) ?? err;
    }
    for (const f of files) if (f.changed) writeFileAtomicSync(join(folder.dir, f.name), f.text);
  }
  const required = decisions.filter((d) => d.enforce === 'required').length;
  const counts = section?.counts ?? {
    required_shown: 0,
    required_total: required,
    memories_shown: 0,
    memories_total: listed.length,
    safety: false,
    handoff: false,
  };
  return {
    dir: folder.dir,
    source: folder.source,
    disabled: folder.disabled,
    dry_run: data.dry_run,
    files: files.map(({ name, changed }) => ({ name, changed })),
    section: section !== null,
    counts: { ...counts, decisions: decisions.length },
    lines: lineCount(memoryMd),
    bytes: byteCount(memoryMd),
    user_lines: lineCount(userText(content.split)),
  };
}

function readOr(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function byEnforceAndId(a: Decision, b: Decision): number {
  if (a.enforce !== b.enforce) return a.enforce === 'required' ? -1 : 1;
  return a.id.localeCompare(b.id, 'en', { numeric: true });
}

function byTypeAndNewest(a: Memory, b: Memory): number {
  if (a.type !== b.type) return a.type === 'feedback' ? -1 : 1;
  return a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : a.slug.localeCompare(b.slug);
}

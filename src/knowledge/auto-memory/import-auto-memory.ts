import { statSync } from 'node:fs';
import { AxmeError } from '../../model/errors.ts';
import { ImportAutoMemoryInput } from '../../model/import-export.ts';
import { Memory } from '../../model/memory.ts';
import { parseInput } from '../../model/validate.ts';
import { freeSlug } from '../core/identity.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { mutate } from '../core/mutate.ts';
import { putItem, type Staged, stage } from '../core/staging.ts';
import { checkMemory } from '../items/memory/add-memory.ts';
import { type AutoMemoryOptions, folderOf } from './auto-memory-options.ts';
import type { FolderSource } from './memory-folder.ts';
import { type AutoMemoryEntry, normalizeEntry } from './parse-entries.ts';
import { folderEntries, readFolder } from './read-folder.ts';

/** The frontmatter field an imported memory keeps its entry's hash in (parse-entries.ts entryHash). */
const HASH_FIELD = 'auto_memory_hash';

export interface ImportedEntry {
  file: string;
  title: string;
  /** new: written (with dry_run: would be); exists: a memory holds it already (imported before, or the same text) */
  outcome: 'new' | 'exists';
  /** the memory that holds it */
  slug: string;
}

export interface ImportAutoMemoryResult {
  dir: string;
  source: FolderSource;
  disabled: boolean;
  dry_run: boolean;
  /** the one commit written (null: dry run, or nothing new) */
  commit: string | null;
  entries: ImportedEntry[];
  /** entries and files left out, and why */
  problems: Array<{ file: string; reason: string }>;
}

/**
 * Imports what Claude Code wrote into its auto memory folder (MEMORY.md outside axme's section, and
 * the topic files axme did not write) as memories, one per entry (parse-entries.ts), in ONE commit.
 * Each memory keeps its entry's hash (`auto_memory_hash`): an entry imported before, or whose text
 * an existing memory already says, is not added again. An entry that looks like a credential is
 * left out (reported) unless `allowSecret`.
 */
export async function importAutoMemory(kb: KnowledgeBase, input: ImportAutoMemoryInput, opts: AutoMemoryOptions = {}): Promise<ImportAutoMemoryResult> {
  const data = parseInput(ImportAutoMemoryInput, input, 'import');
  const folder = folderOf(kb, data.dir, opts);
  // a folder named that is not there is a mistake to say, not an import of nothing (this project's own may not exist yet)
  if (data.dir !== undefined && !statSync(folder.dir, { throwIfNoEntry: false })?.isDirectory())
    throw new AxmeError('INVALID_INPUT', `${folder.dir} (--dir) is no folder: give the auto memory folder to read, or leave --dir out for this project's`, {
      dir: folder.dir,
    });
  const content = readFolder(folder.dir, { confined: true });
  const found = folderEntries(content);
  const r = await mutate(kb, (state) => {
    const st = stage(state);
    const { entries, problems } = planImport(kb, st, found, !!opts.allowSecret);
    const result = { entries, problems };
    const fresh = entries.filter((e) => e.outcome === 'new').length;
    if (data.dry_run || st.files.size === 0) return { result };
    return {
      result,
      files: st.files,
      staged: st,
      subject: `import: Claude Code auto memory (${fresh} new)`,
      event: 'import.auto-memory',
      body: `Imported from Claude Code's auto memory folder: ${fresh} memories.`,
    };
  });
  return {
    dir: folder.dir,
    source: folder.source,
    disabled: folder.disabled,
    dry_run: data.dry_run,
    commit: r.commit,
    entries: r.result.entries,
    problems: [...content.problems, ...r.result.problems],
  };
}

/** Stages a memory for each entry no memory holds yet. */
function planImport(kb: KnowledgeBase, st: Staged, found: AutoMemoryEntry[], allowSecret: boolean): Pick<ImportAutoMemoryResult, 'entries' | 'problems'> {
  const byHash = new Map<string, string>();
  const byText = new Map<string, string>();
  for (const m of st.state.items.memory) {
    const h = m.extra[HASH_FIELD];
    if (typeof h === 'string') byHash.set(h, m.slug);
    byText.set(normalizeEntry(m.description), m.slug);
  }
  const entries: ImportedEntry[] = [];
  const problems: ImportAutoMemoryResult['problems'] = [];
  const now = kb.now().toISOString();
  for (const e of found) {
    const known = byHash.get(e.hash) ?? byText.get(normalizeEntry(e.text));
    if (known) {
      entries.push({ file: e.file, title: e.title, outcome: 'exists', slug: known });
      continue;
    }
    let checked;
    try {
      checked = checkMemory({ type: e.type, title: e.title, description: e.text, keywords: ['auto-memory'] }, { allowSecret });
    } catch (err) {
      if (!(err instanceof AxmeError)) throw err;
      problems.push({
        file: e.file,
        reason: `"${e.title}": ${err.code === 'SECRET_DETECTED' ? `${err.message.split(':')[0]}: left out (pass --allow-secret to import it anyway)` : err.message}`,
      });
      continue;
    }
    const origin = e.heading ? `${e.file} (${e.heading})` : e.file;
    const item = Memory.parse({
      ...checked,
      slug: freeSlug(st, 'memory', checked.title),
      status: 'active',
      source: 'auto-memory',
      session: kb.session,
      created: now,
      updated: now,
      extra: { [HASH_FIELD]: e.hash, auto_memory_from: origin.slice(0, 200) },
    });
    putItem(st, 'memory', item, 'memory.added', `memory: ${item.title}`);
    byHash.set(e.hash, item.slug);
    byText.set(normalizeEntry(e.text), item.slug);
    entries.push({ file: e.file, title: item.title, outcome: 'new', slug: item.slug });
  }
  return { entries, problems };
}

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isAxmeError } from '../../model/errors.ts';
import { firstLine, IMPORT_FILE_MAX, readInside } from '../import/import-folder.ts';
import { type MemoryMd, splitMemoryMd, userText } from './memory-md.ts';
import { type AutoMemoryEntry, parseEntries } from './parse-entries.ts';

/** The index Claude Code loads at a session start. */
export const MEMORY_MD = 'MEMORY.md';
/** Topic files larger than this are left out of an import (notes, not archives). */
const TOPIC_MAX_BYTES = 1024 * 1024;

/** What the auto memory folder holds: MEMORY.md split around axme's section, and the topic files axme did not write. */
export interface FolderContent {
  /** MEMORY.md as it is ('' when there is none) */
  memoryMd: string;
  split: MemoryMd;
  /** topic files (`*.md` next to MEMORY.md) not written by axme, by name */
  topics: Array<{ name: string; text: string }>;
  /** files left out, and why */
  problems: Array<{ file: string; reason: string }>;
}

/**
 * Reads the folder (none yet: empty). Files axme wrote start with `<!-- axme:generated`. `confined`
 * (an import): a file is read only when it stays inside the folder, within the size limit, as
 * UTF-8 (import-folder.ts readInside); any other is left out with its reason.
 */
export function readFolder(dir: string, opts: { confined?: boolean } = {}): FolderContent {
  const problems: FolderContent['problems'] = [];
  let names: string[] = [];
  try {
    names = readdirSync(dir)
      .filter((n) => n.toLowerCase().endsWith('.md'))
      .sort();
  } catch {
    // no folder yet: Claude Code has written nothing for this project
  }
  let memoryMd = '';
  const topics: FolderContent['topics'] = [];
  for (const name of names) {
    const path = join(dir, name);
    try {
      const st = statSync(path);
      if (!st.isFile()) continue;
      if (name !== MEMORY_MD && st.size > TOPIC_MAX_BYTES) {
        problems.push({ file: name, reason: `larger than ${TOPIC_MAX_BYTES / 1024} KB: not read` });
        continue;
      }
      const text = opts.confined ? readInside(dir, name, name === MEMORY_MD ? IMPORT_FILE_MAX : TOPIC_MAX_BYTES) : readFileSync(path, 'utf8');
      if (name === MEMORY_MD) memoryMd = text;
      else if (!text.startsWith('<!-- axme:generated')) topics.push({ name, text });
    } catch (err) {
      problems.push({ file: name, reason: isAxmeError(err) ? firstLine(err) : `could not be read: ${(err as Error).message}` });
    }
  }
  return { memoryMd, split: splitMemoryMd(memoryMd), topics, problems };
}

/** Every entry of the user's notes: MEMORY.md outside axme's section, then the topic files. */
export function folderEntries(content: FolderContent): AutoMemoryEntry[] {
  return [...parseEntries(MEMORY_MD, userText(content.split)), ...content.topics.flatMap((t) => parseEntries(t.name, t.text))];
}

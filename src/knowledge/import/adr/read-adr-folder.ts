import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LIMITS } from '../../../model/limits.ts';
import { firstLine, type ImportProblem, readInside, repositoryPath } from '../import-folder.ts';
import { NOT_ADRS } from './adr-format.ts';
import { type ParsedAdr, parseAdr } from './parse-adr.ts';

/** One ADR file of the folder, read. */
export interface AdrFile {
  /** the file name inside the folder */
  path: string;
  /** the item's `source`: `adr:` and the file's path in its repository (docs/adr/0002-use-postgres.md) */
  source: string;
  /** the ADR's date, else the file's modification time */
  date: string;
  adr: ParsedAdr;
}

/** An ADR folder read: its ADRs (numbered ones first, by number), what was skipped and what could not be read. */
export interface AdrFolder {
  files: AdrFile[];
  /** the index, the template, anything not a Markdown file: not ADRs */
  skipped: ImportProblem[];
  /** files that look like ADRs but could not be read, and why */
  problems: ImportProblem[];
}

/**
 * Reads the `.md` files directly in an ADR folder. README.md, index.md and the templates are
 * skipped, as are subfolders and other files (each reported); a file that is not an ADR (no
 * title, no decision, broken front matter) is a problem, and the rest are read.
 */
export function readAdrFolder(root: string): AdrFolder {
  const out: AdrFolder = { files: [], skipped: [], problems: [] };
  const repoPath = repositoryPath(root);
  for (const e of readdirSync(root, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (e.isDirectory()) {
      out.skipped.push({ path: `${e.name}/`, reason: 'a folder: ADRs are read from the folder itself, not from its subfolders' });
      continue;
    }
    // a link is read like a file when it leads to one inside the folder (readInside refuses the rest)
    if (!(e.isFile() || e.isSymbolicLink()) || !/\.md$/i.test(e.name)) {
      out.skipped.push({ path: e.name, reason: 'not a Markdown file' });
      continue;
    }
    if (NOT_ADRS.has(e.name.toLowerCase())) {
      out.skipped.push({ path: e.name, reason: "the folder's index or template, not an ADR" });
      continue;
    }
    const abs = join(root, e.name);
    try {
      const adr = parseAdr(readInside(root, e.name), e.name);
      out.files.push({ path: e.name, source: sourceOf(repoPath ? `${repoPath}/${e.name}` : e.name), date: adr.date ?? statSync(abs).mtime.toISOString(), adr });
    } catch (err) {
      out.problems.push({ path: e.name, reason: firstLine(err) });
    }
  }
  // numbered ADRs first, by number (their numbers become D-numbers when free), then by name
  // without its extension, so 0001-first comes before 0001-first-again
  const rank = (f: AdrFile) => (f.adr.number && f.adr.number > 0 ? f.adr.number : Infinity);
  const stem = (f: AdrFile) => f.path.replace(/\.md$/i, '');
  out.files.sort((a, b) => rank(a) - rank(b) || byText(stem(a), stem(b)) || byText(a.path, b.path));
  return out;
}

function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `adr:<path>`, within the length of a list entry (a long path keeps its end). */
function sourceOf(path: string): string {
  const s = `adr:${path}`;
  return s.length <= LIMITS.listItem ? s : `adr:...${path.slice(path.length - (LIMITS.listItem - 5))}`;
}

import { accessSync, constants, lstatSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Decision } from '../../../model/decision.ts';
import { AxmeError } from '../../../model/errors.ts';
import { parseId } from '../../../model/ids.ts';
import { ExportAdrInput } from '../../../model/import-export.ts';
import { folderRefusal, makeFolder } from '../../../model/make-folder.ts';
import { parseInput } from '../../../model/validate.ts';
import { writeFileAtomicSync } from '../../../store/atomic-file.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { readState } from '../../core/state.ts';
import { GENERATED_MARKER } from '../../import/adr/adr-format.ts';
import { IMPORT_FILE_MAX, resolveFolder } from '../../import/import-folder.ts';
import { adrFileName, renderIndex, renderMadr } from './render-madr.ts';

/** What happened to one file of the folder. */
export interface ExportedFile {
  name: string;
  /** new / changed / unchanged: a file the export owns; removed: one it wrote before, for a decision no longer in the store; kept: a file of the same name it did not write, left alone */
  outcome: 'new' | 'changed' | 'unchanged' | 'removed' | 'kept';
}

export interface ExportAdrResult {
  dir: string;
  /** the memory commit the decisions were read from */
  commit: string | null;
  decisions: number;
  files: ExportedFile[];
}

/**
 * Writes the store's decisions (every status) as a MADR folder: `NNNN-<slug>.md` per decision and
 * an index README.md, each marked as generated. Writing again updates the folder in place: files
 * that would not change are not touched, generated files for decisions no longer in the store are
 * removed, and files the export did not write are never touched (one in the way is `kept`).
 */
export async function exportAdr(kb: KnowledgeBase, input: ExportAdrInput, opts: { cwd?: string } = {}): Promise<ExportAdrResult> {
  const data = parseInput(ExportAdrInput, input, 'export');
  const root = resolveFolder(data.dir, opts.cwd);
  try {
    prepareFolder(root);
  } catch (err) {
    throw unusable(err, root);
  }
  const state = await readState(kb, data.at);
  const decisions = [...state.items.decision].sort((a, b) => (parseId(a.id)?.n ?? 0) - (parseId(b.id)?.n ?? 0) || (a.slug < b.slug ? -1 : 1));
  const bySlug = new Map<string, Decision>(decisions.map((d) => [d.slug, d]));
  const wanted = new Map<string, string>(decisions.map((d) => [adrFileName(d), renderMadr(d, d.superseded_by ? bySlug.get(d.superseded_by) : undefined)]));
  wanted.set('README.md', renderIndex(decisions, bySlug));

  refuseLinks(root, [...wanted.keys()]);
  try {
    return { dir: root, commit: state.commit, decisions: decisions.length, files: writeFolder(root, wanted) };
  } catch (err) {
    throw unusable(err, root);
  }
}

/** Writes the files of `wanted` that changed and removes the stale generated ones; what happened to each. */
function writeFolder(root: string, wanted: Map<string, string>): ExportedFile[] {
  const files: ExportedFile[] = [];
  const present = new Map<string, string>();
  // a file larger than any the export writes is not one of its own: never read, left alone
  for (const e of readdirSync(root, { withFileTypes: true }))
    if (e.isFile() && /\.md$/i.test(e.name) && lstatSync(join(root, e.name)).size <= IMPORT_FILE_MAX)
      present.set(e.name, readFileSync(join(root, e.name), 'utf8'));
  for (const [name, text] of wanted) {
    const now = present.get(name);
    if (now !== undefined && !isGenerated(now)) files.push({ name, outcome: 'kept' });
    else if (now === text) files.push({ name, outcome: 'unchanged' });
    else {
      writeFileAtomicSync(join(root, name), text);
      files.push({ name, outcome: now === undefined ? 'new' : 'changed' });
    }
  }
  for (const [name, text] of present) {
    if (wanted.has(name) || !isGenerated(text)) continue;
    rmSync(join(root, name), { force: true });
    files.push({ name, outcome: 'removed' });
  }
  return files;
}

/** How a refusal of the folder names the command (make-folder.ts folderRefusal). */
const COMMAND = { verb: 'export', usage: 'axme export adr <dir>' };

/** A file-system refusal of the folder said as INVALID_INPUT (which path, what to do); any other error as it is. */
function unusable(err: unknown, root: string): unknown {
  return folderRefusal(err, root, COMMAND) ?? err;
}

/** A file this export wrote: it carries the marker line. */
function isGenerated(text: string): boolean {
  return text.split('\n').some((l) => l.trim() === GENERATED_MARKER);
}

/**
 * Refuses (WRONG_STATE, nothing written) when a name the export writes is a symbolic link or
 * anything but a regular file: writing would replace the user's link (or write through it).
 */
function refuseLinks(root: string, names: string[]): void {
  const odd = names.filter((n) => {
    const st = lstatSync(join(root, n), { throwIfNoEntry: false });
    return st !== undefined && !st.isFile();
  });
  if (!odd.length) return;
  const what = (n: string) => `${n} (${lstatSync(join(root, n)).isSymbolicLink() ? 'a symbolic link' : 'not a regular file'})`;
  throw new AxmeError(
    'WRONG_STATE',
    `${root} holds ${odd.map(what).join(', ')} where the export writes its files: axme export adr never replaces a link or writes through one, so nothing was written. Remove ${odd.length === 1 ? 'it' : 'them'}, or export to another folder.`,
    { path: root, names: odd },
  );
}

/** The folder exists (made when missing, makeFolder: never a hang) and may be written to (else throws the file-system error). */
function prepareFolder(root: string): void {
  makeFolder(root);
  // refused before anything is written, rather than half way
  accessSync(root, constants.W_OK);
}

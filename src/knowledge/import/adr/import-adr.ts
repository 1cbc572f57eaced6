import { basename } from 'node:path';
import { ImportAdrInput } from '../../../model/import-export.ts';
import { parseInput } from '../../../model/validate.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { mutate } from '../../core/mutate.ts';
import { stage } from '../../core/staging.ts';
import { folderLabel, type ImportProblem, requireFolder, resolveFolder } from '../import-folder.ts';
import { readAdrFolder } from './read-adr-folder.ts';
import { type ImportedAdr, stageAdrs } from './stage-adrs.ts';

export interface ImportAdrResult {
  /** the folder read */
  dir: string;
  dry_run: boolean;
  /** the one commit written (null: dry run, or nothing new) */
  commit: string | null;
  /** every ADR read, with its outcome */
  items: ImportedAdr[];
  /** files that are not ADRs (the index, the template, other files), left alone */
  skipped: ImportProblem[];
  /** files or links left out, and why */
  problems: ImportProblem[];
}

/**
 * Imports a folder of architecture decision records (MADR, Nygard / adr-tools, plain Markdown) as
 * decisions in ONE commit: statuses mapped, supersession links set on both sides, each keeping its
 * file as `source`. An ADR already in the store (same source, else same normalized title) is not
 * written again, so a second import commits nothing. Files that cannot be read are reported.
 */
export async function importAdr(kb: KnowledgeBase, input: ImportAdrInput, opts: { cwd?: string; allowSecret?: boolean } = {}): Promise<ImportAdrResult> {
  const data = parseInput(ImportAdrInput, input, 'import');
  const root = resolveFolder(data.dir, opts.cwd);
  requireFolder(root, 'expected a folder of ADRs (architecture decision records), such as docs/adr or docs/decisions', 'axme import adr <dir>');
  const folder = readAdrFolder(root);
  const r = await mutate(kb, (state) => {
    const st = stage(state);
    const result = stageAdrs(kb, st, folder, { allowSecret: !!opts.allowSecret });
    if (data.dry_run || st.files.size === 0) return { result };
    const fresh = result.items.filter((i) => i.outcome === 'new').length;
    const problems = [...folder.problems, ...result.problems];
    const linked = result.items.filter((i) => i.outcome === 'linked').length;
    const body = [`Imported from ${folderLabel(root)}: ${fresh} new decisions${linked ? `, ${linked} stored ones linked to them` : ''}.`];
    const changed = result.items.filter((i) => i.note);
    if (changed.length) body.push('', 'Imported with changes:', ...changed.map((i) => `- ${i.path}: ${i.note}`));
    if (problems.length) body.push('', 'Left out:', ...problems.map((p) => `- ${p.path}: ${p.reason}`));
    return { result, files: st.files, staged: st, subject: `import: ADRs from ${basename(root)} (${fresh} new)`, event: 'import.adr', body: body.join('\n') };
  });
  return {
    dir: root,
    dry_run: data.dry_run,
    commit: r.commit,
    items: r.result.items,
    skipped: folder.skipped,
    problems: [...folder.problems, ...r.result.problems],
  };
}

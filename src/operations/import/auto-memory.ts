import { z } from 'zod';
import type { ImportAutoMemoryResult } from '../../knowledge/auto-memory/import-auto-memory.ts';
import { ImportAutoMemoryInput } from '../../model/import-export.ts';
import { DISABLED_NOTE, disabled, source } from '../auto-memory.ts';
import { defineOperation, SAVE } from '../operation.ts';

/** import.auto-memory: `axme import auto-memory` (CLI only). */
export const importAutoMemory = defineOperation({
  id: 'import.auto-memory',
  summary: "Import Claude Code's auto memory notes as memories (one commit)",
  description:
    "Reads Claude Code's auto memory folder (MEMORY.md outside axme's section, and the topic files axme did not write) and saves each entry (a list item, a paragraph, or a `##` section without a list) as a memory, in ONE commit. Each memory keeps its entry's hash, so importing again adds nothing, and an entry whose text a memory already says is not added. Entries that look like credentials are left out unless `--allow-secret`. `dry_run` shows what would come in.",
  input: ImportAutoMemoryInput.shape,
  output: z.looseObject({
    dir: z.string().describe('the auto memory folder read'),
    source,
    disabled,
    dry_run: z.boolean().describe('true: nothing was written'),
    commit: z.string().nullable().describe('the one commit written (null: dry run, or nothing new)'),
    entries: z
      .array(
        z.object({
          file: z.string().describe('the file it came from'),
          title: z.string().describe("the memory's title"),
          outcome: z.enum(['new', 'exists']).describe('new: saved (with dry_run: would be); exists: a memory holds it already'),
          slug: z.string().describe('the memory holding it'),
        }),
      )
      .describe('every entry read'),
    problems: z.array(z.object({ file: z.string(), reason: z.string() })).describe('entries or files left out, and why'),
  }),
  annotations: SAVE,
  write: true,
  mcp: null,
  async run(kb, input, opts): Promise<ImportAutoMemoryResult> {
    return (await import('../../knowledge/auto-memory/import-auto-memory.ts')).importAutoMemory(kb, input, {
      cwd: opts?.cwd,
      env: opts?.env,
      allowSecret: opts?.allowSecret,
    });
  },
  json: (r) => ({ ...r }),
  text: describeImport,
  cli: { command: ['import', 'auto-memory'] },
});

function describeImport(r: ImportAutoMemoryResult): string {
  const fresh = r.entries.filter((e) => e.outcome === 'new');
  const known = r.entries.length - fresh.length;
  const head = r.dry_run
    ? `Dry run: ${fresh.length} new memories from ${r.dir} would be saved (nothing written)`
    : r.commit
      ? `Imported ${fresh.length} new memories from ${r.dir} in one commit ${r.commit.slice(0, 12)}`
      : `Nothing new to import from ${r.dir}${r.entries.length ? ': every entry is already a memory' : ': no entries found'}`;
  const lines = [head];
  if (fresh.length) lines.push(...fresh.map((e) => `- ${e.slug} (${e.file})`));
  if (known) lines.push(`${known} already stored`);
  if (r.problems.length) {
    lines.push(`Left out (${r.problems.length}):`);
    for (const p of r.problems) lines.push(`- ${p.file}: ${p.reason}`);
  }
  if (r.disabled) lines.push(DISABLED_NOTE);
  return lines.join('\n');
}

import { z } from 'zod';
import { NOT_ADRS } from '../../knowledge/import/adr/adr-format.ts';
import type { ImportAdrResult } from '../../knowledge/import/adr/import-adr.ts';
import { ImportAdrInput } from '../../model/import-export.ts';
import { defineOperation, SAVE } from '../operation.ts';

const FileNote = z.object({ path: z.string().describe('the file, in the folder'), reason: z.string().describe('why') });

/** import.adr: `axme import adr <dir>` (CLI only: a person brings a repository's ADRs over once). */
export const importAdr = defineOperation({
  id: 'import.adr',
  summary: 'Import a folder of ADRs as decisions (one commit)',
  description:
    'Reads a folder of architecture decision records: MADR (any version), Nygard / adr-tools, or plain Markdown with a `# Title`, and saves each as a decision in ONE commit: the decision text, the reasoning (context, drivers, options, consequences), the status (accepted/proposed -> active, deprecated/rejected -> revoked, superseded -> superseded) and the supersession links on both sides; each keeps its file as `source`. ADRs already in the store (same file, else same title) are not written again, so importing twice commits nothing. README.md, index.md and templates are skipped; files that cannot be read are reported and the rest imported. `dry_run` shows what would come in.',
  input: ImportAdrInput.shape,
  output: z.looseObject({
    dir: z.string().describe('the folder read'),
    dry_run: z.boolean().describe('true: nothing was written'),
    commit: z.string().nullable().describe('the one commit written (null: dry run, or nothing new)'),
    items: z
      .array(
        z.object({
          path: z.string().describe('the ADR file, in the folder'),
          style: z.enum(['madr', 'nygard', 'plain']).describe('how the file was read: MADR, Nygard / adr-tools, or plain Markdown'),
          id: z
            .string()
            .describe("the decision's display ID: the ADR's number when it is free and no earlier file has it; otherwise the next after the highest in use"),
          slug: z.string().describe("the decision's slug"),
          title: z.string().describe("the decision's title"),
          status: z.enum(['active', 'superseded', 'revoked']).describe("the decision's status"),
          outcome: z
            .enum(['new', 'exists', 'linked', 'duplicate'])
            .describe(
              "new: written (with dry_run: would be); exists: already in the store, not written again; linked: in the store, given a supersession link to a new one; duplicate: an earlier live ADR of the folder has its title (the rule of decision add), not written (id and slug are that one's)",
            ),
          note: z.string().optional().describe('imported, but not as the ADR says (a superseded ADR whose successor link was left out: revoked), and why'),
        }),
      )
      .describe('every ADR read, with its outcome'),
    skipped: z.array(FileNote).describe('files that are not ADRs (README.md, index.md, templates, other files), left alone'),
    problems: z.array(FileNote).describe('ADR files or links left out, and why'),
  }),
  annotations: SAVE,
  write: true,
  mcp: null,
  async run(kb, input, opts): Promise<ImportAdrResult> {
    return (await import('../../knowledge/import/adr/import-adr.ts')).importAdr(kb, input, { cwd: opts?.cwd, allowSecret: opts?.allowSecret });
  },
  json: (r) => ({ ...r }),
  text: (r) => describe(r),
  cli: { command: ['import', 'adr'], positional: ['dir'] },
});

/** The files of an ADR folder the import skips, by name, for a message. */
const ADR_FOLDER_EXTRAS = ['README.md', ...[...NOT_ADRS].filter((n) => n !== 'readme.md')].join(', ');

function describe(r: ImportAdrResult): string {
  const fresh = r.items.filter((i) => i.outcome === 'new');
  const linked = r.items.filter((i) => i.outcome === 'linked');
  // a dry run says what the real run would: only a commit becomes "would"
  const head = fresh.length
    ? r.commit
      ? `Imported ${fresh.length} new decisions from ${r.dir} in one commit ${r.commit.slice(0, 12)}`
      : `Dry run: ${fresh.length} new decisions from ${r.dir} (nothing written)`
    : `${nothingNew(r)}${r.dry_run ? ' (dry run: nothing written)' : ''}`;
  const lines = [head];
  for (const i of fresh) lines.push(`- ${i.id} ${i.title} (${i.status}) <- ${i.path}${i.note ? `: ${i.note}` : ''}`);
  if (linked.length) lines.push(`Stored decisions given a supersession link: ${linked.map((i) => i.id).join(', ')}`);
  const known = r.items.filter((i) => i.outcome === 'exists').length;
  if (known) lines.push(`Already in the store: ${known}`);
  if (r.skipped.length) lines.push(`Skipped (not ADRs): ${r.skipped.map((s) => s.path).join(', ')}`);
  if (r.problems.length) {
    lines.push(`Left out (${r.problems.length}):`);
    for (const p of r.problems) lines.push(`- ${p.path}: ${p.reason}`);
  }
  return lines.join('\n');
}

/** What an import that brings no new decision says: everything is in the store already, nothing could be read, or the folder holds no ADRs. */
function nothingNew(r: ImportAdrResult): string {
  if (r.items.length) return `Nothing new to import from ${r.dir}: every ADR read is already in the store`;
  if (r.problems.length) return `No ADRs imported from ${r.dir}: none of its ADR files could be read (see Left out)`;
  return `No ADRs in ${r.dir}: looked for Markdown files (*.md) directly in it, other than ${ADR_FOLDER_EXTRAS}; give the folder holding the ADR files (such as docs/adr, doc/adr or docs/decisions)`;
}

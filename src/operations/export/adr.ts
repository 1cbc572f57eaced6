import { z } from 'zod';
import type { ExportAdrResult } from '../../knowledge/export/adr/export-adr.ts';
import { ExportAdrInput } from '../../model/import-export.ts';
import { defineOperation, SAVE } from '../operation.ts';

/** export.adr: `axme export adr <dir>` (CLI only: a generated folder for people and ADR tools). */
export const exportAdr = defineOperation({
  id: 'export.adr',
  summary: 'Write the decisions as a MADR folder',
  description:
    "Writes every decision of the store as a MADR 4 file `NNNN-<slug>.md` (NNNN: its D-number; front matter with status and date, `# Title`, `## Context and Problem Statement` with the reasoning, `## Decision Outcome` with the decision; a superseded one's status links its successor) and an index README.md. Each file is marked as generated: exporting again updates the folder in place, removes generated files whose decision is gone, and never touches other files. `axme import adr` reads the folder back into the same decisions.",
  input: ExportAdrInput.shape,
  output: z.looseObject({
    dir: z.string().describe('the folder written'),
    commit: z.string().nullable().describe('the memory commit the decisions were read from'),
    decisions: z.number().describe('decisions exported'),
    files: z
      .array(
        z.object({
          name: z.string().describe('file name in the folder'),
          outcome: z
            .enum(['new', 'changed', 'unchanged', 'removed', 'kept'])
            .describe(
              'new, changed, unchanged: a file the export owns; removed: written earlier for a decision no longer in the store; kept: a file of that name the export did not write, left alone',
            ),
        }),
      )
      .describe('what happened to each file'),
  }),
  annotations: SAVE,
  write: false,
  mcp: null,
  async run(kb, input, opts): Promise<ExportAdrResult> {
    return (await import('../../knowledge/export/adr/export-adr.ts')).exportAdr(kb, input, { cwd: opts?.cwd });
  },
  json: (r) => ({ ...r }),
  text: (r) => describe(r),
  cli: { command: ['export', 'adr'], positional: ['dir'] },
});

function describe(r: ExportAdrResult): string {
  const count = (o: string) => r.files.filter((f) => f.outcome === o).length;
  const written = count('new') + count('changed');
  const lines = [
    `Exported ${r.decisions} decisions to ${r.dir}: ${written} files written, ${count('unchanged')} unchanged${count('removed') ? `, ${count('removed')} removed` : ''}`,
  ];
  const kept = r.files.filter((f) => f.outcome === 'kept');
  if (kept.length) lines.push(`Left alone (not written by axme export adr; rename or remove them to export these): ${kept.map((f) => f.name).join(', ')}`);
  return lines.join('\n');
}

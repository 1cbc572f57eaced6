import { z } from 'zod';
import type { ExportAutoMemoryResult } from '../../knowledge/auto-memory/export-auto-memory.ts';
import { ExportAutoMemoryInput } from '../../model/import-export.ts';
import { DISABLED_NOTE, disabled, source } from '../auto-memory.ts';
import { defineOperation, SAVE } from '../operation.ts';

/** export.auto-memory: `axme export auto-memory` (CLI only: the session-end hook runs it when axme.yaml says `autoMemory: sync`). */
export const exportAutoMemory = defineOperation({
  id: 'export.auto-memory',
  summary: "Write the knowledge into Claude Code's auto memory",
  description:
    "Writes axme's section of MEMORY.md in Claude Code's auto memory folder (required decisions, safety rules, the latest handoff, memories) between marker comments, keeping the rest of the file byte for byte and the whole within the 200 lines and 25 KB Claude Code loads (lists shrink to fit, pointing to the topic files), and the topic files axme-decisions.md and axme-memories.md with the full lists. Files that would not change are not touched. `dry_run` writes nothing.",
  input: ExportAutoMemoryInput.shape,
  output: z.looseObject({
    dir: z.string().describe('the auto memory folder'),
    source,
    disabled,
    dry_run: z.boolean().describe('true: nothing was written'),
    files: z
      .array(
        z.object({
          name: z.string().describe('file name in the folder'),
          changed: z.boolean().describe('written (with dry_run: would be); false: already up to date'),
        }),
      )
      .describe('the files axme writes (MEMORY.md: its section)'),
    section: z.boolean().describe("false: the user's own text fills MEMORY.md, axme's section was left out"),
    counts: z.looseObject({}).describe('required decisions and memories shown in MEMORY.md and in all; whether the safety rules and the handoff are in it'),
    lines: z.number().describe('lines of MEMORY.md (at most 200)'),
    bytes: z.number().describe('bytes of MEMORY.md (at most 25,000)'),
    user_lines: z.number().describe("lines of MEMORY.md outside axme's section"),
  }),
  annotations: SAVE,
  write: false,
  mcp: null,
  async run(kb, input, opts): Promise<ExportAutoMemoryResult> {
    return (await import('../../knowledge/auto-memory/export-auto-memory.ts')).exportAutoMemory(kb, input, { cwd: opts?.cwd, env: opts?.env });
  },
  json: (r) => ({ ...r }),
  text: describeExport,
  cli: { command: ['export', 'auto-memory'] },
});

function describeExport(r: ExportAutoMemoryResult): string {
  const changed = r.files.filter((f) => f.changed).map((f) => f.name);
  const c = r.counts;
  const head = r.dry_run
    ? changed.length
      ? `Dry run: would write ${changed.join(', ')} in ${r.dir} (nothing written)`
      : `Dry run: ${r.dir} is up to date (nothing to write)`
    : changed.length
      ? `Wrote ${changed.join(', ')} in ${r.dir}`
      : `Auto memory up to date in ${r.dir}: nothing written`;
  const lines = [head];
  if (r.section) {
    lines.push(
      `- MEMORY.md: ${r.lines} lines, ${r.bytes} bytes (${r.user_lines} lines are not axme's); shows ${c.required_shown} of ${c.required_total} required decisions, ${c.memories_shown} of ${c.memories_total} memories${c.safety ? ', the safety rules' : ''}${c.handoff ? ', the latest handoff' : ''}`,
    );
  } else {
    lines.push(
      `- MEMORY.md: its own text (${r.user_lines} lines) leaves no room for axme's section within 200 lines and 25 KB: left out; the topic files have everything`,
    );
  }
  lines.push(`- axme-decisions.md: ${c.decisions} active decision${c.decisions === 1 ? '' : 's'}; axme-memories.md: every active memory`);
  if (r.disabled) lines.push(DISABLED_NOTE);
  return lines.join('\n');
}

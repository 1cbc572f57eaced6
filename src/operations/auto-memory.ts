import { z } from 'zod';
import type { ExportAutoMemoryResult } from '../knowledge/auto-memory/export-auto-memory.ts';
import type { ImportAutoMemoryResult } from '../knowledge/auto-memory/import-auto-memory.ts';
import { ExportAutoMemoryInput, ImportAutoMemoryInput } from '../model/import-export.ts';
import { defineOperation, SAVE } from './operation.ts';

const source = z
  .enum(['option', 'settings', 'transcript', 'key'])
  .describe("how the folder was found: --dir, autoMemoryDirectory of the user's Claude Code settings, the session's transcript, or the project key");
const disabled = z
  .boolean()
  .describe(
    "Claude Code's auto memory is off here (CLAUDE_CODE_DISABLE_AUTO_MEMORY, or autoMemoryEnabled: false in its settings): it does not read the folder",
  );
const DISABLED_NOTE =
  "Note: Claude Code's auto memory is off here (CLAUDE_CODE_DISABLE_AUTO_MEMORY, or autoMemoryEnabled: false in its settings), so it does not read this folder now.";

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
    return (await import('../knowledge/auto-memory/export-auto-memory.ts')).exportAutoMemory(kb, input, { cwd: opts?.cwd, env: opts?.env });
  },
  json: (r) => ({ ...r }),
  text: describeExport,
  cli: { command: ['export', 'auto-memory'] },
});

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
    return (await import('../knowledge/auto-memory/import-auto-memory.ts')).importAutoMemory(kb, input, {
      cwd: opts?.cwd,
      env: opts?.env,
      allowSecret: opts?.allowSecret,
    });
  },
  json: (r) => ({ ...r }),
  text: describeImport,
  cli: { command: ['import', 'auto-memory'] },
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

import { z } from 'zod';

/** Parameters of importing a folder of ADRs (`axme import adr`). */
export const ImportAdrInput = z.object({
  dir: z.string().min(1).max(4096).describe('the ADR folder (e.g. docs/adr, doc/adr, docs/decisions)'),
  dry_run: z.boolean().default(false).describe('show what would come in; write nothing'),
});
export type ImportAdrInput = z.input<typeof ImportAdrInput>;

/** Parameters of exporting the decisions as a MADR folder (`axme export adr`). */
export const ExportAdrInput = z.object({
  dir: z.string().min(1).max(4096).describe('the folder to write (created when missing), e.g. docs/decisions'),
  at: z.string().max(200).optional().describe('export the decisions as they were: a commit, ~N (N commits back) or a date'),
});
export type ExportAdrInput = z.input<typeof ExportAdrInput>;

const autoMemoryDir = z
  .string()
  .min(1)
  .max(4096)
  .optional()
  .describe("the auto memory folder (the one holding MEMORY.md); default: Claude Code's own for this repository (docs/auto-memory.md)");

/** Parameters of writing the knowledge into Claude Code's auto memory (`axme export auto-memory`). */
export const ExportAutoMemoryInput = z.object({
  dir: autoMemoryDir,
  dry_run: z.boolean().default(false).describe('show what would be written; write nothing'),
});
export type ExportAutoMemoryInput = z.input<typeof ExportAutoMemoryInput>;

/** Parameters of importing Claude Code's auto memory notes (`axme import auto-memory`). */
export const ImportAutoMemoryInput = z.object({
  dir: autoMemoryDir,
  dry_run: z.boolean().default(false).describe('show what would come in; write nothing'),
});
export type ImportAutoMemoryInput = z.input<typeof ImportAutoMemoryInput>;

// What the export and the import of Claude Code's auto memory share (export/auto-memory.ts, import/auto-memory.ts).
import { z } from 'zod';
import type { ExportAutoMemoryResult } from '../knowledge/auto-memory/export-auto-memory.ts';
import type { ImportAutoMemoryResult } from '../knowledge/auto-memory/import-auto-memory.ts';
import { ExportAutoMemoryInput, ImportAutoMemoryInput } from '../model/import-export.ts';
import { defineOperation, SAVE } from './operation.ts';

export const source = z
  .enum(['option', 'settings', 'transcript', 'key'])
  .describe("how the folder was found: --dir, autoMemoryDirectory of the user's Claude Code settings, the session's transcript, or the project key");
export const disabled = z
  .boolean()
  .describe(
    "Claude Code's auto memory is off here (CLAUDE_CODE_DISABLE_AUTO_MEMORY, or autoMemoryEnabled: false in its settings): it does not read the folder",
  );
export const DISABLED_NOTE =
  "Note: Claude Code's auto memory is off here (CLAUDE_CODE_DISABLE_AUTO_MEMORY, or autoMemoryEnabled: false in its settings), so it does not read this folder now.";

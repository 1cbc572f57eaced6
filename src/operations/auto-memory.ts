// What the export and the import of Claude Code's auto memory share (export/auto-memory.ts, import/auto-memory.ts).
import { z } from 'zod';

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

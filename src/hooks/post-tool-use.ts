import { readPayload } from '../setup/clients/hook-registry.ts';
import type { HookIO } from './io.ts';
import { recordEdits } from './record-edits.ts';

/**
 * After a tool call (PostToolUse, Gemini's AfterTool, Cursor's afterFileEdit): records the files
 * an edit changed in the session's machine-local state.
 */
export async function postToolUse(io: HookIO): Promise<void> {
  recordEdits(io, readPayload(io.stdin, io.protocol));
}

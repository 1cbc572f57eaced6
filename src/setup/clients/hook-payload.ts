import type { ToolCall } from '../../safety/evaluate.ts';
import { isHarnessSessionId } from '../../session/sessions.ts';

/**
 * A hook's input in one shape, whatever client sent it (each client's adapter, `<client>.hook.ts`, maps its JSON
 * onto it): Claude Code's field names, and the tool calls in Claude Code's vocabulary. Checked
 * by hand, not with zod: the pre-tool-use path must not load it.
 */
export interface HookPayload {
  session_id: string | null;
  transcript_path: string | null;
  cwd: string | null;
  hook_event_name: string | null;
  /** the tool as the client named it */
  tool_name: string | null;
  tool_input: Record<string, unknown>;
  /** what the call does, as the calls the policy engine knows (one for most tools; none when no tool is named) */
  calls: ToolCall[];
  /** SessionStart: startup | resume | clear | compact; SessionEnd: why it ended */
  source: string | null;
  reason: string | null;
  /** a compaction's (PreCompact, PreCompress): manual | auto */
  trigger: string | null;
}

export class PayloadError extends Error {}

/** The payload's session_id, checked before it names a session file: PayloadError for one like "../x". */
export function checkedSessionId(id: string): string {
  if (isHarnessSessionId(id)) return id;
  throw new PayloadError(
    `the hook input's session_id ${JSON.stringify(id.slice(0, 80))} cannot name a session: a session_id is 1 to 128 letters, digits, ".", "_" or "-" (Claude Code sends a UUID)`,
  );
}

/** The hook input as a JSON object; PayloadError says what is wrong with it. */
export function parseJsonObject(text: string): Record<string, unknown> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new PayloadError(`the hook input is not JSON (${(err as Error).message}); a hook reads one JSON object on stdin`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new PayloadError('the hook input is not a JSON object');
  return raw as Record<string, unknown>;
}

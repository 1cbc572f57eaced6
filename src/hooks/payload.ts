import { isHarnessSessionId } from '../session/sessions.ts';

/**
 * Claude Code's hook input (JSON on stdin): common fields plus the event's own. Checked by hand,
 * not with zod: the pre-tool-use path must not load it.
 */
export interface HookPayload {
  session_id: string | null;
  transcript_path: string | null;
  cwd: string | null;
  hook_event_name: string | null;
  tool_name: string | null;
  tool_input: Record<string, unknown>;
  /** SessionStart: startup | resume | clear | compact; SessionEnd: why it ended */
  source: string | null;
  reason: string | null;
}

export class PayloadError extends Error {}

/** The payload's session_id, checked before it names a session file: PayloadError for one like "../x". */
export function checkedSessionId(id: string): string {
  if (isHarnessSessionId(id)) return id;
  throw new PayloadError(`the hook input's session_id ${JSON.stringify(id.slice(0, 80))} cannot name a session: a session_id is 1 to 128 letters, digits, ".", "_" or "-" (Claude Code sends a UUID)`);
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** Parses the payload; PayloadError says what is wrong with it. */
export function parsePayload(text: string): HookPayload {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new PayloadError(`the hook input is not JSON (${(err as Error).message}); a Claude Code hook reads one JSON object on stdin`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new PayloadError('the hook input is not a JSON object');
  const o = raw as Record<string, unknown>;
  const input = o.tool_input;
  return {
    session_id: str(o.session_id),
    transcript_path: str(o.transcript_path),
    cwd: str(o.cwd),
    hook_event_name: str(o.hook_event_name),
    tool_name: str(o.tool_name),
    tool_input: typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {},
    source: str(o.source),
    reason: str(o.reason),
  };
}

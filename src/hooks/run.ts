import type { HOOK_EVENT_NAMES } from '../model/hook-names.ts';
import type { HookIO } from './io.ts';
import { postToolUse } from './post-tool-use.ts';
import { preCompact } from './pre-compact.ts';
import { preToolUse } from './pre-tool-use.ts';
import { DEFAULT_DEADLINE_MS, EVENT_DEADLINE_MS, runEvent } from './run-event.ts';
import { sessionEnd } from './session-end.ts';
import { sessionStart } from './session-start.ts';
import { userPromptSubmit } from './user-prompt-submit.ts';

/** `axme hook <event> [--client <name>]`: the hook events axme answers, in every client's protocol (setup/clients/<client>.hook.ts). */
export const HOOK_EVENTS = {
  'pre-tool-use': preToolUse,
  'post-tool-use': postToolUse,
  'session-start': sessionStart,
  'session-end': sessionEnd,
  'user-prompt-submit': userPromptSubmit,
  'pre-compact': preCompact,
} as const satisfies Record<(typeof HOOK_EVENT_NAMES)[number], (io: HookIO) => Promise<void>>;

/**
 * Runs one hook event; returns the exit code. pre-tool-use fails closed: a bad payload, an
 * internal error or running out of time is a deny that says why — never silence, which would
 * let the call through. Other events report problems on stderr and exit 1 (non-blocking).
 */
export async function runHook(
  event: string,
  io: HookIO,
  deadlineMs = (EVENT_DEADLINE_MS as Record<string, number>)[event] ?? DEFAULT_DEADLINE_MS,
): Promise<number> {
  const handler = (HOOK_EVENTS as Record<string, (io: HookIO) => Promise<void>>)[event];
  if (!handler) {
    io.stderr(`axme hook: unknown event "${event}"; events: ${Object.keys(HOOK_EVENTS).join(', ')}\n`);
    return 2;
  }
  return runEvent(event, handler, io, deadlineMs);
}

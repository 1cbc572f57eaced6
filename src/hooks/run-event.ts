import type { HOOK_EVENT_NAMES } from '../model/hook-names.ts';
import { PayloadError } from '../setup/clients/hook-payload.ts';
import type { HookIO } from './io.ts';

/** The harness kills a hook after its timeout (axme init sets 10 s): answer well before that. */
export const DEFAULT_DEADLINE_MS = 8_000;

/**
 * Each event's own deadline, under the time limit axme init gives it in every client: the session
 * start has 30 s there (it may recover earlier sessions and read a large store on a loaded
 * machine), so it answers within 25 s rather than giving up at 8 and starting the session blind.
 */
export const EVENT_DEADLINE_MS = {
  'pre-tool-use': DEFAULT_DEADLINE_MS,
  'post-tool-use': DEFAULT_DEADLINE_MS,
  'session-start': 25_000,
  'session-end': DEFAULT_DEADLINE_MS,
  // a prompt waits for it: recall gives up early rather than hold the user
  'user-prompt-submit': 5_000,
  // the checkpoint reads the session's record, commits and transcript; the compaction waits for it
  'pre-compact': 20_000,
} as const satisfies Record<(typeof HOOK_EVENT_NAMES)[number], number>;

/**
 * Runs `handler` as hook `event` within `deadlineMs`; returns the exit code. pre-tool-use fails
 * closed: a bad payload, an internal error or running out of time is a deny that says why — never
 * silence, which would let the call through. A prompt is never held up by its recall: a failure
 * injects nothing and exits 0. Other events report problems on stderr and exit 1 (non-blocking).
 * Free of the handlers themselves: the prompt hook's own bundle (cli/prompt-hook-main.ts) runs its
 * one handler through it, run.ts any of them.
 */
export async function runEvent(event: string, handler: (io: HookIO) => Promise<void>, io: HookIO, deadlineMs: number): Promise<number> {
  const gate = event === 'pre-tool-use';
  const failOpen = event === 'user-prompt-submit' ? 0 : 1;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), deadlineMs);
  });
  try {
    const r = await Promise.race([handler({ ...io, answerBy: performance.now() + deadlineMs }).then(() => 'done' as const), timeout]);
    if (r === 'timeout') {
      const why = `axme could not decide within ${Math.round(deadlineMs / 1000)} s`;
      if (gate) io.stdout(io.protocol.deny(`${why}; the call was denied to stay safe. Try again; if it persists, run \`axme doctor\``));
      else io.stderr(`axme hook ${event}: ${why}\n`);
      return gate ? 0 : failOpen;
    }
    return 0;
  } catch (err) {
    const msg = err instanceof PayloadError ? err.message : `internal error: ${(err as Error).message}`;
    if (gate) {
      io.stdout(io.protocol.deny(`axme could not check this call (${msg}); it was denied to stay safe. Run \`axme doctor\``));
      return 0;
    }
    io.stderr(`axme hook ${event}: ${msg}\n`);
    return failOpen;
  } finally {
    clearTimeout(timer);
  }
}

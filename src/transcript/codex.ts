import { type CodexContext, codexLine, isSubagentMeta } from './codex-line.ts';
import { linesBefore, readJsonl } from './jsonl-stream.ts';
import type { ReadTranscriptOptions, TranscriptReader, TranscriptStream } from './types.ts';
import { isObject } from './values.ts';

/**
 * Codex's rollouts (@openai/codex 0.169.0): `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`, one
 * `RolloutLine` a line, appended in order (codex-line.ts). A subagent's rollout (its `session_meta`
 * names a subagent source) is read as sidechain entries.
 */
export const codexReader: TranscriptReader = {
  client: 'codex',
  read: readCodex,
};

/** Streams the entries of a Codex rollout from `from` (default 0), once; see `TranscriptReader`. */
function readCodex(options: ReadTranscriptOptions): TranscriptStream {
  const ctx: CodexContext = { sidechain: false };
  return readJsonl(options, {
    // read from an offset: the first line still says whose rollout it is
    prepare: async (bounds) => {
      for await (const text of linesBefore(bounds, bounds.from)) {
        try {
          const v = JSON.parse(text) as unknown;
          if (isObject(v) && v.type === 'session_meta' && isObject(v.payload)) ctx.sidechain = isSubagentMeta(v.payload);
        } catch {
          // not JSON: nothing to learn
        }
        return;
      }
    },
    line: (text, at, stats) => codexLine(text, at, stats, ctx),
  });
}

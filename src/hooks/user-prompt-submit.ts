import { type RepoLocation, sessionStoreAt } from '../knowledge/core/location.ts';
import { CHECKPOINT_KEY, itemKey } from '../session/given.ts';
import { parseJsonObject } from '../setup/clients/hook-payload.ts';
import { readPayload } from '../setup/clients/hook-registry.ts';
import { dueCheckpoint, givenSoFar, rememberGiven } from './given.ts';
import { harnessSessionIfRecorded } from './harness-session.ts';
import type { HookIO } from './io.ts';
import { renumberedNotice } from './renumbered-notice.ts';

/** Context a hook added in front of the prompt (headless Gemini CLI prepends the session start's). */
const HOOK_CONTEXT_RE = /<hook_context>[\s\S]*?<\/hook_context>/g;

/** What the user typed: the prompt without the hooks' context a client put into it (searching that would recall what the start gave). */
export function usersWords(prompt: string): string {
  return prompt.replace(HOOK_CONTEXT_RE, ' ');
}

/**
 * A prompt (Claude Code's and Codex's UserPromptSubmit, Gemini CLI's BeforeAgent): searches the
 * store with the prompt and hands the agent the few current items it is about — one line each,
 * at most 2,000 characters, none the session was given already, nothing when nothing clears the
 * relevance floor (knowledge/views/recall.ts). Never blocks the prompt: run.ts turns any failure
 * into exit 0 with a line on stderr.
 */
export async function userPromptSubmit(io: HookIO): Promise<void> {
  const raw = parseJsonObject(io.stdin);
  const p = readPayload(io.stdin, io.protocol);
  const prompt = typeof raw.prompt === 'string' ? usersWords(raw.prompt) : '';
  const cwd = p.cwd ?? io.cwd;
  const loc = sessionStoreAt(cwd, io.env);
  if (!io.protocol.promptContext || !loc || prompt.trim() === '') return void io.stdout(io.protocol.pass);
  const session = p.session_id ? harnessSessionIfRecorded(io, { ...p, session_id: p.session_id }, loc.commonDir) : null;
  const given = session ? givenSoFar(io, loc.commonDir, session.id) : new Set<string>();
  // a client that starts no context after a compaction (Gemini CLI): the first prompt after it carries the checkpoint
  const checkpoint = session ? dueCheckpoint(loc.commonDir, session.id, given) : null;
  // a sync here renumbered an ID the session may hold: said before the recall, whose lines use the new IDs
  const renumbered = session ? renumberedNotice(io, loc.commonDir, session, given) : null;
  const { text, shown } = await recallOf(io, loc, { prompt, cwd, given });
  const all = [checkpoint, renumbered?.text, text].filter(Boolean).join('\n\n');
  if (!all) return void io.stdout(io.protocol.pass);
  io.stdout(io.protocol.promptContext(all));
  if (session)
    rememberGiven(io, loc.commonDir, session.id, 'prompt', [
      ...(checkpoint ? [CHECKPOINT_KEY] : []),
      ...(renumbered?.keys ?? []),
      ...shown.map((e) => itemKey(e.kind, e.slug)),
    ]);
}

/** The prompt's recall: at the memory tip when the index file can answer (no store opened: hooks/tip-recall.ts), else through the store. */
async function recallOf(io: HookIO, loc: RepoLocation, opts: { prompt: string; cwd: string; given: ReadonlySet<string> }) {
  let atTip: ReturnType<typeof import('./tip-recall.ts').promptRecallAtTip>;
  try {
    atTip = io.loadTipSearch?.().promptRecallAtTip(loc, io.env, opts);
  } catch {
    atTip = undefined; // the fast path's own failure: the store answers
  }
  return atTip ?? (await io.loadStoreWork()).promptRecall(loc, io.env, opts);
}

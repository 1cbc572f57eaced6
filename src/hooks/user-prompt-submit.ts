import { sessionStoreAt, type RepoLocation } from '../knowledge/core/location.ts';
import { parseJsonObject } from '../setup/clients/hook-payload.ts';
import { readPayload } from '../setup/clients/hook-registry.ts';
import { givenSoFar, rememberGiven } from './given.ts';
import { harnessSession } from './harness-session.ts';
import type { HookIO } from './io.ts';

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
  const prompt = typeof raw.prompt === 'string' ? raw.prompt : '';
  const cwd = p.cwd ?? io.cwd;
  const loc = sessionStoreAt(cwd, io.env);
  if (!io.protocol.promptContext || !loc || prompt.trim() === '') return void io.stdout(io.protocol.pass);
  const session = p.session_id ? harnessSession(io, { ...p, session_id: p.session_id }, loc.commonDir) : null;
  const given = session ? givenSoFar(io, loc.commonDir, session.id) : new Set<string>();
  const { text, shown } = await recallOf(io, loc, { prompt, cwd, given });
  if (!text) return void io.stdout(io.protocol.pass);
  io.stdout(io.protocol.promptContext(text));
  if (session) rememberGiven(io, loc.commonDir, session.id, 'prompt', shown.map((e) => `${e.kind} ${e.ref}`));
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

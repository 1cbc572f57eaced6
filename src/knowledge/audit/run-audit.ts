import { statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { LlmAnswer, LlmProvider } from '../../llm/types.ts';
import { AuditAnswer, type AuditLogEntry, type AuditMode } from '../../model/audit.ts';
import { SESSION_ID_FORM, SESSION_ID_RE } from '../../model/common.ts';
import { AxmeError } from '../../model/errors.ts';
import { isLive } from '../../model/liveness.ts';
import { mappedSession, readSession } from '../../session/sessions.ts';
import { clientOfHarness, readerFor, type SniffedTranscript, sniffTranscript } from '../../transcript/clients.ts';
import { type RenderedChunk, TranscriptRenderer } from '../../transcript/render.ts';
import type { TranscriptClient, TranscriptStats } from '../../transcript/types.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { readState } from '../core/state.ts';
import type { AuditApplied } from './apply-audit.ts';
import { appendAuditLog, claimAudit, readSessionAudit, writeSessionAudit } from './audit-state.ts';
import { mergeAnswers } from './merge-answers.ts';
import { parseAnswer, repairRequest } from './parse-answer.ts';
import { FULL_PROMPT } from './prompts/full.ts';
import { VERIFY_PROMPT } from './prompts/verify.ts';
import { applyRouted, type RoutedAudit } from './route-audit.ts';

/** Characters of transcript per model request (about 40k tokens). */
export const DEFAULT_CHUNK_CHARS = 150_000;
/** Tokens the model may answer with. */
export const ANSWER_TOKENS = 8_192;
/** Titles of stored knowledge shown to the model so it leaves them out. */
const STORED_SHOWN = 300;

export interface AuditOptions {
  transcript: string;
  /** the axme session (default: the one the transcript's harness session maps to, else the file's name) */
  session?: string | undefined;
  /** default: verify when the agent closed the session itself, else full */
  mode?: AuditMode | undefined;
  dryRun?: boolean;
  /** read the transcript from its start, not from where the last audit stopped */
  fromStart?: boolean;
  chunkChars?: number;
  signal?: AbortSignal;
  /** the client that wrote the transcript (default: the session's harness, else what the transcript's first line says) */
  client?: TranscriptClient | undefined;
}

export interface AuditResult {
  session: string;
  mode: AuditMode;
  transcript: string;
  /** whose transcript it was read as */
  client: TranscriptClient;
  provider: string;
  model: string;
  dry_run: boolean;
  from_offset: number;
  to_offset: number;
  chunks: number;
  /** the merged extraction (what --dry-run shows) */
  answer: AuditAnswer;
  applied: AuditApplied;
  /** with `scope` in a workspace: what was written in other repositories' stores (one commit each) */
  others: RoutedAudit['others'];
  tokens_in: number;
  tokens_out: number;
  cost_usd: number | null;
  redacted: number;
  /** lines of the transcript skipped (unknown or malformed) */
  skipped_lines: number;
  duration_ms: number;
  /** a dry run with no model: the requests that would have been sent (system prompt, redacted chunk), none sent */
  unsent?: Array<{ system: string; user: string }>;
}

/** The transcript's absolute path and size; INVALID_INPUT when it is not a readable file. */
export function transcriptFile(path: string): { transcript: string; size: number } {
  const transcript = resolve(path);
  try {
    const st = statSync(transcript);
    if (st.isFile()) return { transcript, size: st.size };
  } catch {
    // said below
  }
  throw new AxmeError(
    'INVALID_INPUT',
    `${transcript} is not a readable file: give the path of a session transcript (.jsonl): Claude Code's are under ~/.claude/projects/, Gemini CLI's under ~/.gemini/tmp/<project>/chats/, Codex's under ~/.codex/sessions/`,
  );
}

/**
 * Audits a session's transcript with a model (docs/auditor.md): reads it from where the last
 * audit stopped (a resumed or compacted session sends only what is new), renders it in chunks
 * with credentials redacted, asks the model chunk by chunk (full extraction, or verify-only when
 * the agent closed the session), validates each answer with the schema of axme_finalize_close
 * (one repair round-trip, then the audit fails with the raw answer in the log), merges them and
 * writes what is new as ONE commit by `auditor`. One audit per session at a time; a failure
 * leaves the session marked for retry and writes nothing. Every run is logged on this machine.
 */
export async function runAudit(kb: KnowledgeBase, provider: LlmProvider, opts: AuditOptions): Promise<AuditResult> {
  const started = Date.now();
  const commonDir = kb.repo.commonDir;
  const transcript = resolve(opts.transcript);
  // (a missing file sniffs as nothing: it fails below, recorded like any failed attempt)
  const sniffed = await sniffTranscript(transcript).catch(() => null);
  const session = sessionOf(commonDir, transcript, opts.session, sniffed);
  const local = readSession(commonDir, session);
  // the format: the client the session ran in, else what the file's first line says
  const client = opts.client ?? clientOfHarness(local?.meta.harness) ?? sniffed?.client ?? null;
  const mode: AuditMode = opts.mode ?? (local?.closed || (await closedByAgent(kb, session)) ? 'verify' : 'full');
  const release = opts.dryRun ? () => {} : claimAudit(commonDir, session);
  if (!release)
    throw new AxmeError('CONFLICT', `session ${session} is being audited by another process now: wait for it (\`axme audit log\` shows when it is done)`);
  // read under the lock: an audit that finished just before it was taken has moved the offset
  const previous = readSessionAudit(commonDir, session);
  let from = 0;
  const usage = { in: 0, out: 0, cost: 0 as number | null, chunks: 0 };
  const log = (extra: Partial<AuditLogEntry> & Pick<AuditLogEntry, 'ok'>): void =>
    appendAuditLog(commonDir, {
      at: kb.now().toISOString(),
      session,
      transcript,
      ...(client ? { client } : {}),
      mode,
      provider: provider.name,
      model: provider.model,
      dry_run: !!opts.dryRun,
      duration_ms: Date.now() - started,
      tokens_in: usage.in,
      tokens_out: usage.out,
      cost_usd: usage.cost,
      from_offset: from,
      to_offset: from,
      chunks: usage.chunks,
      extracted: 0,
      deduplicated: 0,
      written: 0,
      redacted: 0,
      commit: null,
      ...extra,
    });
  // while running and after a failure: the offset audited so far stands, one more attempt counted
  const retry = { transcript, offset: previous?.transcript === transcript ? previous.offset : 0, mode, attempts: (previous?.attempts ?? 0) + 1 };
  try {
    const { size } = transcriptFile(transcript);
    from = opts.fromStart || !previous || previous.transcript !== transcript || previous.offset > size ? 0 : previous.offset;
    if (!opts.dryRun) writeSessionAudit(commonDir, session, { ...retry, status: 'running', updated: kb.now().toISOString() });
    const stored = await storedList(kb);
    const system = (mode === 'full' ? FULL_PROMPT : VERIFY_PROMPT).system;
    const answers: AuditAnswer[] = [];
    if (!client) throw unknownFormat(transcript);
    const stream = readerFor(client).read({ path: transcript, from });
    // the main conversation only (the renderer's default): subagents' work is theirs, the main conversation says what came of it
    const renderer = new TranscriptRenderer({ budget: opts.chunkChars ?? DEFAULT_CHUNK_CHARS });
    const ask = async (chunk: RenderedChunk, last: boolean): Promise<void> => {
      usage.chunks++;
      const user = `${stored}\n\nTranscript${last && chunk.index === 0 ? '' : ` (part ${chunk.index + 1}${last ? ', the last' : ''})`}:\n${chunk.text}`;
      answers.push(await askModel(provider, system, user, usage, opts.signal));
    };
    let pending: RenderedChunk | null = null;
    for await (const entry of stream) {
      const full = renderer.add(entry);
      if (!full) continue;
      if (pending) await ask(pending, false);
      pending = full;
    }
    // a whole transcript of which nothing was understood is not one this reader knows: never `done`
    if (from === 0 && stream.stats.entries === 0 && (stream.stats.lines > 0 || stream.stats.oversized > 0)) throw unreadable(transcript, client, stream.stats);
    const lastChunk = renderer.finish();
    if (pending) await ask(pending, !lastChunk);
    if (lastChunk) await ask(lastChunk, true);
    const redacted = renderer.stats.redactions;
    const to = stream.end_offset;
    const answer = mergeAnswers(answers);
    const auditor: KnowledgeBase = { ...kb, actor: 'auditor', session };
    const routed: RoutedAudit = answers.length
      ? await applyRouted(auditor, answer, { mode, dryRun: opts.dryRun })
      : {
          main: {
            commit: null,
            ref: kb.ref,
            written: { decisions: [], memories: [], questions: [], safety_rules: [], handoff: null, summary: null },
            dropped: [],
            extracted: 0,
          },
          others: [],
        };
    const applied = routed.main;
    const written = applied.written.decisions.length + applied.written.memories.length + applied.written.questions.length + applied.written.safety_rules.length;
    if (!opts.dryRun) writeSessionAudit(commonDir, session, { transcript, offset: to, status: 'done', mode, attempts: 0, updated: kb.now().toISOString() });
    log({ ok: true, to_offset: to, extracted: applied.extracted, deduplicated: applied.dropped.length, written, redacted, commit: applied.commit });
    return {
      session,
      mode,
      transcript,
      client,
      provider: provider.name,
      model: provider.model,
      dry_run: !!opts.dryRun,
      from_offset: from,
      to_offset: to,
      chunks: usage.chunks,
      answer,
      applied,
      others: routed.others,
      tokens_in: usage.in,
      tokens_out: usage.out,
      cost_usd: usage.cost,
      redacted,
      skipped_lines: stream.stats.skipped_unknown + stream.stats.malformed,
      duration_ms: Date.now() - started,
    };
  } catch (err) {
    const message = (err as Error).message?.split('\n')[0] ?? String(err);
    if (!opts.dryRun) writeSessionAudit(commonDir, session, { ...retry, status: 'failed', error: message, updated: kb.now().toISOString() });
    log({ ok: false, error: message, ...((err as AxmeError).data?.raw ? { raw: String((err as AxmeError).data!.raw).slice(0, 20_000) } : {}) });
    throw err;
  } finally {
    release();
  }
}

/** One chunk's answer from the model: parsed and validated, after at most one repair round-trip. */
async function askModel(
  provider: LlmProvider,
  system: string,
  user: string,
  usage: { in: number; out: number; cost: number | null },
  signal?: AbortSignal,
): Promise<AuditAnswer> {
  const count = (a: LlmAnswer) => {
    usage.in += a.inputTokens;
    usage.out += a.outputTokens;
    usage.cost = usage.cost === null || a.costUsd === null ? null : usage.cost + a.costUsd;
  };
  const first = await provider.complete({ system, user, maxTokens: ANSWER_TOKENS, temperature: 0, json: true, signal });
  count(first);
  const parsed = parseAnswer(first.text);
  if (parsed.ok && first.stop !== 'max_tokens') return parsed.answer;
  // a cut-off answer is asked for again, shorter; an unusable one, repaired
  const problem =
    first.stop === 'max_tokens' ? 'it was cut off at the token limit (answer again, shorter: fewer and shorter items)' : parsed.ok ? '' : parsed.problem;
  const second = await provider.complete({
    system,
    user: `${user}\n\n${repairRequest(problem, first.text)}`,
    maxTokens: ANSWER_TOKENS,
    temperature: 0,
    json: true,
    signal,
  });
  count(second);
  const again = parseAnswer(second.text);
  if (again.ok) return again.answer;
  throw new AxmeError(
    'UNAVAILABLE',
    `the model's answer could not be used, even after asking it to repair it: ${again.problem}. Nothing was written; the raw answer is in \`axme audit log --json\`; run the audit again or try another model`,
    { raw: second.text },
  );
}

/** True when the store holds the agent's own handoff of the session (it closed it, on this machine or another). */
async function closedByAgent(kb: KnowledgeBase, session: string): Promise<boolean> {
  if (!(await kb.repo.backend.resolveRef(kb.ref))) return false;
  return (await readState(kb)).items.handoff.some((h) => h.slug === session && h.source === 'agent');
}

/** What is stored now, for the model to leave out: the current decisions and memories by title. */
async function storedList(kb: KnowledgeBase): Promise<string> {
  if (!(await kb.repo.backend.resolveRef(kb.ref))) return 'Already stored: nothing yet.';
  const state = await readState(kb);
  const d = state.items.decision.filter((x) => isLive('decision', x)).map((x) => `- ${x.id} ${x.title}`);
  const m = state.items.memory.filter((x) => isLive('memory', x)).map((x) => `- memory (${x.type}): ${x.title}`);
  const all = [...d, ...m];
  const shown = all.slice(-STORED_SHOWN);
  return `Already stored (${all.length} current decisions and memories${all.length > shown.length ? `, the newest ${shown.length} shown` : ''}):\n${shown.join('\n') || '(none)'}`;
}

/**
 * The axme session a transcript belongs to: given, else the one its harness session maps to (Claude
 * Code's is the file's name; Gemini CLI's and Codex's are in the file's first line), else its file name.
 */
function sessionOf(commonDir: string, transcript: string, given: string | undefined, sniffed: SniffedTranscript | null): string {
  if (given !== undefined) {
    if (!SESSION_ID_RE.test(given))
      throw new AxmeError('INVALID_INPUT', `session id ${JSON.stringify(given.slice(0, 80))} is not valid: a session id is ${SESSION_ID_FORM}`);
    return given;
  }
  const harnessId = basename(transcript).replace(/\.jsonl$/i, '');
  const named = sniffed?.harness_session_id ? mappedSession(commonDir, sniffed.client, sniffed.harness_session_id) : null;
  const mapped = named ?? mappedSession(commonDir, 'claude-code', harnessId);
  if (mapped) return mapped.id;
  const id = harnessId
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 64);
  if (!id) throw new AxmeError('INVALID_INPUT', `cannot tell the session of ${transcript}: give it with --session <id>`);
  return id;
}

const CLIENT_NAMES: Record<TranscriptClient, string> = { 'claude-code': 'Claude Code', gemini: 'Gemini CLI', codex: 'Codex' };

/** A transcript whose first line is no client's: nothing is sent to the model. */
function unknownFormat(transcript: string): AxmeError {
  return new AxmeError(
    'INVALID_INPUT',
    `cannot tell which client wrote ${transcript}: its first line is not a Claude Code, Gemini CLI or Codex transcript line, and its session names no client; nothing was sent to the model`,
    { transcript },
  );
}

/** A whole transcript read as `client`'s of which no line made an entry: the wrong format, or a version the reader does not know. */
function unreadable(transcript: string, client: TranscriptClient, st: TranscriptStats): AxmeError {
  const kinds = Object.entries(st.skipped_types)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([k, n]) => `${n} ${k}`);
  const what = [
    ...kinds,
    ...(st.malformed ? [`${st.malformed} not JSON or of no known shape`] : []),
    ...(st.oversized ? [`${st.oversized} too long`] : []),
  ].join(', ');
  return new AxmeError(
    'INVALID_INPUT',
    `none of the ${st.lines + st.oversized} lines of ${transcript} is a ${CLIENT_NAMES[client]} conversation entry (${what || 'nothing understood'}): it is not a ${CLIENT_NAMES[client]} transcript, or one of a version this axme cannot read; nothing was sent to the model`,
    { transcript, client, skipped_types: st.skipped_types, malformed: st.malformed },
  );
}

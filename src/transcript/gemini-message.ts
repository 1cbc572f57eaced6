import { type LineAt, skipLine } from './jsonl-stream.ts';
import { plainEntry, type TranscriptBlock, type TranscriptEntry, type TranscriptStats } from './types.ts';
import { isObject, jsonText, str } from './values.ts';

/**
 * One message record of a Gemini CLI session (`~/.gemini/tmp/<project>/chats/session-*.jsonl`) as
 * an entry. Records (ChatRecordingService of @google/gemini-cli 0.61.0):
 * `{id, timestamp, type: 'user' | 'gemini' | 'info' | 'error' | 'warning', content, displayContent?}`;
 * `content` is a string or Gemini API parts (`text`, `thought`, `functionCall`, `functionResponse`,
 * `inlineData`, `fileData`); a `gemini` record adds `thoughts` (`{subject, description}`) and
 * `toolCalls` (`{id, name, args, result: parts, status, resultDisplay}`).
 */

/** What one read carries from record to record. */
export interface GeminiContext {
  /** tool calls whose result is already shown (with the call, from `toolCalls`): the user record repeating it adds nothing */
  resultsShown: Set<string>;
  /** the file is a subagent's (`kind: subagent` in its first line) */
  sidechain: boolean;
}

/** Text the client injected into a user record: its environment, hook context. */
const INJECTED_WHOLE = /^\s*<session_context>/;
const HOOK_CONTEXT = /<hook_context>[\s\S]*?<\/hook_context>/g;

/** The entry of a message record, or null when it shows nothing (counted in `stats` when it is of an unknown type). */
export function geminiEntry(record: Record<string, unknown>, at: LineAt, ctx: GeminiContext, stats: TranscriptStats): TranscriptEntry | null {
  const type = str(record.type) ?? '(none)';
  const base = { uuid: str(record.id), timestamp: str(record.timestamp), sidechain: ctx.sidechain };
  if (type === 'user') return userEntry(record, at, ctx, stats, base);
  if (type === 'gemini') {
    const blocks = assistantBlocks(record, ctx, stats);
    return blocks.length ? plainEntry('assistant', blocks, at, base) : null;
  }
  if (type === 'info' || type === 'error' || type === 'warning') {
    const text = partBlocks(record.content, ctx, stats)
      .map((b) => (b.type === 'text' ? b.text : ''))
      .join('\n');
    return text.trim() ? plainEntry('system', [{ type: 'text', text }], at, { ...base, subtype: type }) : null;
  }
  skipLine(stats, `message:${type}`);
  return null;
}

/**
 * A user record: what was typed (its `displayContent` when it has one, else its text parts) and the
 * tool results not shown with their calls. Context the client injected (`<session_context>`, a
 * hook's `<hook_context>`) is left out; a record of nothing else is an injected (meta) entry.
 */
function userEntry(
  record: Record<string, unknown>,
  at: LineAt,
  ctx: GeminiContext,
  stats: TranscriptStats,
  base: Partial<TranscriptEntry>,
): TranscriptEntry | null {
  const content = partBlocks(record.content, ctx, stats);
  const typed =
    record.displayContent !== undefined && record.displayContent !== null
      ? partBlocks(record.displayContent, ctx, stats).filter((b) => b.type === 'text')
      : content.filter((b) => b.type === 'text');
  const others = content.filter((b) => b.type !== 'text');
  const own: TranscriptBlock[] = [];
  const injected: TranscriptBlock[] = [];
  for (const b of typed) {
    if (b.type !== 'text') continue;
    if (INJECTED_WHOLE.test(b.text)) {
      injected.push(b);
      continue;
    }
    const rest = b.text.replace(HOOK_CONTEXT, '').trim();
    if (rest !== b.text.trim()) injected.push({ type: 'text', text: b.text });
    if (rest) own.push({ type: 'text', text: rest });
  }
  if (own.length || others.length) return plainEntry('user', [...own, ...others], at, base);
  return injected.length ? plainEntry('user', injected, at, { ...base, meta: true }) : null;
}

/** A `gemini` record: its thoughts, its text, and each tool call with its result. */
function assistantBlocks(record: Record<string, unknown>, ctx: GeminiContext, stats: TranscriptStats): TranscriptBlock[] {
  const blocks: TranscriptBlock[] = [];
  for (const t of Array.isArray(record.thoughts) ? record.thoughts : []) {
    if (!isObject(t)) continue;
    const text = [str(t.subject), str(t.description)].filter(Boolean).join(': ');
    if (text) blocks.push({ type: 'thinking', text });
  }
  const calls = (Array.isArray(record.toolCalls) ? record.toolCalls : []).filter(isObject);
  const callIds = new Set(calls.map((c) => str(c.id)).filter((id): id is string => !!id));
  // the content repeats the calls as functionCall parts once the history is rewritten: shown once, from toolCalls
  for (const b of partBlocks(record.content, ctx, stats)) if (!(b.type === 'tool_use' && callIds.has(b.id))) blocks.push(b);
  for (const c of calls) {
    const id = str(c.id) ?? '';
    blocks.push({ type: 'tool_use', id, name: str(c.name) ?? 'tool', input: c.args ?? {} });
    const result = toolCallResult(c);
    if (!result) continue;
    blocks.push({ type: 'tool_result', tool_use_id: id, content: result.text, is_error: result.error });
    if (id) ctx.resultsShown.add(id);
  }
  return blocks;
}

/** A tool call's outcome: its result parts as text (else what was displayed), and whether it failed or was cancelled. */
function toolCallResult(call: Record<string, unknown>): { text: string; error: boolean } | null {
  const status = str(call.status);
  const parts = Array.isArray(call.result) ? call.result : [];
  const texts: string[] = [];
  let error = status === 'error' || status === 'cancelled';
  for (const p of parts) {
    if (!isObject(p)) continue;
    if (isObject(p.functionResponse)) {
      const r = responseOf(p.functionResponse);
      texts.push(r.text);
      error ||= r.error;
    } else if (typeof p.text === 'string') texts.push(p.text);
    else if (isObject(p.inlineData)) texts.push('[image]');
  }
  if (!texts.length && typeof call.resultDisplay === 'string') texts.push(call.resultDisplay);
  if (!texts.length && !status) return null;
  return { text: texts.join('\n') || (status ?? ''), error };
}

/** A functionResponse's `response`: its `output` (or `error`) text, else the whole of it as JSON. */
function responseOf(fr: Record<string, unknown>): { text: string; error: boolean } {
  const r = fr.response;
  if (!isObject(r)) return { text: r === undefined ? '' : jsonText(r), error: false };
  if (typeof r.error === 'string' || isObject(r.error)) return { text: typeof r.error === 'string' ? r.error : jsonText(r.error), error: true };
  if (typeof r.output === 'string') return { text: r.output, error: false };
  return { text: jsonText(r), error: false };
}

/** Content as blocks: a string, one part, or a list of parts; a part of an unknown kind is counted. */
function partBlocks(content: unknown, ctx: GeminiContext, stats: TranscriptStats): TranscriptBlock[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  const parts = Array.isArray(content) ? content : isObject(content) ? [content] : [];
  const out: TranscriptBlock[] = [];
  for (const p of parts) {
    const b = typeof p === 'string' ? ({ type: 'text', text: p } as TranscriptBlock) : isObject(p) ? partBlock(p, ctx) : undefined;
    if (b === undefined) stats.skipped_blocks++;
    else if (b) out.push(b);
  }
  return out;
}

/** One part as a block; null: shown already (a result with its call); undefined: a kind not known. */
function partBlock(p: Record<string, unknown>, ctx: GeminiContext): TranscriptBlock | null | undefined {
  if (typeof p.text === 'string') return p.thought === true ? { type: 'thinking', text: p.text } : { type: 'text', text: p.text };
  if (isObject(p.functionCall))
    return { type: 'tool_use', id: str(p.functionCall.id) ?? '', name: str(p.functionCall.name) ?? 'tool', input: p.functionCall.args ?? {} };
  if (isObject(p.functionResponse)) {
    const id = str(p.functionResponse.id) ?? '';
    if (id && ctx.resultsShown.has(id)) return null;
    const r = responseOf(p.functionResponse);
    return { type: 'tool_result', tool_use_id: id, content: r.text, is_error: r.error };
  }
  if (isObject(p.inlineData)) return { type: 'image', media_type: str(p.inlineData.mimeType) };
  if (isObject(p.fileData)) return { type: 'text', text: `[file ${str(p.fileData.fileUri) ?? ''}]` };
  return undefined;
}

import { type LineAt, parseObjectLine, skipLine } from './jsonl-stream.ts';
import { plainEntry, type TranscriptBlock, type TranscriptEntry, type TranscriptStats } from './types.ts';
import { isObject, jsonText, str } from './values.ts';

/**
 * One line of a Codex rollout (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl`,
 * codex-rs `RolloutLine`): `{timestamp, ordinal?, type, payload}` with `type` one of `session_meta`
 * (the first line), `response_item` (what the model saw and said: messages, reasoning, tool calls
 * and their outputs), `compacted` (a compaction's summary), `turn_context`, `world_state`,
 * `event_msg`, `token_usage_record`. The conversation is in the `response_item` lines; of the
 * events, only an interrupted turn, a rollback and an error say something they do not.
 */
export function codexLine(text: string, at: LineAt, stats: TranscriptStats, ctx: CodexContext): TranscriptEntry[] {
  const line = parseObjectLine(text, stats);
  if (!line) return [];
  const type = str(line.type) ?? '(none)';
  const payload = isObject(line.payload) ? line.payload : null;
  if (type === 'session_meta' && payload) ctx.sidechain = isSubagentMeta(payload);
  const base = { timestamp: str(line.timestamp), sidechain: ctx.sidechain };
  if (type === 'response_item' && payload) {
    const e = responseItem(payload, at, stats, base);
    if (!e) skipLine(stats, `response_item:${str(payload.type) ?? '(none)'}`);
    return e ? [e] : [];
  }
  if (type === 'compacted' && payload) {
    const out = [plainEntry('system', [], at, { ...base, subtype: 'compact_boundary', compact_boundary: true })];
    const summary = str(payload.message);
    if (summary?.trim()) out.push(plainEntry('user', [{ type: 'text', text: summary }], at, { ...base, compact_summary: true }));
    return out;
  }
  if (type === 'event_msg' && payload) {
    const e = eventEntry(payload, at, base);
    if (!e) skipLine(stats, `event_msg:${str(payload.type) ?? '(none)'}`);
    return e ? [e] : [];
  }
  if (!payload && (type === 'response_item' || type === 'compacted' || type === 'event_msg')) stats.malformed++;
  else skipLine(stats, type);
  return [];
}

/** What one read carries from line to line. */
export interface CodexContext {
  /** the rollout is a subagent's (its `session_meta` says so): its entries are sidechain entries */
  sidechain: boolean;
}

/** Whether a `session_meta` payload is a subagent's (its `source` names one): its rollout is not the main conversation. */
export function isSubagentMeta(payload: Record<string, unknown>): boolean {
  const source = payload.source;
  const named = (v: unknown) => typeof v === 'string' && /sub_?agent/i.test(v);
  return (
    (isObject(source) && ('subagent' in source || 'sub_agent' in source)) ||
    named(source) ||
    named(payload.thread_source) ||
    typeof payload.agent_role === 'string' ||
    typeof payload.agent_nickname === 'string'
  );
}

type Base = { timestamp: string | null; sidechain: boolean };

/**
 * Text Codex adds to the conversation as user or developer messages, not typed by anyone: its
 * environment, AGENTS.md, skills, a hook's context, notices (codex-rs `is_contextual_user_text`).
 */
const INJECTED =
  /^\s*(?:<environment_context>|<user_instructions>|# AGENTS\.md instructions|<INSTRUCTIONS>|<skills_instructions>|<skill>|<turn_aborted>|<subagent_notification>|<subagents>|<recommended_plugins>|<external_|<application_context|<codex_internal_context|<hook_prompt |<permissions instructions>|<collaboration_mode>|<model_switch>|<personality_spec>)/;

function responseItem(p: Record<string, unknown>, at: LineAt, stats: TranscriptStats, base: Base): TranscriptEntry | null {
  const id = str(p.id);
  switch (p.type) {
    case 'message': {
      const role = str(p.role);
      const blocks = contentBlocks(p.content, stats);
      if (!blocks.length) return null;
      if (role === 'assistant') return plainEntry('assistant', blocks, at, { ...base, uuid: id });
      // developer (or system) messages: Codex's own instructions
      if (role !== 'user') return plainEntry('system', blocks, at, { ...base, uuid: id, meta: true, subtype: role });
      return plainEntry('user', blocks, at, { ...base, uuid: id, meta: blocks.every((b) => b.type === 'text' && INJECTED.test(b.text)) });
    }
    case 'reasoning': {
      const texts = [...listOf(p.summary), ...listOf(p.content)].map((x) => str(x.text)).filter((t): t is string => !!t?.trim());
      if (!texts.length && p.encrypted_content) stats.skipped_blocks++;
      return texts.length
        ? plainEntry(
            'assistant',
            texts.map((text) => ({ type: 'thinking', text })),
            at,
            { ...base, uuid: id },
          )
        : null;
    }
    case 'function_call':
      return call(at, base, str(p.call_id) ?? id, qualified(p), argumentsOf(p.arguments));
    case 'custom_tool_call':
      return call(at, base, str(p.call_id) ?? id, qualified(p), { input: typeof p.input === 'string' ? p.input : jsonText(p.input) });
    case 'local_shell_call':
      return call(at, base, str(p.call_id) ?? id, 'local_shell', isObject(p.action) ? p.action : {});
    case 'tool_search_call':
      return call(at, base, str(p.call_id) ?? id, 'tool_search', argumentsOf(p.arguments));
    case 'web_search_call':
      return call(at, base, id, 'web_search', isObject(p.action) ? p.action : {});
    case 'function_call_output':
    case 'custom_tool_call_output':
    case 'tool_search_output': {
      const out = outputOf(p.type === 'tool_search_output' ? p.tools : p.output);
      const block: TranscriptBlock = { type: 'tool_result', tool_use_id: str(p.call_id) ?? '', content: out.text, is_error: out.error };
      return plainEntry('user', [block], at, { ...base, uuid: id });
    }
    default:
      // compaction (encrypted), ghost snapshots, image generation, and types of later versions
      return null;
  }
}

/** An interrupted turn, a rollback or an error, as a system note; null for the other events (the conversation has them already). */
function eventEntry(p: Record<string, unknown>, at: LineAt, base: Base): TranscriptEntry | null {
  const note = (subtype: string, text: string) => plainEntry('system', [{ type: 'text', text }], at, { ...base, subtype });
  switch (p.type) {
    case 'turn_aborted':
      return note('turn_aborted', `The turn was interrupted${str(p.reason) ? ` (${str(p.reason)})` : ''}.`);
    case 'thread_rolled_back': {
      const n = typeof p.num_turns === 'number' ? p.num_turns : null;
      return note(
        'rollback',
        `The user rolled back ${n === null ? 'the last turns' : `${n} turn${n === 1 ? '' : 's'}`}: what they held was taken back (changes made to files stay).`,
      );
    }
    case 'error':
      return str(p.message) ? note('error', str(p.message)!) : null;
    default:
      return null;
  }
}

function call(at: LineAt, base: Base, id: string | null, name: string, input: unknown): TranscriptEntry {
  return plainEntry('assistant', [{ type: 'tool_use', id: id ?? '', name, input }], at, base);
}

/** A call's name, with its namespace (`mcp__server`, a tool group) when it has one. */
function qualified(p: Record<string, unknown>): string {
  const name = str(p.name) ?? 'tool';
  const ns = str(p.namespace);
  return ns ? `${ns}.${name}` : name;
}

/** A function call's arguments: a JSON object in a string, as the Responses API sends it; anything else as it is. */
function argumentsOf(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  try {
    const v = JSON.parse(raw) as unknown;
    return isObject(v) ? v : { arguments: raw };
  } catch {
    return { arguments: raw };
  }
}

/** A tool's output: a string, content items (text, images), or `{content, success}`. */
function outputOf(o: unknown): { text: string; error: boolean } {
  if (typeof o === 'string') return { text: o, error: false };
  if (Array.isArray(o))
    return {
      text: o.map((i) => (isObject(i) ? (str(i.text) ?? (String(i.type ?? '').includes('image') ? '[image]' : jsonText(i))) : jsonText(i))).join('\n'),
      error: false,
    };
  if (isObject(o)) {
    const inner = 'content' in o ? outputOf(o.content) : { text: jsonText(o), error: false };
    return { text: inner.text, error: o.success === false };
  }
  return { text: o === undefined || o === null ? '' : jsonText(o), error: false };
}

/** A message's content items: `input_text`, `output_text` (text), `input_image` (an image). */
function contentBlocks(content: unknown, stats: TranscriptStats): TranscriptBlock[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  const out: TranscriptBlock[] = [];
  for (const c of listOf(content)) {
    const text = str(c.text);
    if (text !== null && (c.type === 'input_text' || c.type === 'output_text' || c.type === 'text')) {
      if (text) out.push({ type: 'text', text });
    } else if (c.type === 'input_image') out.push({ type: 'image', media_type: null });
    else stats.skipped_blocks++;
  }
  return out;
}

function listOf(v: unknown): Array<Record<string, unknown>> {
  return Array.isArray(v) ? v.filter(isObject) : [];
}

import type { ServerResponse } from 'node:http';
import { type SeenRequest, type Step, sse, sseHead, type WireFormat } from './model-server.ts';

/**
 * The Anthropic Messages wire format for the scripted model (model-server.ts), as Claude Code
 * speaks it: `POST /v1/messages?beta=true`, streamed as server-sent events (or one JSON message
 * when `stream` is false). A step's tool call becomes a `tool_use` block (its input streamed as
 * `input_json_delta`), a text step an `end_turn` answer.
 */

type Body = {
  model?: string;
  stream?: boolean;
  tools?: { name?: string }[];
  system?: unknown;
  messages?: { role: string; content: unknown }[];
};

const bodyOf = (req: SeenRequest): Body => (req.body && typeof req.body === 'object' ? (req.body as Body) : {});
const pathOf = (req: SeenRequest): string => req.url.split('?')[0]!;

/** The text of a request's system prompt (a string or text blocks). */
export function systemText(req: SeenRequest): string {
  const s = bodyOf(req).system;
  if (typeof s === 'string') return s;
  if (Array.isArray(s)) return s.map((b) => (b && typeof b === 'object' && 'text' in b ? String((b as { text: unknown }).text) : '')).join('\n');
  return '';
}

/**
 * A request that is not a turn of the agent's conversation: Claude Code's side calls (a title or
 * topic with a small model, a quota probe) carry no tools; the agent's turns always offer some.
 */
export function isSideRequest(req: SeenRequest): boolean {
  const b = bodyOf(req);
  return !Array.isArray(b.tools) || b.tools.length === 0;
}

/** A tool result's content as text: a string, or its text blocks joined (another block as `[type]`). */
function contentText(c: unknown): string {
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return '';
  return c.map((x: { type?: string; text?: unknown }) => (x?.type === 'text' ? String(x.text) : `[${x?.type}]`)).join('\n');
}

/** Everything a request hands the model as plain text: the system prompt, then every text and tool result of its messages. */
export function requestText(req: SeenRequest): string {
  const parts = [systemText(req)];
  for (const m of bodyOf(req).messages ?? []) {
    if (typeof m.content === 'string') parts.push(m.content);
    else if (Array.isArray(m.content)) {
      for (const b of m.content as { type?: string; text?: unknown; content?: unknown }[]) {
        if (b?.type === 'text') parts.push(String(b.text));
        else if (b?.type === 'tool_result') parts.push(contentText(b.content));
      }
    }
  }
  return parts.join('\n');
}

/** A tool result as the model received it: its text (text blocks joined) and whether it was an error. */
export interface ToolResult {
  id: string;
  text: string;
  isError: boolean;
}

/**
 * The tool results a request hands the model: those after the last assistant message (Claude Code
 * puts them in one user message, and may follow it with a `system` message, e.g. a hook's
 * additional context).
 */
export function toolResults(req: SeenRequest): ToolResult[] {
  const messages = bodyOf(req).messages ?? [];
  const after = messages.slice(messages.findLastIndex((m) => m.role === 'assistant') + 1);
  const out: ToolResult[] = [];
  for (const m of after) {
    if (m.role !== 'user' || !Array.isArray(m.content)) continue;
    for (const b of m.content as { type?: string; tool_use_id?: string; content?: unknown; is_error?: boolean }[]) {
      if (b?.type === 'tool_result') out.push({ id: String(b.tool_use_id), text: contentText(b.content), isError: b.is_error === true });
    }
  }
  return out;
}

/** The result of the script's step `i` (0-based): what the next turn handed back to the model. */
export function resultOfStep(turns: SeenRequest[], i: number): ToolResult {
  const next = turns[i + 1];
  if (!next) throw new Error(`no turn after step ${i}: the client sent ${turns.length} turns`);
  const r = toolResults(next);
  if (r.length !== 1) throw new Error(`the turn after step ${i} holds ${r.length} tool results`);
  return r[0]!;
}

let ids = 0;
const nextId = (prefix: string) => `${prefix}_${String(++ids).padStart(6, '0')}${process.pid}`;

/** The content blocks of the answer to `step`. */
function blocks(step: Step, toolName: string | null): Record<string, unknown>[] {
  if ('text' in step) return [{ type: 'text', text: step.text }];
  return [{ type: 'tool_use', id: nextId('toolu'), name: toolName ?? step.tool, input: step.args }];
}

/** Writes `content` as one message: streamed (SSE) or as JSON, as the request asked. */
function writeMessage(req: SeenRequest, res: ServerResponse, content: Record<string, unknown>[]): void {
  const model = bodyOf(req).model ?? 'claude-scripted';
  const stop = content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: Math.ceil(req.raw.length / 4), output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const id = nextId('msg');
  if (bodyOf(req).stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': id });
    res.end(
      JSON.stringify({
        id,
        type: 'message',
        role: 'assistant',
        model,
        content,
        stop_reason: stop,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 10 },
      }),
    );
    return;
  }
  sseHead(res);
  sse(res, 'message_start', {
    type: 'message_start',
    message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage },
  });
  content.forEach((block, index) => {
    if (block.type === 'text') {
      sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    } else {
      sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { ...block, input: {} } });
      const json = JSON.stringify(block.input);
      // in two pieces, as the API streams partial JSON
      const cut = Math.ceil(json.length / 2);
      for (const part of [json.slice(0, cut), json.slice(cut)])
        sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part } });
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index });
  });
  sse(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 10 } });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

export interface AnthropicOptions {
  /**
   * The answer to a request without tools that is not Claude Code's (e.g. axme's auditor calling
   * the same base URL through the SDK): its text, or null for the default side answer.
   */
  sideAnswer?: (req: SeenRequest) => string | null;
}

/** The Anthropic Messages format; `opts.sideAnswer` scripts the requests that are not the agent's turns. */
export function anthropicFormat(opts: AnthropicOptions = {}): WireFormat {
  return {
    matches: (req) => req.method === 'POST' && pathOf(req) === '/v1/messages',
    toolNames: (req) => (bodyOf(req).tools ?? []).map((t) => t.name).filter((n): n is string => typeof n === 'string'),
    answer: (req, res, step, toolName) => writeMessage(req, res, blocks(step, toolName)),
    side: (req, res) => {
      const path = pathOf(req);
      if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: Math.ceil(req.raw.length / 4) }));
        return true;
      }
      if (req.method === 'POST' && path === '/v1/messages' && isSideRequest(req)) {
        // a title, a topic, a quota probe: a short answer that uses no step of the script
        const text = opts.sideAnswer?.(req) ?? '{"title": "Scripted session", "isNewTopic": false}';
        writeMessage(req, res, [{ type: 'text', text }]);
        return true;
      }
      if (req.method !== 'POST') {
        // anything else Claude Code looks up (settings, a model list): not served
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `not served: ${req.method} ${path}` } }));
        return true;
      }
      return false;
    },
  };
}

/** The format with the default side answers. */
export const anthropic: WireFormat = anthropicFormat();

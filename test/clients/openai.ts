import type { ServerResponse } from 'node:http';
import { type SeenRequest, type Step, sse, sseHead, type WireFormat } from './model-server.ts';

/**
 * The OpenAI Responses API as Codex 0.169.0 speaks it: `POST /v1/responses` (streaming), answered
 * as server-sent events — `response.created`, one output item (`response.output_item.added`, then
 * `.done`) and `response.completed` with the usage. A step's text becomes a `message` item with one
 * `output_text` part; a step's tool becomes
 * - a `function_call` item (`name`, JSON `arguments`, `call_id`) for a function tool (`exec_command`);
 *   a function inside a `namespace` tool (Codex offers an MCP server's tools as the namespace
 *   `mcp__<server>`) is called by its own name with the item's `namespace` field set;
 * - a `custom_tool_call` item (`input`: the raw text) for a free-form tool (`apply_patch`);
 * - a `tool_search_call` item (`execution: client`, `arguments`) for `tool_search`: Codex defers
 *   MCP tools behind it, and the namespaces it finds come back as `tool_search_output` in the
 *   next request's `input`.
 * Codex hands results back in the next request's `input` as `function_call_output` /
 * `custom_tool_call_output` items (`call_id`, `output`: a string or a list of `input_text` parts).
 */

interface OfferedTool {
  /** the name the script resolves against: `<namespace>__<function>` inside a namespace */
  full: string;
  /** the item's `name` */
  name: string;
  namespace: string | null;
  /** `function` (JSON arguments) or `custom` (free-form input, e.g. a grammar tool) */
  kind: string;
}

/**
 * The tools a request offers: its `tools`, and the ones a tool search exposed earlier in the
 * conversation (`tool_search_output` items in `input`: Codex defers MCP tools behind `tool_search`
 * for models that support it).
 */
function offered(req: SeenRequest): OfferedTool[] {
  const found = inputItems(req).flatMap((i) => (i.type === 'tool_search_output' && Array.isArray(i.tools) ? i.tools : []));
  const tools = [...(((req.body as { tools?: unknown[] } | null)?.tools ?? []) as Array<Record<string, unknown>>), ...found];
  const out: OfferedTool[] = [];
  for (const t of tools) {
    if (t.type === 'namespace' && Array.isArray(t.tools)) {
      const ns = String(t.name);
      for (const inner of t.tools as Array<Record<string, unknown>>) {
        const name = String(inner.name);
        out.push({ full: `${ns}__${name}`, name, namespace: ns, kind: String(inner.type ?? 'function') });
      }
    } else if (typeof t.name === 'string') {
      out.push({ full: t.name, name: t.name, namespace: null, kind: String(t.type ?? 'function') });
    } else if (typeof t.type === 'string') {
      out.push({ full: t.type, name: t.type, namespace: null, kind: t.type });
    }
  }
  return out;
}

/** The items of a request's `input`. */
export function inputItems(req: SeenRequest): Array<Record<string, any>> {
  return ((req.body as { input?: unknown[] } | null)?.input ?? []) as Array<Record<string, any>>;
}

/** A tool output as text: a string as is, content items (`input_text`) joined by newlines. */
function outputText(o: unknown): string {
  if (typeof o === 'string') return o;
  if (Array.isArray(o)) return o.map((p: any) => (typeof p?.text === 'string' ? p.text : JSON.stringify(p))).join('\n');
  return JSON.stringify(o);
}

/**
 * What the model was handed back for the call whose arguments (or free-form input) contain
 * `needle`, as the latest of `turns` holds it; null when no such call was answered.
 */
export function resultOf(turns: SeenRequest[], needle: string): string | null {
  const said = (i: Record<string, any>) =>
    `${i.namespace ?? ''}__${i.name ?? ''} ${typeof i.arguments === 'string' ? i.arguments : JSON.stringify(i.arguments ?? i.input ?? '')}`;
  for (let t = turns.length - 1; t >= 0; t--) {
    const items = inputItems(turns[t]!);
    const call = items.find((i) => /_call$/.test(String(i.type)) && said(i).includes(needle));
    const out = call && items.find((i) => /_call_output$/.test(String(i.type)) && i.call_id === call.call_id);
    if (out) return outputText(out.output);
  }
  return null;
}

/** The text of the messages of `role` in a request's input (`developer`, `user`, `assistant`). */
export function messages(req: SeenRequest, role: string): string[] {
  return inputItems(req)
    .filter((i) => i.type === 'message' && i.role === role)
    .map((i) => (Array.isArray(i.content) ? i.content.map((c: any) => c?.text ?? '').join('') : String(i.content ?? '')));
}

function usage() {
  return {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 15,
  };
}

export const openai: WireFormat = {
  matches: (req) => req.method === 'POST' && /\/responses(\?|$)/.test(req.url),
  toolNames: (req) => offered(req).map((t) => t.full),
  answer: (req: SeenRequest, res: ServerResponse, step: Step, toolName: string | null, n: number) => {
    const id = `resp_${n}`;
    let item: Record<string, unknown>;
    if ('tool' in step) {
      const tool = offered(req).find((t) => t.full === toolName);
      const call_id = `call_${n}`;
      if (tool?.kind === 'tool_search') {
        // Codex runs the search itself (`execution: client`) and answers with the matching tools
        item = { type: 'tool_search_call', id: `ts_${n}`, status: 'completed', call_id, execution: 'client', arguments: step.args };
      } else if (tool?.kind === 'custom') {
        // a free-form tool (Codex's apply_patch grammar tool): the input is the raw text
        const input = typeof step.args.input === 'string' ? step.args.input : JSON.stringify(step.args);
        item = { type: 'custom_tool_call', id: `ctc_${n}`, status: 'completed', call_id, name: tool.name, input };
      } else {
        item = { type: 'function_call', id: `fc_${n}`, status: 'completed', call_id, name: tool?.name ?? toolName, arguments: JSON.stringify(step.args) };
        if (tool?.namespace) item.namespace = tool.namespace;
      }
    } else {
      item = {
        type: 'message',
        id: `msg_${n}`,
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: step.text, annotations: [] }],
      };
    }
    sseHead(res);
    sse(res, 'response.created', { type: 'response.created', response: { id, object: 'response', status: 'in_progress', output: [] } });
    sse(res, 'response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress' } });
    if (item.type === 'message') {
      sse(res, 'response.output_text.delta', {
        type: 'response.output_text.delta',
        item_id: item.id,
        output_index: 0,
        content_index: 0,
        delta: (step as { text: string }).text,
      });
    }
    sse(res, 'response.output_item.done', { type: 'response.output_item.done', output_index: 0, item });
    sse(res, 'response.completed', { type: 'response.completed', response: { id, object: 'response', status: 'completed', output: [item], usage: usage() } });
    res.end();
  },
};

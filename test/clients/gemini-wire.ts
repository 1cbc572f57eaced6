import type { ServerResponse } from 'node:http';
import { type SeenRequest, sse, sseHead, type WireFormat } from './model-server.ts';

/**
 * The Gemini API (generativelanguage `v1beta`) as Gemini CLI 0.61.0 speaks it with
 * `GOOGLE_GEMINI_BASE_URL`: every conversation turn is `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`
 * (answered with one SSE event holding the whole candidate); everything else is a side request the
 * client makes for itself and is answered here without using a step of the script:
 *
 * - `:generateContent` — `BaseLlmClient.generateJson`/`generateContent`: the router's classifiers
 *   (`{"complexity_reasoning","complexity_score"}` and the older `{"reasoning","model_choice"}`),
 *   the next-speaker check (`{"reasoning","next_speaker"}`), the loop detector
 *   (`{"unproductive_state_analysis","unproductive_state_confidence"}`), the edit corrector, the
 *   summarisers, web fetch: each gets an answer of the shape its JSON schema asks for, else a short text;
 * - `:countTokens` — `{"totalTokens"}`;
 * - `:embedContent` / `:batchEmbedContents` — one small vector per request.
 */

const TURN = /:streamGenerateContent(\?|$)/;

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});

/** The function names the client offered in this request (`tools[].functionDeclarations[].name`). */
function offered(req: SeenRequest): string[] {
  const tools = obj(req.body).tools;
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((t) => {
    const decls = obj(t).functionDeclarations;
    return Array.isArray(decls) ? decls.map((d) => obj(d).name).filter((n): n is string => typeof n === 'string') : [];
  });
}

const usage = { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 };

function json(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function candidate(parts: unknown[]): Json {
  return { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: usage, modelVersion: 'scripted' };
}

/** A value of the shape `schema` asks for: enough for the client's side checks to parse and move on. */
function fill(schema: unknown, key = ''): unknown {
  const s = obj(schema);
  const type = String(s.type ?? '').toLowerCase();
  if (Array.isArray(s.enum) && s.enum.length) {
    // the next-speaker check: the user speaks next, so the conversation ends where the script says
    if (key === 'next_speaker') return 'user';
    return s.enum[0];
  }
  if (type === 'object' || s.properties) {
    const out: Json = {};
    for (const [k, v] of Object.entries(obj(s.properties))) out[k] = fill(v, k);
    return out;
  }
  if (type === 'array') return [];
  if (type === 'boolean') return false;
  if (type === 'integer' || type === 'number') {
    // a router's complexity score is 1–100; the loop detector's confidence 0 means "not stuck"
    if (key === 'complexity_score') return 10;
    return 0;
  }
  return key ? `scripted ${key}` : 'ok';
}

/** Answers a request that is not a conversation turn; false for a turn. */
function side(req: SeenRequest, res: ServerResponse): boolean {
  if (TURN.test(req.url)) return false;
  if (/:countTokens(\?|$)/.test(req.url)) {
    json(res, { totalTokens: 100 });
    return true;
  }
  if (/:batchEmbedContents(\?|$)/.test(req.url)) {
    const n = Array.isArray(obj(req.body).requests) ? (obj(req.body).requests as unknown[]).length : 1;
    json(res, { embeddings: Array.from({ length: n }, () => ({ values: [0.1, 0.2, 0.3] })) });
    return true;
  }
  if (/:embedContent(\?|$)/.test(req.url)) {
    json(res, { embedding: { values: [0.1, 0.2, 0.3] } });
    return true;
  }
  if (/:generateContent(\?|$)/.test(req.url)) {
    const config = obj(obj(req.body).generationConfig);
    const schema = config.responseJsonSchema ?? config.responseSchema;
    const text = schema ? JSON.stringify(fill(schema)) : config.responseMimeType === 'application/json' ? '{}' : 'ok';
    json(res, candidate([{ text }]));
    return true;
  }
  return false;
}

export const geminiWire: WireFormat = {
  matches: (req) => req.method === 'POST' && TURN.test(req.url),
  toolNames: offered,
  side,
  answer: (_req, res, step, toolName) => {
    const parts = 'tool' in step ? [{ functionCall: { name: toolName ?? step.tool, args: step.args } }] : [{ text: step.text }];
    // the stream Gemini CLI asks for with `alt=sse`: one event with the whole candidate is a complete answer
    sseHead(res);
    sse(res, null, candidate(parts));
    res.end();
  },
};

/** The user-visible text parts of a request's contents (what the model was handed to read). */
export function contentsText(req: SeenRequest): string[] {
  const contents = obj(req.body).contents;
  if (!Array.isArray(contents)) return [];
  return contents.flatMap((c) => {
    const parts = obj(c).parts;
    return Array.isArray(parts) ? parts.map((p) => obj(p).text).filter((t): t is string => typeof t === 'string') : [];
  });
}

/** One function response as the model received it: `{"output": …}` for a result, `{"error": …}` for a failure or a denial. */
export interface FunctionResult {
  name: string;
  output: string | null;
  error: string | null;
  /** output and error together, to search */
  text: string;
}

/** The function responses of a request's last content (the results of the model's last calls). */
export function lastResults(req: SeenRequest): FunctionResult[] {
  const contents = obj(req.body).contents;
  const last = Array.isArray(contents) ? obj(contents[contents.length - 1]) : {};
  const parts = Array.isArray(last.parts) ? last.parts : [];
  return parts
    .map((p) => obj(obj(p).functionResponse))
    .filter((f) => typeof f.name === 'string')
    .map((f) => {
      const r = obj(f.response);
      const output = typeof r.output === 'string' ? r.output : null;
      const error = typeof r.error === 'string' ? r.error : null;
      return { name: f.name as string, output, error, text: [output, error].filter(Boolean).join('\n') || JSON.stringify(r) };
    });
}

/** The result the model was handed for step `i` of the script (in the turn after it). */
export function resultOfStep(turns: SeenRequest[], i: number): FunctionResult {
  const next = turns[i + 1];
  if (!next) throw new Error(`no turn after step ${i}: the client sent ${turns.length} turns`);
  const r = lastResults(next);
  if (r.length !== 1) throw new Error(`the turn after step ${i} holds ${r.length} function responses`);
  return r[0]!;
}

/**
 * The words of an MCP error as Gemini CLI 0.61 hands it to its model: `MCP tool '<tool>' reported
 * tool error for function call: <the call as JSON> with response: <the result as JSON>` — the
 * result's text content inside; null when there is none.
 */
export function geminiErrorWords(error: string): string | null {
  const at = error.indexOf(' with response: ');
  if (at < 0) return null;
  const json = error.slice(at + ' with response: '.length);
  // the message may follow the JSON again (`<json>: <message>`): the JSON is the longest prefix that parses
  for (let end = json.length; end > 0; end = json.lastIndexOf(']', end - 1)) {
    try {
      const parts = JSON.parse(json.slice(0, end + (end === json.length ? 0 : 1)));
      const content = parts?.[0]?.functionResponse?.response?.content;
      return Array.isArray(content) ? content.map((c: { text?: string }) => c?.text ?? '').join('\n') : null;
    } catch {
      // not there yet
    }
  }
  return null;
}

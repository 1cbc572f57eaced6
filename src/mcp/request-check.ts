import {
  ClientNotificationSchema,
  ClientRequestSchema,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestId } from './json-lines.ts';

/**
 * JSON-RPC 2.0 checks on one incoming message, before the SDK sees it: the SDK leaves a line that
 * is not JSON unanswered and answers bad `params` with "internal error". Each failure here becomes
 * the reply the specification asks for (and is logged by the transport).
 */

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;
/** Why a JSON-RPC batch is refused on every transport (protocol 2025-06-18 removed batching). */
export const NO_BATCHES = 'MCP messages are single JSON-RPC 2.0 objects (protocol 2025-06-18 removed batches): send each message on its own';
/** implementation-defined server error: the server is stopping */
export const SHUTTING_DOWN = -32000;

export type Checked =
  | { ok: true; message: JSONRPCMessage }
  /** `reply` is null for a bad notification: notifications are never answered */
  | { ok: false; reply: JSONRPCErrorResponse | null; log: string };

/** The error reply for request `id` (null when the id could not be read). */
export function errorReply(id: RequestId | null, code: number, message: string, data?: unknown): JSONRPCErrorResponse {
  // the SDK's type has no null id, JSON-RPC requires it when the id is unknown
  return { jsonrpc: '2.0', id: id as RequestId, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

/** Checks one line of input: JSON, a JSON-RPC 2.0 message, and valid params for a method MCP defines. */
export function checkLine(text: string): Checked {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const why = (err as Error).message;
    return {
      ok: false,
      reply: errorReply(null, PARSE_ERROR, `Parse error: the line is not JSON (${why}); send one JSON-RPC message per line`),
      log: `parse error: ${why}`,
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const what = Array.isArray(value) ? 'a batch (array)' : `a JSON ${value === null ? 'null' : typeof value}`;
    return {
      ok: false,
      reply: errorReply(
        null,
        INVALID_REQUEST,
        `Invalid Request: got ${what}; ${Array.isArray(value) ? NO_BATCHES : 'MCP messages are single JSON-RPC 2.0 objects'}`,
      ),
      log: `invalid request: ${what}`,
    };
  }
  const obj = value as Record<string, unknown>;
  const id = validId(obj.id);
  const envelope = JSONRPCMessageSchema.safeParse(value);
  if (!envelope.success) {
    const isNotification = typeof obj.method === 'string' && !('id' in obj);
    const why = describeEnvelope(obj);
    if (isNotification) return { ok: false, reply: null, log: `invalid notification ${obj.method}: ${why} (not answered: notifications get no reply)` };
    // a well-formed request whose params are not an object: the params are what is wrong
    const code = why.startsWith('"params"') && id !== null ? INVALID_PARAMS : INVALID_REQUEST;
    const label = code === INVALID_PARAMS ? `Invalid params for ${String(obj.method)}` : 'Invalid Request';
    return {
      ok: false,
      reply: errorReply(id, code, `${label}: ${why}`),
      log: `${label.toLowerCase()}${id !== null ? ` (id ${JSON.stringify(id)})` : ''}: ${why}`,
    };
  }
  const message = envelope.data;
  if ('method' in message && 'id' in message) {
    const schema = ClientRequestSchema.options.find((o) => o.shape.method.value === message.method);
    if (schema) {
      const params = schema.safeParse(message);
      if (!params.success) {
        const why = issues(params.error.issues);
        return {
          ok: false,
          reply: errorReply(message.id, INVALID_PARAMS, `Invalid params for ${message.method}: ${why}`),
          log: `invalid params for ${message.method} (id ${JSON.stringify(message.id)}): ${why}`,
        };
      }
    }
  } else if ('method' in message) {
    const schema = ClientNotificationSchema.options.find((o) => o.shape.method.value === message.method);
    if (schema && !schema.safeParse(message).success) return { ok: false, reply: null, log: `invalid params for notification ${message.method} (ignored)` };
  }
  return { ok: true, message };
}

function validId(id: unknown): RequestId | null {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null;
}

function describeEnvelope(obj: Record<string, unknown>): string {
  if (obj.jsonrpc !== '2.0') return `"jsonrpc" must be "2.0" (got ${JSON.stringify(obj.jsonrpc) ?? 'nothing'})`;
  if ('id' in obj && validId(obj.id) === null) return `"id" must be a string or an integer (got ${JSON.stringify(obj.id)})`;
  if ('method' in obj && typeof obj.method !== 'string') return '"method" must be a string';
  if ('method' in obj && 'params' in obj && (typeof obj.params !== 'object' || obj.params === null || Array.isArray(obj.params)))
    return '"params" must be an object';
  if (!('method' in obj) && !('result' in obj) && !('error' in obj))
    return 'a message needs "method" (a request or notification) or "result"/"error" (a response)';
  return 'not a JSON-RPC 2.0 request, notification or response (unexpected or missing members)';
}

function issues(list: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  return list
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.map(String).join('.') : '(message)'}: ${i.message}`)
    .join('; ');
}

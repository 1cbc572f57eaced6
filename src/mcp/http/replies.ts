import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Refusal, refusalOf } from './refusal-log.ts';

/**
 * The answers `axme serve --http` writes itself (the SDK's transport writes the rest): JSON-RPC
 * errors with their HTTP status, a tool call's error result, and a refusal, which is also logged.
 */

/** A JSON-RPC error reply with no request id (the request may not have been read). */
export function rpcError(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/** A tool call's error result (`isError`), answering the request `body`: how a client hands its model a tool's failure. */
export function toolRefusal(body: unknown, text: string): string {
  const id = (body as { id?: unknown }).id ?? null;
  return JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }], isError: true } });
}

/** Writes a JSON answer (`after`: once it is written). */
export function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string, after?: () => void): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(body, after);
}

/** Answers a request the server refuses: its status, the JSON-RPC error, and why (also the line logged). */
export type Refuse = (
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  code: number,
  message: string,
  after?: () => void,
) => void;

/** Refusals logged on `log` (refusal-log.ts). */
export function refuser(log: (r: Refusal) => void): Refuse {
  return (req, res, status, headers, code, message, after) => {
    log(refusalOf(req, status, message));
    send(res, status, headers, rpcError(code, message), after);
  };
}

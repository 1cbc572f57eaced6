import type { IncomingMessage } from 'node:http';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';

/**
 * What the MCP endpoint of `axme serve --http` takes, checked before a body is read: POST (a JSON
 * message; the client accepts JSON and the event stream), GET (the session's event stream) and
 * DELETE (the end of a session). The SDK's transport refuses the same, but as lines of its own
 * on the log, one per request without a bound; checked here, each is a line of the refusal log.
 */

/** The methods of the endpoint (the `Allow` header of a 405). */
const METHODS = ['GET', 'POST', 'DELETE'] as const;

/** Why the endpoint does not take `req` as it is sent (status, headers, words for the client), or null. */
export function refusedForm(req: IncomingMessage): { status: 405 | 406 | 415; headers: Record<string, string>; message: string } | null {
  const method = req.method ?? '';
  if (!(METHODS as readonly string[]).includes(method))
    return {
      status: 405,
      headers: { Allow: METHODS.join(', ') },
      message: `Method Not Allowed: the MCP endpoint takes ${METHODS.join(', ')} (POST a JSON-RPC message)`,
    };
  const accept = req.headers.accept ?? '';
  if (method === 'POST') {
    if (!isJsonContentType(req.headers['content-type']))
      return { status: 415, headers: {}, message: 'Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json' };
    if (!accept.includes('application/json') || !accept.includes('text/event-stream'))
      return { status: 406, headers: {}, message: 'Not Acceptable: send Accept: application/json, text/event-stream (the answer is one or the other)' };
  }
  if (method === 'GET' && !accept.includes('text/event-stream'))
    return { status: 406, headers: {}, message: 'Not Acceptable: the GET of the MCP endpoint is an event stream: send Accept: text/event-stream' };
  return null;
}

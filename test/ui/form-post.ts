import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';

/** The origin the page is served at in tests that call runAction in-process. */
export const ORIGIN = 'http://127.0.0.1:4000';

/** A browser's form POST from the page: its fields url-encoded, from ORIGIN. */
export function formPost(fields: Record<string, string>): IncomingMessage {
  const req = Readable.from([Buffer.from(new URLSearchParams(fields).toString())]) as unknown as IncomingMessage;
  req.headers = { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' };
  return req;
}

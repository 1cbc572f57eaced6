import type { IncomingMessage } from 'node:http';

/** A request's body as read: its text, `tooLarge` past the limit, or `gone` when the client hung up before its end. */
export type Body = { text: string; tooLarge: false; gone: false } | { text: ''; tooLarge: true; gone: false } | { text: ''; tooLarge: false; gone: true };

/** The body of a request as text, or `tooLarge` as soon as it passes `max` bytes (the rest is not read), or `gone`. */
export function readBody(req: IncomingMessage, max: number): Promise<Body> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return Promise.resolve({ text: '', tooLarge: true, gone: false });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > max) {
        req.off('data', onData);
        req.pause();
        resolve({ text: '', tooLarge: true, gone: false });
        return;
      }
      chunks.push(c);
    };
    req.on('data', onData);
    req.once('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge: false, gone: false }));
    // a client that hangs up (or a body past the server's request timeout) is nothing to answer and no failure of the server
    req.once('error', () => resolve({ text: '', tooLarge: false, gone: true }));
  });
}

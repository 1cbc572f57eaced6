import type { IncomingMessage } from 'node:http';

/** The body of a request as text, or `tooLarge` as soon as it passes `max` bytes (the rest is not read). */
export function readBody(req: IncomingMessage, max: number): Promise<{ text: string; tooLarge: boolean }> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return Promise.resolve({ text: '', tooLarge: true });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > max) {
        req.off('data', onData);
        req.pause();
        resolve({ text: '', tooLarge: true });
        return;
      }
      chunks.push(c);
    };
    req.on('data', onData);
    req.once('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge: false }));
    req.once('error', reject);
  });
}

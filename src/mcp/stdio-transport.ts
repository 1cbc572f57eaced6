import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { formatSize } from '../model/limits.ts';
import { JsonLineSplitter, type Line, type RequestId } from './json-lines.ts';
import { checkLine, errorReply, INVALID_REQUEST, SHUTTING_DOWN } from './request-check.ts';

/** Bytes of one request line; the SDK's own reader stops silently at 10 MiB, so ours is well below. */
export const MAX_REQUEST_BYTES = 4 * 1024 * 1024;
/** Nesting of one request; nothing axme takes is more than a few levels deep. */
export const MAX_REQUEST_DEPTH = 64;

export interface StdioTransportOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  log: (message: string) => void;
  maxRequestBytes?: number;
  maxDepth?: number;
}

/**
 * MCP over stdio with bounds and bookkeeping the SDK's transport lacks: every line gets an answer
 * (a parse error, an invalid request or params, a request too large or too deep — each with the
 * request's id when it can be read, and each logged on stderr) and the server keeps reading; the
 * requests not yet answered are counted, so a stopping server can answer them before it exits.
 */
export class StdioTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];
  /** called once when the input ends (the client closed stdin) or fails */
  oninputend?: (why: string) => void;

  private readonly splitter: JsonLineSplitter;
  private readonly pending = new Map<string, number>();
  private readonly waiters = new Set<() => void>();
  private accepting = true;
  private closed = false;
  private inputEnded = false;
  private readonly limits: { bytes: number; depth: number };

  constructor(private readonly opts: StdioTransportOptions) {
    this.limits = { bytes: opts.maxRequestBytes ?? MAX_REQUEST_BYTES, depth: opts.maxDepth ?? MAX_REQUEST_DEPTH };
    this.splitter = new JsonLineSplitter({ maxLineBytes: this.limits.bytes, maxDepth: this.limits.depth });
  }

  async start(): Promise<void> {
    this.opts.input.on('data', this.onData);
    this.opts.input.on('end', this.onEnd);
    this.opts.input.on('close', this.onEnd);
    this.opts.input.on('error', this.onInputError);
    this.opts.output.on('error', this.onOutputError);
  }

  /** Requests received and not answered yet. */
  get inFlight(): number {
    let n = 0;
    for (const c of this.pending.values()) n += c;
    return n;
  }

  /** From now on a new request is answered "shutting down" instead of being run. */
  stopAccepting(): void {
    this.accepting = false;
  }

  /**
   * Waits until every request received has been answered, or `ms` has passed; then answers what is
   * left with an error saying the outcome is unknown. Returns how many were cut off.
   */
  async drain(ms: number): Promise<number> {
    if (this.inFlight > 0) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        this.waiters.add(done);
      });
    }
    const left = [...this.pending.keys()];
    for (const key of left) {
      const id = JSON.parse(key) as RequestId;
      this.opts.log(`request ${key} did not finish within ${ms} ms of the stop: answered with an error, its outcome is unknown`);
      await this.write(
        errorReply(
          id,
          SHUTTING_DOWN,
          `axme serve stopped before this call finished (waited ${ms} ms): it may or may not have taken effect; check with axme_log or axme_status after restarting`,
        ),
      ).catch(() => {});
    }
    this.pending.clear();
    return left.length;
  }

  /**
   * Reads on until the input has been quiet for `quietMs` (at most `maxMs`): at a stop by a
   * signal, a request the client wrote just before is still answered ("shutting down"), not lost
   * unread in the pipe.
   */
  async settleInput(quietMs: number, maxMs: number): Promise<void> {
    if (this.inputEnded) return;
    const deadline = Date.now() + maxMs;
    let last = Date.now();
    const seen = () => (last = Date.now());
    this.opts.input.on('data', seen);
    try {
      while (!this.inputEnded && Date.now() < deadline && Date.now() - last < quietMs) await new Promise((r) => setTimeout(r, Math.min(quietMs, 10)));
    } finally {
      this.opts.input.off('data', seen);
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if ('id' in message && ('result' in message || 'error' in message)) this.settle(message.id as RequestId);
    await this.write(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.opts.input.off('data', this.onData);
    this.opts.input.off('end', this.onEnd);
    this.opts.input.off('close', this.onEnd);
    this.opts.input.off('error', this.onInputError);
    // a still-open stdin (stop by a signal) must not keep the process alive
    const input = this.opts.input as NodeJS.ReadableStream & { destroy?: () => void };
    input.pause();
    input.destroy?.();
    await this.flush();
    this.onclose?.();
  }

  private write(message: unknown): Promise<void> {
    const out = this.opts.output as NodeJS.WritableStream & { destroyed?: boolean; writableEnded?: boolean };
    if (out.destroyed || out.writableEnded) return Promise.reject(new Error('standard output is closed: the client went away'));
    return new Promise((resolve, reject) => {
      out.write(`${JSON.stringify(message)}\n`, (err) => (err ? reject(err) : resolve()));
    });
  }

  private flush(): Promise<void> {
    const out = this.opts.output as NodeJS.WritableStream & { writableNeedDrain?: boolean; destroyed?: boolean };
    if (!out.writableNeedDrain || out.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(resolve, 2_000);
      out.once('drain', () => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  private readonly onData = (chunk: Buffer | string): void => {
    const lines = this.splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    for (const line of lines) this.handle(line);
  };

  private readonly onEnd = (): void => {
    if (this.inputEnded) return;
    this.inputEnded = true;
    const last = this.splitter.end();
    if (last) this.handle(last);
    this.oninputend?.('the client closed standard input');
  };

  private readonly onInputError = (err: Error): void => {
    this.opts.log(`standard input failed: ${err.message}`);
    this.onerror?.(err);
    if (!this.inputEnded) {
      this.inputEnded = true;
      this.oninputend?.(`standard input failed: ${err.message}`);
    }
  };

  private readonly onOutputError = (err: Error): void => {
    this.opts.log(`cannot write to standard output (${err.message}): the client is gone`);
    this.onerror?.(err);
  };

  private handle(line: Line): void {
    if (line.kind === 'oversize') {
      const limit = `${this.limits.bytes} bytes (${formatSize(this.limits.bytes)})`;
      this.opts.log(`request${line.id !== null ? ` ${JSON.stringify(line.id)}` : ''} refused: ${line.bytes} bytes is over the limit of ${limit}`);
      this.reply(
        errorReply(
          line.id,
          INVALID_REQUEST,
          `Request too large: ${line.bytes} bytes (${formatSize(line.bytes)}) is over axme's limit of ${limit} per message; store large material in the repository and reference it by path`,
          { limitBytes: this.limits.bytes, receivedBytes: line.bytes },
        ),
      );
      return;
    }
    if (line.kind === 'too-deep') {
      this.opts.log(
        `request${line.id !== null ? ` ${JSON.stringify(line.id)}` : ''} refused: nested ${line.depth} levels deep, the limit is ${this.limits.depth}`,
      );
      this.reply(
        errorReply(line.id, INVALID_REQUEST, `Invalid Request: nested ${line.depth} levels deep; axme accepts at most ${this.limits.depth} levels`, {
          limitDepth: this.limits.depth,
        }),
      );
      return;
    }
    const checked = checkLine(line.text);
    if (!checked.ok) {
      this.opts.log(checked.log);
      if (checked.reply) this.reply(checked.reply);
      return;
    }
    const message = checked.message;
    if ('method' in message && 'id' in message) {
      if (!this.accepting) {
        this.opts.log(`request ${JSON.stringify(message.id)} (${message.method}) arrived while stopping: not run`);
        this.reply(errorReply(message.id, SHUTTING_DOWN, `axme serve is shutting down: ${message.method} was not run; send it again to a new server`));
        return;
      }
      const key = JSON.stringify(message.id);
      this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
    } else if ('method' in message && message.method === 'notifications/cancelled') {
      // a cancelled request gets no reply: it is no longer waited for
      const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (id !== undefined) this.settle(id);
    }
    try {
      this.onmessage?.(message);
    } catch (err) {
      this.opts.log(`message handling failed: ${(err as Error).message}`);
      this.onerror?.(err as Error);
    }
  }

  private reply(message: unknown): void {
    this.write(message).catch((err: Error) => this.opts.log(`could not send a reply: ${err.message}`));
  }

  private settle(id: RequestId): void {
    const key = JSON.stringify(id);
    const n = this.pending.get(key);
    if (n === undefined) return;
    if (n <= 1) this.pending.delete(key);
    else this.pending.set(key, n - 1);
    if (this.pending.size === 0) for (const w of [...this.waiters]) w();
  }
}

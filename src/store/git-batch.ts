import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { AxmeError } from '../model/errors.ts';

/**
 * An answer read off the front of a batch process's output: the bytes it took and its value (or
 * the error it reports, such as cat-file's "missing"); null while the answer is incomplete.
 */
export type BatchAnswer<T> = { used: number; value: T } | { used: number; error: Error } | null;

interface Pending<T> {
  resolve: (value: T) => void;
  reject: (e: Error) => void;
}

/**
 * One long-lived git process that answers requests in order (`cat-file --batch`,
 * `hash-object --stdin-paths`, `mktree --batch`): requests are pipelined, each answer is parsed
 * off its output by `parse`. Started on the first request; when git exits (it dies on a bad
 * request: a tree naming a missing object), the requests waiting fail with git's message and the
 * next request starts it again. Unref'd while idle so it never keeps Node alive.
 */
export class GitBatch<T> {
  private child: ChildProcessWithoutNullStreams | null = null;
  private queue: Pending<T>[] = [];
  private buf: Buffer = Buffer.alloc(0);

  constructor(
    private readonly args: readonly string[],
    private readonly env: NodeJS.ProcessEnv,
    private readonly parse: (buf: Buffer) => BatchAnswer<T>,
  ) {}

  /** Sends one request (written as given) and resolves with its answer. */
  request(input: string | Buffer): Promise<T> {
    const child = this.start();
    return new Promise((resolve, reject) => {
      if (this.queue.length === 0) this.setRef(true);
      this.queue.push({ resolve, reject });
      child.stdin.write(input);
    });
  }

  private start(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    const child = spawn('git', this.args, { env: this.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => this.onData(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.stdin.on('error', () => {}); // git may exit before reading all input; 'close' tells why
    // the process that ends is the one in use: what waits on it fails (one closed by close() is not)
    const fail = (e: Error) => {
      if (this.child !== child) return;
      this.child = null;
      for (const p of this.queue.splice(0)) p.reject(e);
      this.buf = Buffer.alloc(0);
    };
    child.on('error', (e: NodeJS.ErrnoException) =>
      fail(e.code === 'ENOENT' ? new AxmeError('GIT_FAILED', 'git is not installed or not on PATH: axme needs git >= 2.38') : e),
    );
    child.on('close', (code) => {
      const said = Buffer.concat(err).toString('utf8').trim();
      fail(new AxmeError('GIT_FAILED', `git ${this.args[0]} failed: ${said || `exit ${code}`}`, { args: [...this.args], code }));
    });
    this.child = child;
    return child;
  }

  private onData(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    while (this.queue.length) {
      const answer = this.parse(this.buf);
      if (!answer) return;
      this.buf = this.buf.subarray(answer.used);
      const head = this.queue.shift()!;
      if ('error' in answer) head.reject(answer.error);
      else head.resolve(answer.value);
      if (this.queue.length === 0) this.setRef(false);
    }
  }

  private setRef(on: boolean): void {
    const c = this.child;
    if (!c) return;
    const streams = [c.stdout, c.stderr, c.stdin] as unknown as Array<{ ref?: () => void; unref?: () => void }>;
    if (on) {
      c.ref();
      for (const s of streams) s.ref?.();
    } else {
      c.unref();
      for (const s of streams) s.unref?.();
    }
  }

  /** Ends the process (its input closed) and resolves once git has exited. */
  close(): Promise<void> {
    const c = this.child;
    if (!c) return Promise.resolve();
    this.setRef(true); // keep Node alive until git has exited
    this.child = null;
    return new Promise((resolve) => {
      c.once('close', (code) => {
        // git answers what it was sent before it exits; whatever it left unanswered fails
        for (const p of this.queue.splice(0)) p.reject(new AxmeError('GIT_FAILED', `git ${this.args[0]} exited (${code}) before answering`));
        this.buf = Buffer.alloc(0);
        resolve();
      });
      c.stdin.end();
    });
  }
}

/** An answer that is one line (an object ID from hash-object or mktree). */
export function lineAnswer(buf: Buffer): BatchAnswer<string> {
  const nl = buf.indexOf(10);
  return nl === -1 ? null : { used: nl + 1, value: buf.subarray(0, nl).toString('utf8') };
}

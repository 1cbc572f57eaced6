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

/** One git process of a GitBatch: its requests waiting in order, and what it has printed that no answer took yet. */
interface BatchProcess<T> {
  child: ChildProcessWithoutNullStreams;
  queue: Pending<T>[];
  buf: Buffer;
  /** set by close(): its input is ended, what it left unanswered fails as "exited before answering" */
  closing: boolean;
}

/**
 * One long-lived git process that answers requests in order (`cat-file --batch`,
 * `hash-object --stdin-paths`, `mktree --batch`): requests are pipelined, each answer is parsed
 * off its output by `parse`. Started on the first request; when git exits (it dies on a bad
 * request: a tree naming a missing object), the requests waiting fail with git's message and the
 * next request starts it again. A request made while close() waits for the old process goes to a
 * new one: each process's output and exit touch its own requests only. Unref'd while idle so it
 * never keeps Node alive. GIT_FLUSH=1: git answers each request at once whatever the caller's
 * environment says (hash-object follows GIT_FLUSH=0 and would keep its answers buffered).
 */
export class GitBatch<T> {
  private proc: BatchProcess<T> | null = null;
  private readonly env: NodeJS.ProcessEnv;

  constructor(
    private readonly args: readonly string[],
    env: NodeJS.ProcessEnv,
    private readonly parse: (buf: Buffer) => BatchAnswer<T>,
  ) {
    this.env = { ...env, GIT_FLUSH: '1' };
  }

  /** Sends one request (written as given) and resolves with its answer. */
  request(input: string | Buffer): Promise<T> {
    const p = this.start();
    return new Promise((resolve, reject) => {
      if (p.queue.length === 0) setRef(p.child, true);
      p.queue.push({ resolve, reject });
      p.child.stdin.write(input);
    });
  }

  private start(): BatchProcess<T> {
    if (this.proc) return this.proc;
    const child = spawn('git', this.args, { env: this.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const p: BatchProcess<T> = { child, queue: [], buf: Buffer.alloc(0), closing: false };
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => this.onData(p, b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.stdin.on('error', () => {}); // git may exit before reading all input; 'close' tells why
    // what waits on the process that ended fails; the next request starts another
    const fail = (e: Error) => {
      if (this.proc === p) this.proc = null;
      for (const q of p.queue.splice(0)) q.reject(e);
      p.buf = Buffer.alloc(0);
    };
    child.on('error', (e: NodeJS.ErrnoException) =>
      fail(e.code === 'ENOENT' ? new AxmeError('GIT_FAILED', 'git is not installed or not on PATH: axme needs git >= 2.38') : e),
    );
    child.on('close', (code) => {
      const said = Buffer.concat(err).toString('utf8').trim();
      fail(
        p.closing
          ? new AxmeError('GIT_FAILED', `git ${this.args[0]} exited (${code}) before answering`)
          : new AxmeError('GIT_FAILED', `git ${this.args[0]} failed: ${said || `exit ${code}`}`, { args: [...this.args], code }),
      );
    });
    this.proc = p;
    return p;
  }

  private onData(p: BatchProcess<T>, chunk: Buffer): void {
    p.buf = p.buf.length ? Buffer.concat([p.buf, chunk]) : chunk;
    while (p.queue.length) {
      const answer = this.parse(p.buf);
      if (!answer) return;
      p.buf = p.buf.subarray(answer.used);
      const head = p.queue.shift()!;
      if ('error' in answer) head.reject(answer.error);
      else head.resolve(answer.value);
      if (p.queue.length === 0 && !p.closing) setRef(p.child, false);
    }
  }

  /** Ends the process (its input closed) and resolves once git has exited; git answers what it was sent first. */
  close(): Promise<void> {
    const p = this.proc;
    if (!p) return Promise.resolve();
    this.proc = null;
    p.closing = true;
    setRef(p.child, true); // keep Node alive until git has exited
    return new Promise((resolve) => {
      p.child.once('close', () => resolve());
      p.child.stdin.end();
    });
  }
}

/** Whether a child process (and its pipes) keeps Node's event loop alive. */
function setRef(c: ChildProcessWithoutNullStreams, on: boolean): void {
  const streams = [c.stdout, c.stderr, c.stdin] as unknown as Array<{ ref?: () => void; unref?: () => void }>;
  if (on) {
    c.ref();
    for (const s of streams) s.ref?.();
  } else {
    c.unref();
    for (const s of streams) s.unref?.();
  }
}

/** An answer that is one line (an object ID from hash-object or mktree). */
export function lineAnswer(buf: Buffer): BatchAnswer<string> {
  const nl = buf.indexOf(10);
  return nl === -1 ? null : { used: nl + 1, value: buf.subarray(0, nl).toString('utf8') };
}

import type { Readable, Writable } from 'node:stream';
import type { KnowledgeBase } from '../knowledge/core/kb.ts';
import { actorFrom } from '../model/actor.ts';
import type { AxmeSelf } from '../model/axme-self.ts';
import { AxmeError } from '../model/errors.ts';
import { formatSize, LIMITS } from '../model/limits.ts';
import { terminalText } from '../model/terminal-text.ts';

/** What a command may touch of the outside world: passed in, so tests can run commands in-process. */
export interface CliIO {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** how this axme was started (node and the script): what `axme init` records and background work starts; null when no script started it */
  self: AxmeSelf | null;
}

/** Options every command accepts. */
export interface GlobalArgs {
  C?: string;
  json?: boolean;
}

/** Who is writing (model/actor.ts: the one rule, which setup applies too). */
export { actorFrom };

/** The clock: AXME_NOW (ISO 8601, for reproducible runs and tests) or the system clock. */
export function clockFrom(env: NodeJS.ProcessEnv): () => Date {
  const fixed = env.AXME_NOW;
  if (!fixed) return () => new Date();
  const d = new Date(fixed);
  if (Number.isNaN(d.getTime())) throw new AxmeError('INVALID_INPUT', `AXME_NOW=${fixed} is not an ISO 8601 date-time`);
  return () => d;
}

/** Opens the knowledge base for a command and always closes it (the cat-file process included). */
export async function withKb<T>(io: CliIO, args: GlobalArgs, fn: (kb: KnowledgeBase) => Promise<T>): Promise<T> {
  if (Array.isArray(args.C)) throw new AxmeError('INVALID_INPUT', '-C was given more than once: give one folder');
  // loaded here, not at start-up: commands that open no knowledge base never load the store
  const [{ closeKnowledgeBase, openKnowledgeBase }, { sessionOfProcess }] = await Promise.all([
    import('../knowledge/core/kb.ts'),
    import('../session/current.ts'),
  ]);
  // no `backend`: the default of every process, hybrid (reads through one `git cat-file --batch`,
  // objects written in-process: no git process per object), unless AXME_BACKEND says otherwise
  const kb = await openKnowledgeBase({
    cwd: args.C ?? io.cwd,
    env: io.env,
    now: clockFrom(io.env),
    actor: actorFrom(io.env),
    session: io.env.AXME_SESSION || undefined,
    // in a workspace: merged reads, scope-routed writes; in the workspace folder itself, its store
    workspace: true,
  });
  if (!io.env.AXME_SESSION) {
    // run by an agent (its Bash tool): the commit belongs to the agent's open session
    const s = sessionOfProcess(kb.repo.commonDir);
    if (s) {
      kb.session = s.id;
      if (!io.env.AXME_ACTOR) kb.actor = 'agent';
    }
  }
  try {
    return await fn(kb);
  } finally {
    await closeKnowledgeBase(kb);
  }
}

export function out(io: CliIO, text: string): void {
  io.stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
}

export function note(io: CliIO, text: string): void {
  io.stderr.write(`${text}\n`);
}

export function printJson(io: CliIO, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Reads all of stdin as UTF-8 text, refusing more than `max` bytes. */
export async function readStdin(io: CliIO, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > max) {
      throw new AxmeError(
        'INVALID_INPUT',
        `standard input is over ${formatSize(max)}, and the limit for one field is ${formatSize(LIMITS.text)}: keep knowledge short and reference large material by its path`,
      );
    }
    chunks.push(b);
  }
  const buf = Buffer.concat(chunks);
  const text = buf.toString('utf8');
  if (text.includes('\uFFFD') && !Buffer.from(text, 'utf8').equals(buf)) {
    const at = firstInvalidUtf8(buf);
    throw new AxmeError(
      'INVALID_INPUT',
      `standard input is not UTF-8 text (invalid byte 0x${buf[at]?.toString(16).padStart(2, '0')} at offset ${at}): convert it first, e.g. \`iconv -f latin1 -t utf-8\``,
    );
  }
  return text;
}

function firstInvalidUtf8(buf: Buffer): number {
  for (let i = 1; i <= buf.length; i++) {
    const t = buf.subarray(0, i).toString('utf8');
    // a replacement char that is not at the very end (an incomplete sequence still being read)
    const bad = t.indexOf('\uFFFD');
    if (bad !== -1 && bad < t.length - 1) return Buffer.byteLength(t.slice(0, bad));
  }
  return Math.max(0, buf.length - 1);
}

/** Ends a command with an exit code after it printed its own answer (e.g. fsck findings). */
export class SilentExit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/** A parsed command line as yargs gives it to a handler: the global -C and --json, and the command's own options. */
export type CliArgs = Record<string, unknown> & { C?: string; json?: boolean };

/**
 * `io` whose standard output and error show every control character of the text written as its
 * escape, but newlines, tabs and axme's own colours (model/terminal-text.ts): what a command
 * prints holds text from git (a remote's commit subjects and authors) that must not drive the
 * user's terminal. Bytes written as a Buffer pass as they are.
 */
export function terminalIO(io: CliIO): CliIO {
  return { ...io, stdout: terminalStream(io.stdout), stderr: terminalStream(io.stderr) };
}

const SAFE = Symbol('terminalText');

function terminalStream(stream: Writable): Writable {
  if ((stream as unknown as Record<symbol, unknown>)[SAFE]) return stream;
  return new Proxy(stream, {
    get(target, key) {
      if (key === SAFE) return true;
      if (key === 'write')
        return (chunk: unknown, ...rest: unknown[]) =>
          (target.write as (...a: unknown[]) => boolean)(typeof chunk === 'string' ? terminalText(chunk) : chunk, ...rest);
      const v = Reflect.get(target, key, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

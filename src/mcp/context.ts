import { resolve } from 'node:path';
import { z } from 'zod';
import { closeKnowledgeBase, type KnowledgeBase, openKnowledgeBase } from '../knowledge/core/kb.ts';
import { AxmeError, isAxmeError, USAGE_CODES } from '../model/errors.ts';
import { fileSystemError } from '../model/file-system-error.ts';
import { readOnlyServerMessage } from '../model/read-only-git-dir.ts';
import { invalidInput } from '../model/validate.ts';
import { sessionBinder } from '../session/current.ts';
import { ancestors, harnessPid, processStart } from '../session/owner.ts';

/** What every tool handler gets: knowledge bases by project, the server's session. */
export interface ServerContext {
  /** the project the server was started in */
  cwd: string;
  env: NodeJS.ProcessEnv;
  now: () => Date;
  /** AXME_SESSION when given; else each repository's session is found (or opened) per call */
  session: string | null;
  /** one open knowledge base per project path (kept warm across calls), bound to the agent's session */
  kb(projectPath?: string, opts?: { bindSession?: boolean }): Promise<KnowledgeBase>;
  /** ends the sessions the server opened for itself (the client had no session hooks) */
  endSessions(reason: string): string[];
  close(): Promise<void>;
  log(message: string): void;
  /** over HTTP: refuses a folder other than the served repository (a folder operation's `path`); absent on stdio, which takes any */
  confine?(path: string | undefined): void;
  /** over HTTP: the words of an error whose remedy is on the server, not in the caller's project (a store not initialised there); undefined for any other */
  remedy?(err: AxmeError): string | undefined;
}

export function createServerContext(opts: { cwd: string; env: NodeJS.ProcessEnv; now?: () => Date; log?: (m: string) => void }): ServerContext {
  const pool = new Map<string, Promise<KnowledgeBase>>();
  const session = opts.env.AXME_SESSION || null;
  const now = opts.now ?? (() => new Date());
  let closed = false;
  const client = harnessPid(process.ppid);
  const binder = sessionBinder({ ancestors: ancestors(process.pid), owner: { pid: client, start: processStart(client) }, now });
  const ctx: ServerContext = {
    cwd: opts.cwd,
    env: opts.env,
    now,
    session,
    async kb(projectPath, kbOpts) {
      // a call cut off at the stop must not start git processes nobody will close
      if (closed) throw new AxmeError('UNAVAILABLE', 'axme serve is stopping: the call was not run; send it again to a new server');
      const path = resolve(opts.cwd, projectPath ?? '.');
      let open = pool.get(path);
      if (!open) {
        open = openKnowledgeBase({ cwd: path, env: opts.env, now, actor: 'agent', session: session ?? undefined, workspace: true }); // backend: AXME_BACKEND, else hybrid (reads by cat-file, writes in-process)
        open.catch(() => pool.delete(path)); // a failed open (not a repo) is retried next call
        pool.set(path, open);
      }
      const kb = await open;
      // the session can change under a running server (Claude Code's /clear starts a new one): each
      // call gets its own view, so a close in flight keeps one session id throughout
      if (session || kbOpts?.bindSession === false) return kb;
      return { ...kb, session: binder.sessionFor(kb.repo.commonDir, path).id };
    },
    endSessions: (reason) => binder.endOwn(reason),
    async close() {
      closed = true;
      const all = [...pool.values()];
      pool.clear();
      await Promise.all(
        all.map(async (p) => {
          const kb = await p.catch(() => null);
          if (kb) await closeKnowledgeBase(kb);
        }),
      );
    },
    log: opts.log ?? ((m) => process.stderr.write(`axme serve: ${m}\n`)),
  };
  return ctx;
}

/** Parameters every tool takes. */
export const common = {
  project_path: z.string().max(4096).optional().describe('repository to use (default: the folder the server was started in)'),
};
export const writeCommon = {
  ...common,
  allow_secret: z.boolean().optional().describe('store content that looks like a credential anyway (only for deliberate examples or revoked keys)'),
};

export interface ToolReply {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [key: string]: unknown;
}

/**
 * An error's words as an MCP client's agent can act on them: the core's hints name the CLI (its
 * `-C <path>` option, a list command), which an agent calling tools has in the tool's
 * `project_path` and in axme_search_kb.
 */
export function forAgent(message: string): string {
  return message
    .replace(/pass -C <path> to a git repository/g, 'pass project_path naming a git repository')
    .replace(/`axme [a-z]+ list[^`]*` shows what there is/g, 'axme_search_kb {"query": "<words>"} finds an item by its words')
    .replace(/`axme log` shows what there is/g, 'axme_log shows what changed');
}

/**
 * Runs a handler and turns its answer into a tool result. An AxmeError becomes an error result
 * whose text says what to do (in the tool's own `words`: tool-words.ts); anything else too
 * (logged), and the server keeps serving.
 */
export async function reply(
  ctx: ServerContext,
  fn: () => Promise<{ text: string; data: Record<string, unknown> }>,
  words: (message: string) => string = (m) => m,
): Promise<ToolReply> {
  try {
    const { text, data } = await fn();
    return { content: [{ type: 'text', text }], structuredContent: data };
  } catch (caught) {
    // input that reached a schema unchecked is still the caller's input: said in words, not a dump
    // the file system's refusal (a git folder this user may not write, a full disk) is said as such, not as a bug
    const err = caught instanceof z.ZodError ? invalidInput(caught, 'input') : (fileSystemError(caught) ?? caught);
    if (isAxmeError(err)) {
      const kind = USAGE_CODES.has(err.code)
        ? 'invalid request'
        : err.code === 'NOT_FOUND'
          ? 'not found'
          : err.code === 'WRONG_STATE'
            ? 'wrong state'
            : err.code === 'NOT_ALLOWED'
              ? 'not allowed'
              : 'error';
      // no structured content: clients check it against the output schema, which describes a success
      const message =
        ctx.remedy?.(err) ?? (err.data.readOnly === true ? readOnlyServerMessage(String(err.data.ref), String(err.data.errno)) : forAgent(words(err.message)));
      return { content: [{ type: 'text', text: `${kind}: ${message}` }], isError: true };
    }
    const e = err instanceof Error ? err : new Error(String(err));
    ctx.log(`internal error: ${e.stack ?? e.message}`);
    return { content: [{ type: 'text', text: `internal error: ${e.message} (the server logged the details to stderr; it keeps serving)` }], isError: true };
  }
}

import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { z } from 'zod';
import { AxmeError, isAxmeError, USAGE_CODES } from '../model/errors.ts';
import { openKnowledgeBase, type KnowledgeBase } from '../knowledge/kb.ts';

/** What every tool handler gets: knowledge bases by project, the server's session. */
export interface ServerContext {
  /** the project the server was started in */
  cwd: string;
  env: NodeJS.ProcessEnv;
  now: () => Date;
  session: string;
  /** one open knowledge base per project path (kept warm across calls) */
  kb(projectPath?: string): Promise<KnowledgeBase>;
  close(): Promise<void>;
  log(message: string): void;
}

export function createServerContext(opts: { cwd: string; env: NodeJS.ProcessEnv; now?: () => Date; log?: (m: string) => void }): ServerContext {
  const pool = new Map<string, Promise<KnowledgeBase>>();
  const session = opts.env.AXME_SESSION || randomBytes(4).toString('hex');
  const now = opts.now ?? (() => new Date());
  const ctx: ServerContext = {
    cwd: opts.cwd,
    env: opts.env,
    now,
    session,
    kb(projectPath) {
      const path = resolve(opts.cwd, projectPath ?? '.');
      let kb = pool.get(path);
      if (!kb) {
        kb = openKnowledgeBase({ cwd: path, env: opts.env, now, actor: 'agent', session, backend: opts.env.AXME_BACKEND === 'cli' ? 'cli' : 'isogit' });
        kb.catch(() => pool.delete(path)); // a failed open (not a repo) is retried next call
        pool.set(path, kb);
      }
      return kb;
    },
    async close() {
      const all = [...pool.values()];
      pool.clear();
      await Promise.all(all.map(async (p) => (await p.catch(() => null))?.repo.close()));
    },
    log: opts.log ?? ((m) => process.stderr.write(`axme serve: ${m}\n`)),
  };
  return ctx;
}

/** Parameters every tool takes. */
export const common = {
  project_path: z.string().max(4096).optional().describe('repository to use (default: the folder the server was started in)'),
};
export const readCommon = {
  ...common,
  at: z.string().max(200).optional().describe('read the knowledge as it was: a commit, ~N (N commits back) or a date ("2026-01-31", "3 days ago")'),
};
export const writeCommon = {
  ...common,
  allow_secret: z.boolean().optional().describe('store content that looks like a credential anyway (only for deliberate examples or revoked keys)'),
};
export const pageParam = {
  page: z.number().int().min(1).optional().describe('page of the reply to return (replies are paged at a size budget; default 1)'),
};

export interface ToolReply {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [key: string]: unknown;
}

/**
 * Runs a handler and turns its answer into a tool result. An AxmeError becomes an error result
 * whose text says what to do; anything else too (logged), and the server keeps serving.
 */
export async function reply(ctx: ServerContext, fn: () => Promise<{ text: string; data?: unknown }>): Promise<ToolReply> {
  try {
    const { text, data } = await fn();
    const out: ToolReply = { content: [{ type: 'text', text }] };
    if (data !== undefined) out.structuredContent = (typeof data === 'object' && data !== null && !Array.isArray(data) ? data : { result: data }) as Record<string, unknown>;
    return out;
  } catch (err) {
    if (isAxmeError(err)) {
      const kind = USAGE_CODES.has(err.code) ? 'invalid request' : err.code === 'NOT_FOUND' ? 'not found' : 'error';
      return { content: [{ type: 'text', text: `${kind}: ${err.message}` }], structuredContent: { error: { code: err.code, message: err.message, data: err.data } }, isError: true };
    }
    const e = err instanceof Error ? err : new Error(String(err));
    ctx.log(`internal error: ${e.stack ?? e.message}`);
    return { content: [{ type: 'text', text: `internal error: ${e.message} (the server logged the details to stderr; it keeps serving)` }], isError: true };
  }
}

export { AxmeError };

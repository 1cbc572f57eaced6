import { resolve } from 'node:path';
import { closeKnowledgeBase, type KnowledgeBase, openKnowledgeBase } from '../../knowledge/core/kb.ts';
import { AxmeError } from '../../model/errors.ts';
import { processStart } from '../../session/owner.ts';
import { MCP_HARNESS, recordEvent, sessionForHarness } from '../../session/sessions.ts';
import type { ServerContext } from '../context.ts';
import type { Principal } from './auth.ts';

/**
 * The knowledge behind `axme serve --http`: one knowledge base for the one repository the server
 * owns, shared by every client session (warm caches, one write loop), and for each MCP session a
 * view of it with that session's own axme session and the caller's token name as the principal
 * of its commits.
 */
export interface SharedStore {
  /** the served repository's folder */
  cwd: string;
  env: NodeJS.ProcessEnv;
  now: () => Date;
  log(message: string): void;
  /** the shared knowledge base (opened on first use; a failed open is tried again) */
  kb(): Promise<KnowledgeBase>;
  /** refuses any folder but the served one (INVALID_INPUT) */
  confine(path: string | undefined): void;
  close(): Promise<void>;
}

/** The shared store of the repository at `cwd`. */
export function sharedStore(opts: { cwd: string; env: NodeJS.ProcessEnv; now?: () => Date; log: (m: string) => void }): SharedStore {
  const cwd = resolve(opts.cwd);
  const now = opts.now ?? (() => new Date());
  let open: Promise<KnowledgeBase> | null = null;
  let closed = false;
  return {
    cwd,
    env: opts.env,
    now,
    log: opts.log,
    kb() {
      if (closed) return Promise.reject(new AxmeError('UNAVAILABLE', 'axme serve is stopping: the call was not run; send it again to a new server'));
      if (!open) {
        const p = openKnowledgeBase({ cwd, env: opts.env, now, actor: 'agent', workspace: true });
        p.catch(() => {
          if (open === p) open = null;
        });
        open = p;
      }
      return open;
    },
    confine(path) {
      if (path === undefined || resolve(cwd, path) === cwd) return;
      throw new AxmeError('INVALID_INPUT', `this server serves ${cwd} only: leave project_path (and path) out, or give that folder`, { path });
    },
    async close() {
      closed = true;
      const kb = await open?.catch(() => null);
      open = null;
      if (kb) await closeKnowledgeBase(kb);
    },
  };
}

/**
 * A call on a served repository without knowledge: the fix is on the server (the model's own
 * project is another clone, and `axme init` there changes nothing the server reads).
 */
export function notInitializedHere(repo: string): string {
  return (
    `the team server's repository (${repo}) has no axme knowledge yet (refs/memory/main does not exist): the call was not run, nothing was saved. ` +
    'Tell the user: whoever runs the team server runs `axme init` in that repository (or `axme sync` there, to take the knowledge from its remote); ' +
    '`axme init` in this project does not change what the server serves.'
  );
}

/** What one MCP session's tools run with: the shared store, seen as this session and this token. */
export interface HttpSessionContext extends ServerContext {
  /** ends the axme session this MCP session opened (idle expiry, DELETE, shutdown) */
  end(reason: string): void;
}

/** The context of MCP session `id()` for `principal` (`id` is known once the transport assigned it). */
export function sessionContext(shared: SharedStore, id: () => string | undefined, principal: Principal): HttpSessionContext {
  let own: { commonDir: string; session: string } | null = null;
  const ctx: HttpSessionContext = {
    cwd: shared.cwd,
    env: shared.env,
    now: shared.now,
    session: null,
    async kb(projectPath, kbOpts) {
      shared.confine(projectPath);
      const kb = await shared.kb();
      const view: KnowledgeBase = { ...kb, principal: principal.name ?? undefined };
      const mcpId = id();
      if (kbOpts?.bindSession === false || !mcpId) return view;
      if (!own) {
        const meta = sessionForHarness(kb.repo.commonDir, MCP_HARNESS, `http-${mcpId}`, {
          cwd: shared.cwd,
          transcriptPath: null,
          now: shared.now(),
          owner: () => ({ pid: process.pid, start: processStart(process.pid) }),
        });
        own = { commonDir: kb.repo.commonDir, session: meta.id };
      }
      return { ...view, session: own.session };
    },
    endSessions(reason) {
      const ended = own ? [own.session] : [];
      ctx.end(reason);
      return ended;
    },
    end(reason) {
      if (!own) return;
      try {
        recordEvent(own.commonDir, own.session, { t: shared.now().toISOString(), type: 'end', reason });
      } catch {
        // the repository went away: nothing to end
      }
      own = null;
    },
    // the shared store outlives a session: closed by the server at its stop
    close: async () => {},
    log: shared.log,
    confine: (path) => shared.confine(path),
    remedy: (err) => (err.code === 'NOT_INITIALIZED' && !err.data.store ? notInitializedHere(shared.cwd) : undefined),
  };
  return ctx;
}

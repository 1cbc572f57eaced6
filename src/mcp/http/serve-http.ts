import { existsSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { resolve as resolvePath } from 'node:path';
import { tokensPath, tokenVerifier } from '../../knowledge/admin/tokens.ts';
import { withDeadline } from '../../model/deadline.ts';
import { listen } from '../../model/listen.ts';
import { isLoopback, LOOPBACK_HOSTS } from '../../model/loopback.ts';
import { authGate } from './auth.ts';
import { failureLog, internalErrorReply } from './failure-log.ts';
import { heldSessions } from './held-sessions.ts';
import type { HttpSettings } from './http-options.ts';
import { refusalLog, refusalOf } from './refusal-log.ts';
import { refuser, send } from './replies.ts';
import { requestHandler } from './request-handler.ts';
import { sharedStore } from './session-context.ts';
import { syncLoop } from './sync-loop.ts';
import { toolScopes } from './tool-scopes.ts';

/** What `axme serve --http` is started with: the settings (http-options.ts), the repository and where it reports. */
export interface HttpServeOptions extends HttpSettings {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** told the URL once listening (the CLI prints it on stdout) */
  onListening(url: string): void;
  log(message: string): void;
}

/** How long a stopping server waits for the requests in flight. */
const DRAIN_MS = 15_000;
/** How long an idle kept-alive connection stays open (announced to the client as Keep-Alive: timeout=60). */
const KEEP_ALIVE_MS = 60_000;
/** How long a stopping server spends on recovery. */
const SHUTDOWN_SWEEP_MS = 5_000;

/**
 * `axme serve --http`: the tools and resources of `axme serve` over MCP Streamable HTTP, one MCP
 * server per session over one shared knowledge base, behind bearer tokens. Resolves once the
 * server stopped (SIGINT/SIGTERM: in-flight requests finished, sessions ended, a last sync).
 */
export async function serveHttp(opts: HttpServeOptions): Promise<void> {
  // a tokens file named that is not there yet is allowed (the first token may come once the server runs:
  // it rereads the file), never silently: a mistyped path would otherwise leave the server open
  if (opts.tokens !== undefined && !existsSync(resolvePath(opts.cwd, opts.tokens)))
    opts.log(
      `the tokens file ${resolvePath(opts.cwd, opts.tokens)} (--tokens) does not exist: until \`axme token add <name> --scope write --tokens ${opts.tokens}\` makes it, this server is open to this machine only; check the path if you meant an existing file`,
    );
  const verifier = tokenVerifier(tokensPath({ cwd: opts.cwd, env: opts.env, file: opts.tokens }));
  const gate = authGate({ verifier, host: opts.host, allowedHosts: opts.allowedHosts, log: opts.log });
  const shared = sharedStore({ cwd: opts.cwd, env: opts.env, log: opts.log });
  const allowed =
    isLoopback(opts.host) || opts.allowedHosts.length
      ? new Set([...LOOPBACK_HOSTS, opts.host.toLowerCase(), ...opts.allowedHosts.map((h) => h.toLowerCase())])
      : null;
  const bare = await shared.kb().then(
    async (kb) => {
      if (!(await kb.repo.backend.resolveRef(kb.ref)))
        opts.log(
          `no axme knowledge in ${shared.cwd} yet (${kb.ref}): every tool call is refused until \`axme init\` runs in it (or \`axme sync\` takes the team's from its remote)`,
        );
      return kb.repo.bare;
    },
    () => false,
  );
  const sync = syncLoop({ kb: () => shared.kb(), env: opts.env, intervalS: opts.syncIntervalS ?? (bare ? 60 : 0), log: opts.log });
  let inFlight = 0;
  let stopping = false;
  let drained: (() => void) | null = null;
  // listened for before the URL is printed: a signal right after it stops the server cleanly
  const stopSignal = new Promise<string>((resolve) => {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => resolve(sig));
  });
  const sessions = heldSessions({ shared, verifier, sessionsPerToken: opts.sessionsPerToken, stopping: () => stopping, log: opts.log });
  const logRefusal = refusalLog({ log: opts.log, now: () => Date.now() });
  const logFailure = failureLog({ log: opts.log, now: () => Date.now() });
  const handle = requestHandler({
    settings: opts,
    gate,
    allowed,
    tools: toolScopes(shared),
    sessions,
    stopping: () => stopping,
    wrote: () => sync.kick(),
    refuse: refuser(logRefusal),
    logRefusal,
    log: opts.log,
  });

  const http = createHttpServer((req, res) => {
    const counted = req.method === 'POST';
    if (counted) inFlight++;
    if (counted) {
      res.once('close', () => {
        inFlight--;
        if (inFlight === 0) drained?.();
      });
    }
    handle(req, res).catch((err: unknown) => {
      // the client learns an id to quote, the operator the stack (once per distinct error): failure-log.ts
      const id = logFailure(err, refusalOf(req, 500, ''));
      if (!res.headersSent) send(res, 500, {}, JSON.stringify({ jsonrpc: '2.0', error: internalErrorReply(id), id: null }));
      else res.end();
    });
  });
  // a slow client holds its own socket, never the server: bounded headers and bodies
  http.headersTimeout = 10_000;
  http.requestTimeout = 60_000;
  // an idle connection kept a minute (Node's default is 5 s) and announced so (Keep-Alive:
  // timeout=60): a client whose requests wait on others' writes (many clients, a loaded machine)
  // drops it before the server does, instead of sending its next request as the server closes it
  // (lost to a reset, ECONNRESET)
  http.keepAliveTimeout = KEEP_ALIVE_MS;
  const addr = await listen(http, opts.port, opts.host).catch(async (err: unknown) => {
    // nothing served: the store let go before the error is reported
    await sync.stop(false);
    await shared.close();
    throw err;
  });
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  opts.onListening(`http://${host}:${addr.port}/mcp`);
  opts.log(`serving ${shared.cwd} over HTTP on ${host}:${addr.port}${gate.open() ? ' (no tokens: open to this machine only)' : ''}`);

  let tokensProblem: string | null = null;
  const sweep = setInterval(
    () => {
      const cutoff = Date.now() - opts.idleTimeoutS * 1000;
      for (const s of sessions.table.all()) {
        if (s.lastSeen >= cutoff || s.busy > 0) continue;
        // said before the session goes: a client refused with 404 from now on finds the reason logged
        opts.log(`session ${s.id} closed after ${opts.idleTimeoutS} s idle`);
        void sessions.close(s, 'mcp-http-idle');
      }
      try {
        gate.watch();
        sessions.endRevoked();
        if (tokensProblem !== null) opts.log('the tokens file can be used again: requests are checked against it');
        tokensProblem = null;
      } catch (err) {
        // said once per problem, not at every sweep
        const problem = (err as Error).message;
        if (problem !== tokensProblem) opts.log(`every request is refused (503) until the tokens file is fixed: ${problem}`);
        tokensProblem = problem;
      }
      try {
        verifier.flush();
      } catch (err) {
        opts.log(`could not record token use: ${(err as Error).message}`);
      }
    },
    Math.max(250, Math.min(opts.idleTimeoutS * 250, 30_000)),
  );
  sweep.unref();

  const why = await stopSignal;
  stopping = true;
  opts.log(`stopping (${why}${inFlight ? `; finishing ${inFlight} request${inFlight === 1 ? '' : 's'} in flight` : ''})`);
  clearInterval(sweep);
  http.close();
  if (inFlight > 0) {
    await Promise.race([new Promise<void>((resolve) => (drained = resolve)), new Promise<void>((resolve) => setTimeout(resolve, DRAIN_MS).unref())]);
  }
  for (const s of sessions.table.all()) await sessions.close(s, 'mcp-shutdown');
  http.closeAllConnections();
  // bounded: what is left is recovered at the next start
  await withDeadline(sessions.recover('stop'), SHUTDOWN_SWEEP_MS);
  await sync.stop(true);
  try {
    verifier.flush();
  } catch {
    // the file went away: nothing to record
  }
  await shared.close();
}

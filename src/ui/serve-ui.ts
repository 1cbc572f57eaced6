import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import { closeKnowledgeBase, openKnowledgeBase } from '../knowledge/core/kb.ts';
import { readMergedState } from '../knowledge/core/merged-state.ts';
import type { Actor } from '../model/common.ts';
import { AxmeError, isAxmeError } from '../model/errors.ts';
import { listen } from '../model/listen.ts';
import { isLoopback } from '../model/loopback.ts';
import { numberValue, PORT } from '../model/number-value.ts';
import { newCsrfToken, runAction } from './actions.ts';
import { UI_CSS, UI_JS } from './assets.ts';
import type { UiContext } from './context.ts';
import { allowedHosts, allowedOrigins, refuse, SECURITY_HEADERS } from './guard.ts';
import { html, layout } from './html.ts';
import { route } from './routes.ts';
import { changedSincePage } from './views/item-actions.ts';

export interface UiOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** 0 picks a free port */
  port: number;
  /** the address to bind: 127.0.0.1 unless told */
  host: string;
  /** a revision or date: every view reads the store as it was then */
  at?: string | undefined;
  /** where the URL (and only the URL) is printed */
  stdout: Writable;
  /** where notes go (a warning about a non-loopback address, a browser that did not open) */
  stderr: Writable;
  /** open the page in the system's browser */
  open?: boolean | undefined;
  now?: (() => Date) | undefined;
  /** who changes items from the page: a person ("human") unless the CLI was run by an agent */
  actor?: Actor | undefined;
}

/**
 * Starts the page: opens the knowledge base (and reads it once, so the first page is
 * warm), listens on `host:port`, prints the URL; `close` stops listening, ends open connections
 * and closes the knowledge base. Every request reads the store afresh (the tip
 * can move while the page is open; derived states are cached per commit).
 */
async function startUi(opts: UiOptions): Promise<{ close(): Promise<void> }> {
  numberValue('--port', opts.port, PORT);
  // an empty address would listen on every interface: the opposite of what was asked
  if (!opts.host) throw new AxmeError('INVALID_INPUT', '--host needs one address (e.g. 127.0.0.1)');
  // every interface at once: the Host check (guard.ts) would answer no name anyone can send
  if (['0.0.0.0', '::', '[::]'].includes(opts.host))
    throw new AxmeError(
      'INVALID_INPUT',
      `--host ${opts.host} listens on every interface, but the page answers only the address it is bound to: give a concrete address (e.g. this machine's LAN address), or 127.0.0.1`,
    );
  if (!isLoopback(opts.host)) opts.stderr.write(`axme ui: ${opts.host} is not a loopback address: anyone who can reach it can read this knowledge\n`);
  const kb = await openKnowledgeBase({ cwd: opts.cwd, env: opts.env, now: opts.now, actor: opts.actor ?? 'human', workspace: true });
  try {
    await readMergedState(kb, opts.at); // NOT_INITIALIZED or a bad --at fails here, before the URL is printed
  } catch (err) {
    await closeKnowledgeBase(kb);
    throw err;
  }
  // changes only on loopback and at the tip: a page shared on a network, or showing the past, is read-only
  const ctx: UiContext = { kb, at: opts.at, cwd: opts.cwd, env: opts.env, actions: !opts.at && isLoopback(opts.host) ? { csrf: newCsrfToken() } : null };
  let hosts = new Set<string>();
  let origins = new Set<string>();
  const server = createServer((req, res) => {
    if (refuse(req, res, hosts)) return;
    void (req.method === 'POST' ? act(ctx, req, res, origins) : answer(ctx, req, res));
  });
  let port: number;
  try {
    ({ port } = await listen(server, opts.port, opts.host));
  } catch (err) {
    await closeKnowledgeBase(kb);
    throw err;
  }
  hosts = allowedHosts(opts.host, port);
  origins = allowedOrigins(hosts);
  const url = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}/`;
  opts.stdout.write(`${url}\n`);
  if (opts.open) openBrowser(url, opts.stderr);
  return {
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2000).unref();
      });
      await closeKnowledgeBase(kb);
    },
  };
}

/** Runs the page until SIGINT or SIGTERM, then closes it. */
export async function serveUi(opts: UiOptions): Promise<void> {
  const ui = await startUi(opts);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await ui.close();
}

const ASSETS: Record<string, { type: string; body: string }> = {
  '/assets/ui.css': { type: 'text/css; charset=utf-8', body: UI_CSS },
  '/assets/ui.js': { type: 'text/javascript; charset=utf-8', body: UI_JS },
};

async function answer(ctx: UiContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const started = performance.now();
  const head = req.method === 'HEAD';
  const send = (status: number, type: string, body: string, cache = 'no-store') => {
    res.writeHead(status, {
      ...SECURITY_HEADERS,
      'Content-Type': type,
      'Cache-Control': cache,
      'Content-Length': Buffer.byteLength(body),
      'Server-Timing': `app;dur=${(performance.now() - started).toFixed(1)}`,
    });
    res.end(head ? undefined : body);
  };
  try {
    // the request target as a path (never resolved against a base: `//x` is a path here, not a host)
    const url = new URL(`http://ui.invalid${(req.url ?? '/').startsWith('/') ? req.url : `/${req.url}`}`);
    const asset = ASSETS[url.pathname];
    if (asset) return send(200, asset.type, asset.body, 'no-cache');
    if (url.pathname === '/') {
      res.writeHead(302, { ...SECURITY_HEADERS, Location: '/decisions', 'Cache-Control': 'no-store' });
      return void res.end();
    }
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204, { ...SECURITY_HEADERS, 'Cache-Control': 'no-cache' });
      return void res.end();
    }
    const found = route(url.pathname);
    if (!found)
      return send(
        404,
        'text/html; charset=utf-8',
        layout({ title: 'Not found', active: '', at: ctx.at, body: html`<p>No page at <code>${url.pathname}</code>.</p>` }),
      );
    const r = await found.view(ctx, url, found.parts);
    if ('fragment' in r) return send(200, 'text/html; charset=utf-8', r.fragment.text);
    return send(200, 'text/html; charset=utf-8', layout({ ...r, at: ctx.at }));
  } catch (err) {
    const [status, message] = problem(err);
    if (res.headersSent) return void res.destroy();
    send(
      status,
      'text/html; charset=utf-8',
      layout({
        title: status === 404 ? 'Not found' : status === 400 ? 'Cannot show that' : 'Error',
        active: '',
        at: ctx.at,
        body: html`<p class="error">${message}</p>`,
      }),
    );
  }
}

/** A form of the page: the action runs, then the browser is sent on (303) to what changed; a refusal is a page saying why. */
async function act(ctx: UiContext, req: IncomingMessage, res: ServerResponse, origins: Set<string>): Promise<void> {
  try {
    const next = await runAction(ctx, req, new URL(`http://ui.invalid${req.url}`).pathname, origins);
    res.writeHead(303, { ...SECURITY_HEADERS, Location: next, 'Cache-Control': 'no-store' });
    res.end();
  } catch (err) {
    const [status, message] = problem(err);
    if (res.headersSent) return void res.destroy();
    const changed = await changedSincePage(ctx, err).catch(() => null);
    const body = changed
      ? layout({ title: 'Changed since you opened it', active: '', at: ctx.at, body: changed })
      : layout({ title: status === 403 ? 'Not allowed' : 'Not changed', active: '', at: ctx.at, body: html`<p class="error">${message}</p>` });
    res.writeHead(status, {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(body);
  }
}

function problem(err: unknown): [number, string] {
  if (err instanceof URIError) return [400, 'the address is not well encoded'];
  if (isAxmeError(err, 'NOT_FOUND')) return [404, err.message];
  if (isAxmeError(err, 'NOT_ALLOWED')) return [403, err.message];
  if (isAxmeError(err, 'WRONG_STATE')) return [409, err.message];
  if (isAxmeError(err, 'INVALID_INPUT') && err.data.tooLarge) return [413, err.message];
  if (isAxmeError(err, 'SECRET_DETECTED')) return [400, err.message];
  if (err instanceof AxmeError && ['INVALID_INPUT', 'BAD_REVISION', 'AMBIGUOUS'].includes(err.code)) return [400, err.message];
  if (err instanceof AxmeError) return [500, err.message];
  return [500, `internal error: ${(err as Error)?.message ?? String(err)}`];
}

function openBrowser(url: string, stderr: Writable): void {
  const [cmd, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => stderr.write(`axme ui: could not open a browser (${cmd}): open ${url} yourself\n`));
    child.unref();
  } catch {
    stderr.write(`axme ui: could not open a browser: open ${url} yourself\n`);
  }
}

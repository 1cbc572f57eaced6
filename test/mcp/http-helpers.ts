import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CLI, cleanEnv } from '../helpers.ts';
import { HANG_BOUND_MS } from '../until.ts';

/** A real `axme serve --http` process on 127.0.0.1 (port 0), its URL read from stdout, stderr kept. */
export interface HttpServer {
  url: string;
  child: ChildProcessWithoutNullStreams;
  stderr(): string;
  /** resolves once stderr matches `re` (fails after `ms`, so a missing line fails instead of stalling) */
  waitForLog(re: RegExp, ms?: number): Promise<string>;
  /** SIGTERM (or `signal`), then the exit code; SIGKILL after 30 s so a hang fails instead of stalling */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `axme serve --http` in `dir` with `args` (on a free port unless they give `--port`). */
export async function startHttp(dir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<HttpServer> {
  const port = args.includes('--port') ? [] : ['--port', '0'];
  const child = spawn(process.execPath, [CLI, 'serve', '--http', ...port, ...args], { cwd: dir, env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  let out = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const waitForLog = (re: RegExp, ms = HANG_BOUND_MS) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const m = re.exec(err);
        if (!m) return false;
        clearTimeout(timer);
        child.stderr.off('data', check);
        resolve(m[0]);
        return true;
      };
      const timer = setTimeout(() => {
        child.stderr.off('data', check);
        reject(new Error(`no ${re} on stderr after ${ms} ms; stderr: ${err}`));
      }, ms);
      if (!check()) child.stderr.on('data', check);
    });
  // 'close': stderr read to its end
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL after ${HANG_BOUND_MS / 1000} s; stderr: ${err}`)), HANG_BOUND_MS);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /^(http:\/\/\S+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void exited.then((r) => {
      clearTimeout(timer);
      reject(new Error(`server exited ${r.code} before listening; stderr: ${err}`));
    });
  });
  return {
    url,
    child,
    stderr: () => err,
    waitForLog,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), HANG_BOUND_MS);
      const r = await exited;
      clearTimeout(timer);
      return r;
    },
  };
}

/** An SDK client connected over Streamable HTTP (with the bearer token when given). */
export async function httpClient(url: string, token?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {});
  const client = new Client({ name: 'http-test', version: '1' });
  await client.connect(transport);
  return client;
}

export type ToolResult = { content: Array<{ type: string; text: string }>; structuredContent?: any; isError?: boolean };

export const text = (r: ToolResult) => r.content.map((c) => c.text).join('\n');

/** `axme serve --http` expected to refuse to start: its exit, or `listening` (then stopped) when it served instead. */
export function startRefused(dir: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; listening: boolean }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '--port', '0', ...args], { cwd: dir, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let listening = false;
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    if (!listening && /^http:\/\/\S+\n/.test(stdout)) {
      listening = true;
      child.kill('SIGTERM');
    }
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), HANG_BOUND_MS);
  return new Promise((resolve) => child.on('close', (code) => (clearTimeout(killer), resolve({ code, stdout, stderr, listening }))));
}

/** A raw HTTP request to the server (Host and body as given): status, headers, body. */
export function raw(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method: opts.method ?? 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...opts.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', (err) =>
      (err as NodeJS.ErrnoException).code === 'EPIPE' || (err as NodeJS.ErrnoException).code === 'ECONNRESET'
        ? resolve({ status: -1, headers: {}, body: String(err) })
        : reject(err),
    );
    req.end(opts.body);
  });
}

/** An `initialize` request as a raw client sends it. */
export const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

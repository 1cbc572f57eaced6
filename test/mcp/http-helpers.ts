import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CLI, cleanEnv } from '../helpers.ts';

/** A real `axme serve --http` process on 127.0.0.1 (port 0), its URL read from stdout, stderr kept. */
export interface HttpServer {
  url: string;
  child: ChildProcessWithoutNullStreams;
  stderr(): string;
  /** SIGTERM (or `signal`), then the exit code; SIGKILL after 30 s so a hang fails instead of stalling */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function startHttp(dir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<HttpServer> {
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '--port', '0', ...args], { cwd: dir, env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  let out = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL after 20 s; stderr: ${err}`)), 20_000);
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
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
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

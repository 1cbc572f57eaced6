import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, cleanEnv } from '../helpers.ts';

/** A tool call's result as the MCP SDK client returns it. */
export type ToolResult = { content: Array<{ type: string; text: string }>; structuredContent?: any; isError?: boolean };

/** The text blocks of a tool result, joined. */
export const resultText = (r: ToolResult): string => r.content.map((c) => c.text).join('\n');

/**
 * The real MCP SDK client connected over stdio to `axme serve` (the built CLI) in `dir`; `name` is
 * the client name it announces (some answers depend on it), `env` added to a clean environment.
 */
export async function connectStdio(
  dir: string,
  opts: { env?: NodeJS.ProcessEnv; name?: string; session?: string } = {},
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve'],
    cwd: dir,
    env: cleanEnv({ AXME_SESSION: opts.session ?? 'mcp-test', ...opts.env }) as Record<string, string>,
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d) => (err += d));
  const client = new Client({ name: opts.name ?? 'axme-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => err };
}

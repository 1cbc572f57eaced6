import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scripted model on 127.0.0.1 for the real agent clients (Claude Code, Gemini CLI, Codex):
 * each speaks its vendor's wire format (anthropic.ts, gemini.ts, openai.ts beside this file), and
 * every conversation turn is answered with the next step of a script — call a tool, or answer
 * with text. Every request body is kept, so a test can assert what the client handed the model:
 * the session-start context, each tool result, each denial's reason.
 */

/** One scripted answer of the model. */
export type Step = (
  | /** call a tool: `name` is matched against the tools the client offered (exact, else by suffix) */
  { tool: string; args: Record<string, unknown> }
  /** answer with text and end the turn */
  | { text: string }
) & {
  /** done when the turn this step answers has arrived, before it is answered (the world changes between two calls) */
  before?: () => unknown;
};

/** A request as the server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  body: unknown;
  /** the raw body text (what the model received, as a string to search) */
  raw: string;
  /** when its body had arrived (performance.now(), ms) */
  receivedAt: number;
  /** when its answer was finished (performance.now(), ms); null until then */
  answeredAt: number | null;
}

/** What a wire format must do: recognise its requests, and answer one with a step. */
export interface WireFormat {
  /** true when this request is a conversation turn of this format */
  matches: (req: SeenRequest) => boolean;
  /** the tool names the client offered in this request */
  toolNames: (req: SeenRequest) => string[];
  /** write the answer (SSE or JSON, as the client asked) for `step`; `toolName` is the resolved name */
  answer: (req: SeenRequest, res: ServerResponse, step: Step, toolName: string | null, n: number) => void;
  /** requests of this format that are not conversation turns (a router, a title), answered without a step; null: not one */
  side?: (req: SeenRequest, res: ServerResponse) => boolean;
}

export interface ScriptedModel {
  url: string;
  port: number;
  /** every request, in order */
  requests: SeenRequest[];
  /** the conversation turns answered from the script, in order */
  turns: SeenRequest[];
  /** the raw text of every conversation turn, joined: what the model was handed, to search */
  seen: () => string;
  /** set the steps the next turns take (the session's script) */
  script: (steps: Step[]) => void;
  /** steps not yet used */
  remaining: () => number;
  close: () => Promise<void>;
}

/** Resolves a scripted tool name against the offered ones: exact, else the one ending with it. */
export function resolveTool(wanted: string, offered: string[]): string {
  if (offered.includes(wanted)) return wanted;
  const hits = offered.filter((n) => n.endsWith(wanted));
  if (hits.length === 1) return hits[0]!;
  // not offered (or ambiguous): the client decides what an unknown tool does
  return wanted;
}

/** Starts the scripted model for `format` on 127.0.0.1 (a free port). */
export async function startModel(format: WireFormat, steps: Step[] = []): Promise<ScriptedModel> {
  let queue = [...steps];
  const requests: SeenRequest[] = [];
  const turns: SeenRequest[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = null;
      }
      const seen: SeenRequest = { method: req.method ?? 'GET', url: req.url ?? '/', body, raw, receivedAt: performance.now(), answeredAt: null };
      requests.push(seen);
      res.on('finish', () => (seen.answeredAt = performance.now()));
      try {
        if (format.side?.(seen, res)) return;
        if (!format.matches(seen)) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `the scripted model does not serve ${seen.method} ${seen.url}` } }));
          return;
        }
        turns.push(seen);
        // out of script: end the conversation politely rather than hang the client
        const step: Step = queue.shift() ?? { text: 'Done.' };
        await step.before?.();
        const name = 'tool' in step ? resolveTool(step.tool, format.toolNames(seen)) : null;
        format.answer(seen, res, step, name, turns.length);
      } catch (err) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `scripted model failed: ${(err as Error).message}` } }));
      }
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    turns,
    seen: () => turns.map((t) => t.raw).join('\n'),
    script: (s) => {
      queue = [...s];
    },
    remaining: () => queue.length,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections?.();
        server.close(() => ok());
      }),
  };
}

/** Writes one server-sent event. */
export function sse(res: ServerResponse, event: string | null, data: unknown): void {
  res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
}

/** Starts an SSE answer. */
export function sseHead(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
}

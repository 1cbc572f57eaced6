import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { comparePair, type PairModule, type PairResult } from '../harness.ts';
import { benchEnv, CLI, timeProcess } from '../lib.ts';

/**
 * Pair 6, context: what an agent gets at session start, `axme context` as a new CLI process
 * (cold: Node start, bundle, opening the store, the parse cache on disk) against `axme_context`
 * on a running `axme serve` (warm: the state in memory), through the real SDK client.
 */
export const contextPairs: PairModule = async (ctx) => {
  const out: PairResult[] = [];
  const env = benchEnv();
  for (const size of ctx.sizes) {
    const dir = ctx.fixture(size);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve'],
      cwd: dir,
      env: env as Record<string, string>,
      stderr: 'ignore',
    });
    const client = new Client({ name: 'axme-bench', version: '1' });
    await client.connect(transport);
    try {
      out.push(
        await comparePair({
          pair: 'context',
          measure: 'session-start context',
          size,
          reps: ctx.reps,
          warmup: ctx.warmup(1),
          a: { label: 'axme context, cold CLI process', run: async () => void (await timeProcess(process.execPath, [CLI, 'context'], { cwd: dir, env })) },
          b: {
            label: 'axme_context, warm server',
            run: async () => {
              const r = (await client.callTool({ name: 'axme_context', arguments: {} })) as { isError?: boolean; content: Array<{ text: string }> };
              if (r.isError) throw new Error(`axme_context: ${r.content[0]?.text}`);
            },
          },
        }),
      );
    } finally {
      await client.close();
    }
  }
  return out;
};

// MCP benchmark (issue 3): a warm `axme serve` driven by the real SDK client over stdio, with 1k
// and 10k decisions (plus memories) in the store: median latency of axme_context,
// axme_decisions page 1, axme_search_kb and axme_save_decision.
import { rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { argOf, benchEnv, CLI, fmt, type Stats, seededRepo, stats } from './lib.ts';

const arg = (name: string, d: string) => argOf(process.argv.slice(2), name, d);
const SIZES = arg('sizes', '1000,10000').split(',').map(Number);
const REPS = Number(arg('reps', '20'));
const OUT = arg('out', join(import.meta.dirname, 'results'));
const log = (s: string) => process.stderr.write(`${s}\n`);

const rows: Array<{ size: number; measure: string; stats: Stats }> = [];
const queries = ['component 42 approach', 'seeded decision benchmark', 'caching layer', 'approach 777'];

for (const size of SIZES) {
  log(`seeding ${size} decisions...`);
  const dir = seededRepo(size);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve'],
    cwd: dir,
    env: benchEnv() as Record<string, string>,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'axme-bench', version: '1' });
  try {
    await client.connect(transport);
    const time = async (name: string, argsFor: (i: number) => Record<string, unknown>, measure: string) => {
      await client.callTool({ name, arguments: argsFor(-1) }); // warm: parse cache, index
      const samples: number[] = [];
      for (let i = 0; i < REPS; i++) {
        const t0 = performance.now();
        const r = (await client.callTool({ name, arguments: argsFor(i) })) as { isError?: boolean; content: Array<{ text: string }> };
        samples.push(performance.now() - t0);
        if (r.isError) throw new Error(`${name}: ${r.content[0]?.text}`);
      }
      rows.push({ size, measure, stats: stats(samples) });
    };
    log(`  size ${size}: tools`);
    await time('axme_context', () => ({}), 'axme_context');
    await time('axme_decisions', () => ({ page: 1 }), 'axme_decisions page 1');
    await time('axme_search_kb', (i) => ({ query: queries[(i + queries.length) % queries.length] }), 'axme_search_kb (k=10)');
    await time('axme_save_decision', (i) => ({ title: `Bench save ${i}`, decision: 'Saved through MCP.' }), 'axme_save_decision');
    await time('axme_context', () => ({}), 'axme_context after writes (new tip)');
  } finally {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}`;
process.stdout.write(
  `MCP benchmark on ${machine} (warm server, real SDK client over stdio)\n\n| items | tool call | median ms | p10 | p90 | runs |\n|---:|---|---:|---:|---:|---:|\n`,
);
process.stdout.write(
  rows.map((r) => `| ${r.size} | ${r.measure} | ${fmt(r.stats.median)} | ${fmt(r.stats.p10)} | ${fmt(r.stats.p90)} | ${r.stats.n} |`).join('\n') + '\n',
);
const file = join(OUT, `mcp-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, JSON.stringify({ machine, date: new Date().toISOString(), reps: REPS, rows }, null, 2));
log(`results written to ${file}`);

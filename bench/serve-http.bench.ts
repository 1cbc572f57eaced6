// Team server load benchmark (issue 24): N concurrent MCP clients over Streamable HTTP against one
// `axme serve --http` on loopback at its default limits, each client with a token of its own, each
// M writes (backlog adds, unique titles) and M searches: every acknowledged write present
// afterwards, `git fsck` clean, p50/p99 of a write and a search. Side by side in the same run: the
// same N x M writes through the HTTP clients alone; again while one more token floods the server
// (sessions, batches, requests past its rate: it must not deny service to the others); and through
// N stdio `axme serve` processes on one repository (the fleet a team runs today). Loopback only;
// bounded in count (--clients, --ops) and in time (--time-limit seconds, the whole run).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { argOf } from './args.ts';

const argv = process.argv.slice(2);
const usage = (why: string): never => {
  process.stderr.write(
    `serve-http.bench: ${why}\nusage: node --import tsx bench/serve-http.bench.ts [--clients 32] [--ops 50] [--time-limit 900] [--out bench/results]\n`,
  );
  process.exit(2);
};
const KNOWN = new Set(['clients', 'ops', 'time-limit', 'out']);
for (let i = 0; i < argv.length; i += 2)
  if (!argv[i]!.startsWith('--') || !KNOWN.has(argv[i]!.slice(2)) || argv[i + 1] === undefined) usage(`unknown option or missing value: ${argv[i]}`);
const int = (name: string, d: string, max: number) => {
  const v = Number(argOf(argv, name, d));
  if (!Number.isInteger(v) || v < 1 || v > max) usage(`--${name} must be a whole number from 1 to ${max}`);
  return v;
};
const CLIENTS = int('clients', '32', 64);
const OPS = int('ops', '50', 200);
const DEADLINE = Date.now() + int('time-limit', '900', 3600) * 1000;
const OUT = argOf(argv, 'out', join(import.meta.dirname, 'results'));
const log = (s: string) => process.stderr.write(`${s}\n`);
// what is measured is loaded once the options are good: a usage error costs only Node's start
const { Client: McpClient } = await import('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { addToken, tokensPath } = await import('../src/knowledge/admin/tokens.ts');
const { machine } = await import('./harness.ts');
const { benchEnv, CLI, fmt, seededRepo } = await import('./lib.ts');
const env = benchEnv();

type Call = { isError?: boolean; content: Array<{ text: string }> };

function pct(samples: number[], q: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]! : NaN;
}

function checkDeadline(): void {
  if (Date.now() > DEADLINE) throw new Error('the run passed its --time-limit: stopped');
}

/** A store with nothing but its config (no items). */
function freshRepo(): string {
  return seededRepo(0);
}

/** Titles of the backlog items stored, and whether git fsck is clean. */
function verify(dir: string): { titles: Set<string>; fsck: boolean } {
  const listing = execFileSync('git', ['-C', dir, 'ls-tree', '-r', '--name-only', 'refs/memory/main', 'backlog/'], {
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const titles = new Set<string>();
  const paths = listing.split('\n').filter(Boolean);
  const blobs = execFileSync('git', ['-C', dir, 'cat-file', '--batch'], {
    env,
    input: paths.map((p) => `refs/memory/main:${p}`).join('\n'),
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  for (const m of blobs.matchAll(/^title: (.*)$/gm)) titles.add(m[1]!.replace(/^['"]|['"]$/g, ''));
  let fsck = true;
  try {
    execFileSync('git', ['-C', dir, 'fsck', '--no-progress'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch {
    fsck = false;
  }
  return { titles, fsck };
}

/** Starts `axme serve --http` on 127.0.0.1:0 at its default limits; resolves with its URL and a stop function. */
async function startServer(dir: string): Promise<{ url: string; stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '--host', '127.0.0.1', '--port', '0', '--sync-interval', '0'], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /^(http:\/\/\S+)\n/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

interface Phase {
  name: string;
  clients: number;
  writes: number;
  searches: number;
  acked: number;
  stored: number;
  lost: number;
  fsck: boolean;
  wallMs: number;
  writesPerS: number;
  write: { p50: number; p99: number };
  search: { p50: number; p99: number } | null;
  /** the flooding token's requests by answer status (none: no flood in this run) */
  flood: Record<string, number> | null;
}

/** Runs `CLIENTS` clients made by `connect`, each `OPS` writes (and as many searches when `search`). */
async function drive(name: string, dir: string, connect: (i: number) => Promise<Client>, search: boolean): Promise<Phase> {
  const clients = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => connect(i)));
  const writeMs: number[] = [];
  const searchMs: number[] = [];
  const acked: string[] = [];
  const t0 = performance.now();
  await Promise.all(
    clients.map(async (client, c) => {
      for (let j = 0; j < OPS; j++) {
        checkDeadline();
        const title = `${name} client ${c} write ${j}`;
        let t = performance.now();
        // a refused request (429, 503) is a failed write, reported, not the end of the run
        const r = (await client
          .callTool({ name: 'axme_backlog_add', arguments: { title } })
          .catch((err: Error) => ({ isError: true, content: [{ text: err.message }] }))) as Call;
        writeMs.push(performance.now() - t);
        if (!r.isError) acked.push(title);
        else log(`  ${title}: ${r.content[0]?.text}`);
        if (search) {
          t = performance.now();
          const s = (await client
            .callTool({ name: 'axme_search_kb', arguments: { query: `client ${c} write` } })
            .catch((err: Error) => ({ isError: true, content: [{ text: err.message }] }))) as Call;
          searchMs.push(performance.now() - t);
          if (s.isError) log(`  search: ${s.content[0]?.text}`);
        }
      }
    }),
  );
  const wallMs = performance.now() - t0;
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  const { titles, fsck } = verify(dir);
  const lost = acked.filter((t) => !titles.has(t)).length;
  return {
    name,
    clients: CLIENTS,
    writes: CLIENTS * OPS,
    searches: search ? CLIENTS * OPS : 0,
    acked: acked.length,
    stored: acked.length - lost,
    lost,
    fsck,
    wallMs,
    writesPerS: (acked.length / wallMs) * 1000,
    write: { p50: pct(writeMs, 0.5), p99: pct(writeMs, 0.99) },
    search: search ? { p50: pct(searchMs, 0.5), p99: pct(searchMs, 0.99) } : null,
    flood: null,
  };
}

/**
 * One more token attacking the server until `done`: new sessions past its limit, batches of 100
 * calls, requests as fast as the loopback takes them (8 at a time). The statuses it got.
 */
async function flood(url: string, token: string, done: Promise<unknown>): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  let over = false;
  void done.finally(() => (over = true));
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  const init = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1' } },
  });
  const batch = JSON.stringify(
    Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'axme_status', arguments: {} } })),
  );
  const worker = async (w: number) => {
    for (let i = 0; !over && Date.now() < DEADLINE; i++) {
      const r = await fetch(url, { method: 'POST', headers, body: (i + w) % 3 === 0 ? batch : init }).catch(() => null);
      const key = r ? String(r.status) : 'error';
      statuses[key] = (statuses[key] ?? 0) + 1;
      await r?.arrayBuffer().catch(() => {});
    }
  };
  await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
  return statuses;
}

async function httpPhase(name: string, opts: { search: boolean; flood: boolean }): Promise<Phase> {
  const dir = freshRepo();
  const path = tokensPath({ cwd: dir, env });
  const tokens = Array.from({ length: CLIENTS }, (_, i) => addToken({ path, name: `client-${i}`, scope: 'write', now: new Date() }).token);
  const flooder = addToken({ path, name: 'flood', scope: 'read', now: new Date() }).token;
  const server = await startServer(dir);
  try {
    log(
      `${name}: ${CLIENTS} HTTP clients x ${OPS} writes${opts.search ? ` + ${OPS} searches` : ''}${opts.flood ? ', one more token flooding' : ''} on ${server.url}`,
    );
    let stopFlood = () => {};
    const flooded = opts.flood ? flood(server.url, flooder, new Promise<void>((resolve) => (stopFlood = resolve))) : null;
    const phase = await drive(
      name,
      dir,
      async (i) => {
        const client = new McpClient({ name: 'bench', version: '1' });
        await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${tokens[i]}` } } }));
        return client;
      },
      opts.search,
    ).finally(() => stopFlood());
    return { ...phase, flood: flooded ? await flooded : null };
  } finally {
    const code = await server.stop();
    if (code !== 0) log(`  the server exited ${code}`);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function stdioPhase(): Promise<Phase> {
  const dir = freshRepo();
  try {
    log(`stdio fleet: ${CLIENTS} axme serve processes x ${OPS} writes on one repository`);
    return await drive(
      'stdio fleet',
      dir,
      async (i) => {
        const client = new McpClient({ name: 'bench', version: '1' });
        await client.connect(
          new StdioClientTransport({
            command: process.execPath,
            args: [CLI, 'serve'],
            cwd: dir,
            env: { ...env, AXME_SESSION: `bench-stdio-${i}` } as Record<string, string>,
            stderr: 'ignore',
          }),
        );
        return client;
      },
      false,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const phases: Phase[] = [];
phases.push(await httpPhase('http load', { search: true, flood: false }));
phases.push(await httpPhase('http writes', { search: false, flood: false }));
phases.push(await httpPhase('http writes + flood', { search: false, flood: true }));
phases.push(await stdioPhase());

const m = machine();
const ms = (x: number) => (Number.isNaN(x) ? '-' : fmt(x));
process.stdout.write(`Team server benchmark on ${m.cores} x ${m.cpu}, node ${m.node} (loopback; ${CLIENTS} clients x ${OPS} ops)\n\n`);
process.stdout.write(
  '| run | clients | writes | searches | stored / acknowledged | lost | git fsck | wall s | writes/s | write p50 ms | write p99 ms | search p50 ms | search p99 ms |\n|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|\n',
);
for (const p of phases) {
  process.stdout.write(
    `| ${p.name} | ${p.clients} | ${p.writes} | ${p.searches} | ${p.stored}/${p.acked} | ${p.lost} | ${p.fsck ? 'clean' : 'ERRORS'} | ${(p.wallMs / 1000).toFixed(1)} | ${p.writesPerS.toFixed(1)} | ${ms(p.write.p50)} | ${ms(p.write.p99)} | ${p.search ? ms(p.search.p50) : '-'} | ${p.search ? ms(p.search.p99) : '-'} |\n`,
  );
}
const ratio = phases[1]!.writesPerS / phases[3]!.writesPerS;
process.stdout.write(
  `\nHTTP writes/s vs the stdio fleet's: ${ratio.toFixed(2)}x; with one more token flooding: ${(phases[2]!.writesPerS / phases[1]!.writesPerS).toFixed(2)}x the writes/s without\n`,
);
const flooded = phases[2]!.flood ?? {};
process.stdout.write(
  `The flooding token's requests by status: ${
    Object.entries(flooded)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ') || 'none'
  }\n`,
);
mkdirSync(OUT, { recursive: true });
const file = join(OUT, `serve-http-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, JSON.stringify({ machine: m, date: new Date().toISOString(), clients: CLIENTS, ops: OPS, phases, httpVsStdio: ratio }, null, 2));
log(`results written to ${file}`);
// every acknowledged write kept; over HTTP none refused either: the flood cost the others nothing but time
if (phases.some((p) => p.lost > 0 || !p.fsck || (p.name.startsWith('http') && p.acked < p.writes))) process.exitCode = 1;

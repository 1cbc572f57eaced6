// What a person waits on, and what is started, when `search.embeddings` points at a dead endpoint:
// SEARCHES `axme search --json` back to back (the built CLI, each its own process, as an agent's
// shell tool runs it) on a store whose items have no vector yet, for each kind of dead endpoint —
// `refused` (a port on 127.0.0.1 nothing listens on) and `silent` (a server on 127.0.0.1 that
// accepts the connection and never answers: a host that times out) — and each build given. Counts
// the detached vectors workers started (processes whose environment holds AXME_VECTORS_AHEAD, in
// /proc every LOOK_MS), the requests the silent server was sent, and each search's wall time;
// then waits for the workers to end. Markdown on stdout, progress on stderr.
//
//   npm run build && node --import tsx bench/dead-endpoint.bench.ts [--searches 20] [--items 200] [--timeout-ms 1000] [--before DIST[,DIST…]]
//
// --timeout-ms: `search.embeddings.timeout_ms` (each request's bound in the run making the items'
// vectors; the product's default is 30,000, with which a silent endpoint is given up on after
// 30 + 60 + 120 s). --before: other builds' dist/axme.cjs (e.g. main's).
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { argOf, wholeArg } from './args.ts';
import { machine } from './harness.ts';
import { benchEnv, CLI, fmt, seededRepo, stats } from './lib.ts';

const argv = process.argv.slice(2);
const SCRIPT = 'dead-endpoint';
const SEARCHES = wholeArg(SCRIPT, argv, 'searches', 20);
const ITEMS = wholeArg(SCRIPT, argv, 'items', 200);
const TIMEOUT_MS = wholeArg(SCRIPT, argv, 'timeout-ms', 1000);
const before = argOf(argv, 'before', '').split(',').filter(Boolean);
const run$ = promisify(execFile);
const log = (s: string) => process.stderr.write(`${s}\n`);
/** How often /proc is read for workers. */
const LOOK_MS = 10;
/** How long the workers are waited for once the searches are over. */
const WORKERS_MAX_MS = 120_000;

type Dead = 'refused' | 'silent';

/** A dead endpoint on 127.0.0.1: its URL, the connections it was sent, and how to close it. */
async function deadEndpoint(kind: Dead): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  const sockets: Socket[] = [];
  const server = createServer((s) => {
    sockets.push(s);
    s.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  // refused: the port was just listened on and closed, so nothing listens on it
  if (kind === 'refused') await close();
  return { url: `http://127.0.0.1:${port}/v1/embeddings`, connections: () => (kind === 'refused' ? 0 : sockets.length), close };
}

/** The pids of the vectors workers running in `dir` now. */
function workersIn(dir: string): number[] {
  const out: number[] = [];
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      if (!readFileSync(`/proc/${p}/environ`, 'latin1').includes('AXME_VECTORS_AHEAD=1')) continue;
      const cwd = execFileSync('readlink', [`/proc/${p}/cwd`], { encoding: 'utf8' }).trim();
      if (cwd === dir) out.push(Number(p));
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

interface Run {
  waits: number[];
  fused: number;
  workers: number;
  connections: number;
  reasons: Set<string>;
}

/** SEARCHES searches with `cli` on a fresh store whose endpoint is dead in the way `kind` says. */
async function runOne(cli: string, kind: Dead): Promise<Run> {
  const dir = seededRepo(ITEMS);
  const endpoint = await deadEndpoint(kind);
  mkdirSync(join(dir, '.git', 'axme'), { recursive: true });
  writeFileSync(join(dir, '.git', 'axme', 'config.yaml'), `search:\n  embeddings:\n    url: ${endpoint.url}\n    model: dead\n    timeout_ms: ${TIMEOUT_MS}\n`);
  const env = benchEnv({ AXME_SEARCH_MODEL: 'off', XDG_CACHE_HOME: join(dir, '.bench-cache'), XDG_CONFIG_HOME: join(dir, '.bench-config') });
  const seen = new Set<number>();
  let looking = true;
  const look = (async () => {
    while (looking) {
      for (const pid of workersIn(dir)) seen.add(pid);
      await sleep(LOOK_MS);
    }
  })();
  const run: Run = { waits: [], fused: 0, workers: 0, connections: 0, reasons: new Set() };
  try {
    for (let i = 0; i < SEARCHES; i++) {
      const t = performance.now();
      // not a synchronous spawn: the silent endpoint is served by this process's event loop
      const { stdout: out } = await run$(process.execPath, [cli, 'search', '--json', `component ${i % 97} approach`], { cwd: dir, env, encoding: 'utf8' });
      run.waits.push(performance.now() - t);
      const meaning = (JSON.parse(out) as { meaning?: { fused: boolean; reason?: string } }).meaning;
      if (meaning?.fused) run.fused++;
      if (meaning?.reason) run.reasons.add(meaning.reason.replace(/\d+/g, 'N').replace(/http:\/\/\S+/, 'URL'));
    }
    const end = performance.now() + WORKERS_MAX_MS;
    while (workersIn(dir).length && performance.now() < end) await sleep(LOOK_MS);
  } finally {
    looking = false;
    await look;
    run.workers = seen.size;
    run.connections = endpoint.connections();
    await endpoint.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return run;
}

const builds = [{ label: 'this build', cli: CLI }, ...before.map((cli) => ({ label: cli, cli }))];
const m = machine();
const lines = [
  `Dead embeddings endpoint: ${SEARCHES} \`axme search --json\` back to back, ${ITEMS} items without a vector, timeout_ms ${TIMEOUT_MS}; ${m.cores} x ${m.cpu}, node ${m.node}`,
  '',
  '| build | endpoint | wait a search, median | max | total | fused | vectors workers started | connections to the endpoint |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
];
const reasons: string[] = [];
for (const kind of ['refused', 'silent'] as const)
  for (const b of builds) {
    log(`${b.label}, ${kind}...`);
    const r = await runOne(b.cli, kind);
    const s = stats(r.waits);
    const total = r.waits.reduce((a, x) => a + x, 0);
    lines.push(
      `| ${b.label} | ${kind} | ${fmt(s.median)} ms | ${fmt(Math.max(...r.waits))} ms | ${fmt(total)} ms | ${r.fused} | ${r.workers} | ${kind === 'refused' ? '-' : r.connections} |`,
    );
    for (const reason of r.reasons) reasons.push(`- ${b.label}, ${kind}: ${reason}`);
  }
process.stdout.write(`${[...lines, '', 'What the answers said (numbers as N):', '', ...new Set(reasons)].join('\n')}\n`);

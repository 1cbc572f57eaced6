// The page (issue 24): first paint of `axme ui`'s decisions view on a store of N decisions, in
// headless Chromium (the system's, driven by playwright-core), side by side with
// `axme decision list --json` on the same store, in one run. Markdown table on stdout, JSON in
// bench/results/ui-<date>.json, progress on stderr. `--history each` writes the store as a team
// does: one commit per decision, by two people in turn, so the page's authorship (one `git log` for
// the store) walks a history as long as the store (the seed is otherwise one commit).
//
//   node --import tsx bench/ui.bench.ts [--items 10000] [--reps 7] [--history one|each] [--out DIR]
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumPath } from '../test/ui/fixture.ts';
import { machine } from './harness.ts';
import { argOf, benchEnv, CLI, fmt, type Stats, seededRepo, stats, timeProcess } from './lib.ts';

const argv = process.argv.slice(2);
const usage = (message: string): never => {
  process.stderr.write(`ui.bench: ${message}\n`);
  process.exit(2);
};
const KNOWN = new Set(['--items', '--reps', '--history', '--out']);
for (let i = 0; i < argv.length; i += 2)
  if (!KNOWN.has(argv[i]!)) usage(`unknown option ${argv[i]} (options: --items N, --reps N, --history one|each, --out DIR)`);
const history = argOf(argv, 'history', 'one');
if (history !== 'one' && history !== 'each') usage(`--history takes one (the seed's single commit) or each (a commit per decision); got ${history}`);
const items = Number(argOf(argv, 'items', '10000'));
if (!Number.isInteger(items) || items < 1) usage(`--items takes a whole number of decisions, at least 1; got ${argOf(argv, 'items', '')}`);
const reps = Number(argOf(argv, 'reps', '7'));
if (!Number.isInteger(reps) || reps < 1) usage(`--reps takes a whole number of rounds, at least 1; got ${argOf(argv, 'reps', '')}`);
const out = argOf(argv, 'out', join(import.meta.dirname, 'results'));
const browserPath = chromiumPath() ?? usage('no chromium found (apt-get install -y chromium, or set CHROMIUM_PATH)');
const log = (s: string) => process.stderr.write(`${s}\n`);

log(`seeding ${items} decisions`);
const dir = seededRepo(items);
if (history === 'each') commitEach(dir);
const env = benchEnv();
try {
  // the CLI: a cold process per run, as a script or an agent runs it
  log('axme decision list --json');
  await timeProcess(process.execPath, [CLI, 'decision', 'list', '--json'], { cwd: dir, env }); // fills the derived cache, as the page's start does
  const list: number[] = [];
  for (let i = 0; i < reps; i++) list.push(await timeProcess(process.execPath, [CLI, 'decision', 'list', '--json'], { cwd: dir, env }));

  log('axme ui: start');
  const t0 = performance.now();
  const child = spawn(process.execPath, [CLI, 'ui', '--port', '0'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      text += d;
      if (text.includes('\n')) resolve(text.split('\n')[0]!.trim().replace(/\/$/, ''));
    });
    child.once('exit', (code) => reject(new Error(`axme ui exited ${code}`)));
  });
  const start = performance.now() - t0;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
  const fcp: number[] = [];
  const response: number[] = [];
  const server: number[] = [];
  const loaded: number[] = [];
  let rows = 0;
  let bytes = 0;
  try {
    for (let i = 0; i <= reps; i++) {
      const page = await browser.newPage();
      const res = await page.goto(`${url}/decisions`, { waitUntil: 'load' });
      // run in the page (a string: this file is type-checked without the DOM's types)
      const m = (await page.evaluate(`(async () => {
        // first contentful paint may be reported just after load
        for (let k = 0; k < 50 && !performance.getEntriesByName('first-contentful-paint').length; k++) await new Promise((r) => setTimeout(r, 20));
        const nav = performance.getEntriesByType('navigation')[0];
        const paint = performance.getEntriesByName('first-contentful-paint')[0];
        return { fcp: paint ? paint.startTime : NaN, response: nav.responseEnd - nav.requestStart, load: nav.loadEventEnd, rows: document.querySelectorAll('main tbody tr').length, bytes: nav.transferSize || nav.encodedBodySize };
      })()`)) as { fcp: number; response: number; load: number; rows: number; bytes: number };
      const timing = /app;dur=([\d.]+)/.exec(res?.headers()['server-timing'] ?? '');
      await page.close();
      if (i === 0) continue; // the browser's own first start is not the page's
      fcp.push(m.fcp);
      response.push(m.response);
      loaded.push(m.load);
      if (timing) server.push(Number(timing[1]));
      rows = m.rows;
      bytes = m.bytes;
    }
  } finally {
    await browser.close();
    child.kill('SIGTERM');
  }
  const s = { list: stats(list), fcp: stats(fcp), response: stats(response), server: stats(server), loaded: stats(loaded) };
  const m = machine();
  const line = (name: string, st: Stats, note: string) => `| ${name} | ${fmt(st.median)} | ${fmt(st.p10)} | ${fmt(st.p90)} | ${note} |`;
  console.log(
    `Page: ${items} decisions (history: ${history === 'each' ? `a commit per decision, ${items + 1} commits, two writers` : 'one commit'}); ${m.cores} x ${m.cpu}, ${m.memoryGiB} GiB, node ${m.node}, git ${m.git}; ${reps} rounds, Chromium headless (${browserPath})\n`,
  );
  console.log('| what | median ms | p10 | p90 | note |');
  console.log('| --- | ---: | ---: | ---: | --- |');
  console.log(
    line(
      'decisions view: first contentful paint',
      s.fcp,
      `navigation start to FCP, ${rows} rows (page 1 of ${Math.ceil(items / 200)}), ${Math.round(bytes / 1024)} KB`,
    ),
  );
  console.log(line('decisions view: HTTP response', s.response, 'request sent to last byte, as Chromium saw it'));
  console.log(line('decisions view: server work', s.server, 'Server-Timing: read, render, write'));
  console.log(line('decisions view: load event', s.loaded, 'navigation start to load (CSS and script included)'));
  console.log(line('`axme decision list --json`', s.list, 'a cold process, all decisions as JSON'));
  console.log(`\naxme ui started (URL printed, store read once) in ${fmt(start)} ms`);
  mkdirSync(out, { recursive: true });
  const file = join(out, `ui-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), machine: m, items, history, reps, browser: browserPath, startMs: start, rows, bytes, results: s, samples: { list, fcp, response, server, loaded } }, null, 2)}\n`,
  );
  log(`results: ${file}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Rewrites the seeded store's history as a team writes it: the settings in a first commit, then one
 * commit per decision, Ann's and Bob's in turn (git fast-import, the blobs reused: the tree at the
 * tip is the seed's, so every cache keyed by content is unchanged).
 */
function commitEach(repo: string): void {
  const listing = execFileSync('git', ['ls-tree', '-r', 'refs/memory/main'], { cwd: repo, encoding: 'utf8', maxBuffer: 1 << 28 });
  const files = listing
    .trim()
    .split('\n')
    .map((l) => {
      const [meta = '', path = ''] = l.split('\t');
      return { blob: meta.split(' ')[2]!, path };
    });
  const [decisions, rest] = [files.filter((f) => f.path.startsWith('decisions/')), files.filter((f) => !f.path.startsWith('decisions/'))];
  let stream = '';
  let t = 1_767_225_600; // 2026-01-01
  const commit = (who: string, subject: string, changed: typeof files) => {
    const msg = `${subject}\n`;
    stream += `commit refs/memory/main\ncommitter ${who} ${t++} +0000\ndata ${Buffer.byteLength(msg)}\n${msg}`;
    for (const f of changed) stream += `M 100644 ${f.blob} ${f.path}\n`;
    stream += '\n';
  };
  stream += 'reset refs/memory/main\n';
  commit('Ann Archer <ann@example.com>', 'init', rest);
  decisions.forEach((f, i) => commit(i % 2 ? 'Bob Baker <bob@example.com>' : 'Ann Archer <ann@example.com>', `decision: add ${f.path}`, [f]));
  execFileSync('git', ['fast-import', '--quiet', '--force'], { cwd: repo, input: stream, maxBuffer: 1 << 28 });
}

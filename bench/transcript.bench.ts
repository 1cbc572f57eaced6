// Transcripts (issue 23): a generated Claude Code transcript (default 20 MB: prompts, replies,
// thinking, tool calls, tool outputs of 100 KB–5 MB, a compaction, sidechain lines, a malformed
// line) read with the streaming reader and rendered into 150k-character chunks with redaction,
// side by side with a bare `readline` + `JSON.parse` loop over the same file. Each side runs in
// its own child process (so peak RSS is its own), A and B alternating round by round. Goal: A/B
// ≤ 1.5, A's peak RSS ≤ 150 MB. Markdown table on stdout, JSON in
// bench/results/transcript-<date>.json, progress on stderr.
//
//   node --import tsx bench/transcript.bench.ts [--mb 20] [--reps 7] [--out DIR]
//
// The children run an esbuild bundle of this file (as `dist/axme.cjs` is one), not tsx: the
// loader alone would add ~40 MB to each side's RSS. Only this file's static imports (node and
// src/transcript) are in that bundle; the parent's helpers are imported dynamically in `main`.
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { claudeCodeReader } from '../src/transcript/claude-code.ts';
import { renderTranscript } from '../src/transcript/render.ts';
import { argOf } from './args.ts';
import type { PairResult } from './harness.ts';
import type { Stats } from './lib.ts';

const BUDGET = 150_000;
const ROOT = join(import.meta.dirname, '..');

/** What one child reports on its stdout, as one JSON line. */
interface ChildReport {
  side: 'axme' | 'baseline';
  /** the work itself, from opening the file to the last chunk (node start-up excluded) */
  ms: number;
  /** CPU time (user + system) of the whole child: steadier than wall time on a shared machine */
  cpu_ms: number;
  /** peak resident set of the whole child process */
  rss_mb: number;
  facts: Record<string, number>;
}

/** A: the streaming reader into the renderer (150k-character chunks, redaction always on). */
async function axmeSide(path: string): Promise<ChildReport['facts']> {
  const stream = claudeCodeReader.read({ path });
  const r = await renderTranscript({ entries: stream, budget: BUDGET });
  const chars = r.chunks.reduce((n, c) => n + c.text.length, 0);
  const s = stream.stats;
  return {
    lines: s.lines,
    entries: s.entries,
    sidechain_entries: s.sidechain_entries,
    malformed: s.malformed,
    chunks: r.stats.chunks,
    rendered_chars: chars,
    trimmed: r.stats.trimmed,
    redactions: r.stats.redactions,
    max_buffer_bytes: s.max_buffer_bytes,
  };
}

/** B: what anyone would write first: readline over a read stream, JSON.parse each line. */
async function baselineSide(path: string): Promise<ChildReport['facts']> {
  const rl = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  let [lines, parsed, malformed] = [0, 0, 0];
  for await (const line of rl) {
    if (!line) continue;
    lines++;
    try {
      JSON.parse(line);
      parsed++;
    } catch {
      malformed++;
    }
  }
  return { lines, parsed, malformed };
}

/** The child's whole life: one side over the file, its report on stdout. */
export async function runChild(argv: string[]): Promise<void> {
  const [side, path] = argv;
  if ((side !== 'axme' && side !== 'baseline') || !path) throw new Error(`child: expected "axme|baseline <path>", got ${argv.join(' ')}`);
  const t0 = performance.now();
  const facts = side === 'axme' ? await axmeSide(path) : await baselineSide(path);
  const ms = performance.now() - t0;
  const usage = process.resourceUsage();
  const report: ChildReport = { side, ms, cpu_ms: (usage.userCPUTime + usage.systemCPUTime) / 1000, rss_mb: usage.maxRSS / 1024, facts };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

// ---- the transcript ----------------------------------------------------------------------------

type Builders = typeof import('../test/transcript/fixture.ts');

/** A small deterministic PRNG: the same transcript every run. */
function prng(seed: number): (n: number) => number {
  return (n) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >>> 16) % n;
}

const WORDS =
  'the a test date timezone function returns value file module build error fix handler request cache index store config parse render chunk budget token line offset stream buffer commit branch merge review'.split(
    ' ',
  );
const CODE = [
  '  const value = parse(input, { strict: true });',
  '  if (!value) return null;',
  '  for (const item of items) total += item.size;',
  'export function render(entry: Entry): string {',
  '}',
  '  // keep the offset: a resumed read starts there',
  '  return `<${tag}>${body}</${tag}>`;',
  "import { join } from 'node:path';",
];
const LOG = [
  '✓ parses a date in UTC (3 ms)',
  '✗ renders the summary (12 ms)',
  '    at Object.<anonymous> (src/date.test.ts:42:7)',
  '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
  'npm warn deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported',
  '[build] src/render.ts → dist/render.js (41 ms)',
];

/**
 * Writes a Claude Code transcript of about `bytes` bytes to `path` and returns its line count.
 * Per turn: a prompt now and then, the assistant's thinking, text and one tool call, its result
 * (mostly 0.5–8 KB; a few of 100 KB–5 MB spread through the file, fewer in a small transcript);
 * now and then a subagent (sidechain lines), a `.env` read with credentials in it, a
 * `file-history-snapshot` line; one compaction at 60% and one malformed line at 30%.
 */
export async function writeTranscript(path: string, bytes: number, f: Builders): Promise<number> {
  const rand = prng(23);
  const prose = (n: number) => Array.from({ length: n }, () => WORDS[rand(WORDS.length)]).join(' ') + '.';
  const numbered = (lines: string[], n: number) => Array.from({ length: n }, (_, i) => `${String(i + 1).padStart(6)}→${lines[rand(lines.length)]}`).join('\n');
  const sized = (lines: string[], chars: number) => numbered(lines, Math.ceil(chars / 50));
  const large = [100_000, 300_000, 1_000_000, 5_000_000].filter((n) => n <= bytes / 4);
  if (!large.length) large.push(Math.floor(bytes / 10));
  // the large outputs at 1/5, 2/5, … of the rest, so the file ends near `bytes`
  const [spread, rest] = [large.length + 1, bytes - large.reduce((n, l) => n + l, 0)];
  let largeWritten = 0;
  const out = createWriteStream(path);
  let [written, count, turn, last] = [0, 0, 0, null as string | null];
  let [compacted, broken] = [false, false];
  const emit = async (line: string) => {
    written += Buffer.byteLength(line) + 1;
    count++;
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  };
  while (written < bytes) {
    turn++;
    const t = `t${turn}`;
    if (turn % 8 === 1) {
      await emit(f.userLine(`p${turn}`, last, `${prose(20 + rand(150))} See src/module${turn % 40}.ts.`));
      last = `p${turn}`;
    }
    const big = large.length && written - largeWritten >= (rest * (spread - large.length)) / spread ? large.shift() : undefined;
    largeWritten += big ?? 0;
    const secret = turn % 25 === 0;
    const tool = big
      ? turn % 2
        ? 'Bash'
        : 'Read'
      : secret
        ? 'Read'
        : (['Read', 'Bash', 'Read', 'Edit', 'Bash', 'Grep', 'Read', 'Edit', 'Bash', 'Task'] as const)[rand(10)]!;
    const task = prose(60);
    const input =
      tool === 'Bash'
        ? { command: `npm test -- module${turn % 40}`, description: 'Run the tests' }
        : tool === 'Edit'
          ? {
              file_path: `/home/ann/app/src/module${turn % 40}.ts`,
              old_string: CODE[rand(CODE.length)],
              new_string: `${CODE[rand(CODE.length)]}\n${CODE[rand(CODE.length)]}`,
            }
          : tool === 'Grep'
            ? { pattern: 'render\\(', path: '/home/ann/app/src', output_mode: 'content' }
            : tool === 'Task'
              ? { description: 'Find the callers', prompt: task, subagent_type: 'general-purpose' }
              : { file_path: secret ? '/home/ann/app/.env' : `/home/ann/app/src/module${turn % 40}.ts` };
    const thinking = { type: 'thinking', thinking: prose(40 + rand(400)), signature: 'EqQBCkYIBxgCKkB'.repeat(20) };
    await emit(f.assistantLine(`a${turn}`, last, [thinking, { type: 'text', text: prose(10 + rand(80)) }, f.toolUse(t, tool, input)]));
    if (tool === 'Task') {
      await emit(f.userLine(`s${turn}u`, null, task, { isSidechain: true }));
      await emit(f.assistantLine(`s${turn}a`, `s${turn}u`, [f.toolUse(`${t}s`, 'Grep', { pattern: 'render' })], { isSidechain: true }));
      await emit(f.userLine(`s${turn}r`, `s${turn}a`, [f.toolResult(`${t}s`, sized(CODE, 2000))], { isSidechain: true }));
      await emit(f.assistantLine(`s${turn}b`, `s${turn}r`, [{ type: 'text', text: prose(80) }], { isSidechain: true }));
    }
    const result = big
      ? sized(tool === 'Bash' ? LOG : CODE, big)
      : secret
        ? `     1→NODE_ENV=production\n     2→DB_PASSWORD=Tr0ub4dor-and-3\n     3→GITHUB_TOKEN=ghp_${'aB3dE5fG7h'.repeat(4)}\n     4→PORT=8080`
        : tool === 'Edit'
          ? `The file /home/ann/app/src/module${turn % 40}.ts has been updated.`
          : tool === 'Task'
            ? [{ type: 'text', text: prose(150) }]
            : sized(tool === 'Bash' ? LOG : CODE, 500 + rand(7500));
    await emit(
      f.userLine(`r${turn}`, `a${turn}`, [f.toolResult(t, result, tool === 'Bash' && turn % 3 === 0)], {
        toolUseResult: { stdout: typeof result === 'string' ? result.slice(0, 2000) : '' },
      }),
    );
    last = `r${turn}`;
    if (turn % 30 === 0)
      await emit(JSON.stringify({ type: 'file-history-snapshot', messageId: `a${turn}`, snapshot: { trackedFileBackups: {} }, isSnapshotUpdate: false }));
    if (!broken && written >= bytes * 0.3) {
      broken = true;
      await emit('{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t0","content":"cut');
    }
    if (!compacted && written >= bytes * 0.6) {
      compacted = true;
      await emit(
        JSON.stringify({
          parentUuid: null,
          logicalParentUuid: last,
          isSidechain: false,
          type: 'system',
          subtype: 'compact_boundary',
          content: 'Conversation compacted',
          compactMetadata: { trigger: 'auto', preTokens: 167_000 },
          uuid: 'c1',
          timestamp: '2026-03-01T12:00:00.000Z',
        }),
      );
      await emit(
        f.userLine('cs', 'c1', `This session is being continued from a previous conversation that ran out of context. Summary: ${prose(600)}`, {
          isCompactSummary: true,
        }),
      );
      last = 'cs';
    }
  }
  out.end();
  await once(out, 'finish');
  return count;
}

// ---- the parent --------------------------------------------------------------------------------

const exec = promisify(execFile);

/** One child: a side over the file, in a fresh `node` without a loader. */
async function child(bundle: string, side: ChildReport['side'], path: string): Promise<ChildReport> {
  const { stdout } = await exec(process.execPath, [bundle, side, path], { cwd: ROOT, maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as ChildReport;
}

/** This file's child half as one ESM file (node and src/transcript only), like the shipped bundle. */
async function bundleChild(dir: string): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = join(dir, 'transcript-child.mjs');
  await build({
    stdin: {
      contents: "import { runChild } from './bench/transcript.bench.ts';\nawait runChild(process.argv.slice(2));\n",
      resolveDir: ROOT,
      loader: 'ts',
      sourcefile: 'child-entry.ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'silent',
    // the parent's half is dead code in the child: its dynamic imports stay out of the bundle
    define: { 'process.env.AXME_TRANSCRIPT_BENCH_CHILD': '"1"' },
    external: ['esbuild', './harness.ts', './lib.ts', '../test/*'],
  });
  return outfile;
}

type Lib = typeof import('./lib.ts');
type Side = ChildReport['side'];

/** The options, checked: a bad one exits 2 with what is wrong. */
function parseOptions(argv: string[]): { mb: number; reps: number; out: string } {
  const usage = (message: string): never => {
    process.stderr.write(`transcript.bench: ${message}\nusage: node --import tsx bench/transcript.bench.ts [--mb N] [--reps N] [--out DIR]\n`);
    process.exit(2);
  };
  const KNOWN = new Set(['mb', 'reps', 'out']);
  for (let i = 0; i < argv.length; i += 2)
    if (!argv[i]!.startsWith('--') || !KNOWN.has(argv[i]!.slice(2)) || argv[i + 1] === undefined) usage(`unknown option or missing value: ${argv[i]}`);
  const mb = Number(argOf(argv, 'mb', '20'));
  if (!Number.isFinite(mb) || mb < 0.1 || mb > 2000) usage(`--mb takes a size in MB between 0.1 and 2000; got ${argOf(argv, 'mb', '')}`);
  const reps = Number(argOf(argv, 'reps', '7'));
  if (!Number.isInteger(reps) || reps < 1) usage(`--reps takes a whole number of rounds, at least 1; got ${argOf(argv, 'reps', '')}`);
  return { mb, reps, out: argOf(argv, 'out', join(import.meta.dirname, 'results')) };
}

/** The Markdown: one row per side (wall, CPU, peak RSS), the ratio per round against the goal, the counts. */
function table(pair: PairResult, reports: Record<Side, ChildReport[]>, { fmt, stats }: Lib): string {
  const range = (s: Stats) => `${fmt(s.median)} (${fmt(s.p10)}–${fmt(s.p90)})`;
  const peak = (side: Side) => Math.max(...reports[side].map((r) => r.rss_mb));
  const row = (side: Side, name: string, what: string, wall: Stats) =>
    `| ${name} | ${what} | ${range(wall)} | ${fmt(stats(reports[side].map((r) => r.cpu_ms)).median)} | ${stats(reports[side].map((r) => r.rss_mb)).median.toFixed(0)} (max ${peak(side).toFixed(0)}) |`;
  const r = pair.ratio;
  const facts = (side: Side) =>
    Object.entries(reports[side][0]!.facts)
      .map(([k, v]) => `${k} ${v}`)
      .join('; ');
  return [
    '| side | what | wall ms, median (p10–p90) | child CPU ms, median | peak RSS MB, median (max) |',
    '| --- | --- | ---: | ---: | ---: |',
    row('axme', 'A: axme', `\`claudeCodeReader\` stream → \`renderTranscript\` (${BUDGET.toLocaleString('en')}-char chunks, redaction)`, pair.a.stats),
    row('baseline', 'B: baseline', '`readline` + `JSON.parse` per line', pair.b.stats),
    '',
    `A/B per round, median (p10–p90): **${r.median.toFixed(2)}** (${r.p10.toFixed(2)}–${r.p90.toFixed(2)}); goal ≤ 1.5: ${r.median <= 1.5 ? 'met' : 'missed'}. A's peak RSS ${peak('axme').toFixed(0)} MB; goal ≤ 150: ${peak('axme') <= 150 ? 'met' : 'missed'}.`,
    '',
    `- A: ${facts('axme')}`,
    `- B: ${facts('baseline')}`,
    '',
  ].join('\n');
}

async function main(argv: string[]): Promise<void> {
  // the options first: a bad one exits 2 before the helpers are loaded
  const { mb, reps, out } = parseOptions(argv);
  const lib = await import('./lib.ts');
  const { comparePair, machine } = await import('./harness.ts');
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const dir = mkdtempSync(join(tmpdir(), 'axme-bench-transcript-'));
  const started = Date.now();
  try {
    const path = join(dir, 'session.jsonl');
    log(`writing a ${mb} MB transcript`);
    const lines = await writeTranscript(path, Math.round(mb * 2 ** 20), await import('../test/transcript/fixture.ts'));
    const size = statSync(path).size;
    const bundle = await bundleChild(dir);
    const reports: Record<Side, ChildReport[]> = { axme: [], baseline: [] };
    const side = (name: Side, label: string) => ({
      label,
      run: async (round: number) => {
        const r = await child(bundle, name, path);
        if (round >= 0) reports[name].push(r);
        log(`  ${round < 0 ? 'warm-up' : `round ${round + 1}/${reps}`} ${name}: ${lib.fmt(r.ms)} ms, ${r.rss_mb.toFixed(0)} MB`);
        return r.ms;
      },
    });
    log(`${lines} lines, ${(size / 2 ** 20).toFixed(1)} MB; ${reps} rounds, A and B alternating, each in its own process`);
    const pair = await comparePair({
      pair: 'transcript',
      measure: 'parse + render',
      size: lines,
      reps,
      warmup: 1,
      a: side('axme', 'axme: stream + render'),
      b: side('baseline', 'readline + JSON.parse'),
    });
    const m = machine();
    console.log(
      `Transcripts: ${(size / 2 ** 20).toFixed(1)} MB, ${lines} lines; ${m.cores} x ${m.cpu}, ${m.memoryGiB} GiB, node ${m.node}; ${reps} rounds, A and B alternating, each side in its own process\n`,
    );
    console.log(table(pair, reports, lib));
    mkdirSync(out, { recursive: true });
    const file = join(out, `transcript-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    const rss = (s: Side) => lib.stats(reports[s].map((r) => r.rss_mb));
    const json = {
      date: new Date().toISOString(),
      machine: m,
      mb,
      bytes: size,
      lines,
      reps,
      budget: BUDGET,
      seconds: Math.round((Date.now() - started) / 1000),
      goal: { ratio: 1.5, rss_mb: 150 },
      result: pair,
      rss_mb: { axme: rss('axme'), baseline: rss('baseline') },
      reports,
    };
    writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
    log(`results: ${file}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.env.AXME_TRANSCRIPT_BENCH_CHILD !== '1') await main(process.argv.slice(2));

// Staleness (issue 22): `axme verify` over N anchored items in a repository with M code commits,
// against the naive loop (one `git log <learned_at>..HEAD -- <anchor>` per anchor of every item).
// The code history and the store are written with git fast-import; learned_at is spread over the
// whole history, anchors are files (70%), folders, globs, path#symbol and dep:<name>. Markdown
// table on stdout, JSON in bench/results/verify-<date>.json, progress on stderr. With --sessions N
// (default 50; 0: none), each item was saved by one of N agent sessions and every code commit has a
// note naming one of them (refs/notes/axme, as the post-commit hook writes it): verify then reads
// whose each commit is (a session's own commits after its save carried the item out). --naive no
// leaves out the naive loop (about a minute).
//
//   node --import tsx bench/verify.bench.ts [--commits 10000] [--items 1000] [--files 2000] [--reps 5] [--sessions 50] [--naive yes|no] [--out DIR]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argOf } from './args.ts';
import type { Stats } from './lib.ts';

const argv = process.argv.slice(2);
const usage = (message: string): never => {
  process.stderr.write(
    `verify.bench: ${message}\nusage: node --import tsx bench/verify.bench.ts [--commits N] [--items N] [--files N] [--reps N] [--sessions N] [--naive yes|no] [--out DIR]\n`,
  );
  process.exit(2);
};
const KNOWN = new Set(['commits', 'items', 'files', 'reps', 'sessions', 'naive', 'out']);
for (let i = 0; i < argv.length; i += 2)
  if (!argv[i]!.startsWith('--') || !KNOWN.has(argv[i]!.slice(2)) || argv[i + 1] === undefined) usage(`unknown option or missing value: ${argv[i]}`);
const whole = (name: string, d: number, min = 1): number => {
  const v = Number(argOf(argv, name, String(d)));
  return Number.isInteger(v) && v >= min ? v : usage(`--${name} takes a whole number, at least ${min}; got ${argOf(argv, name, '')}`);
};
const COMMITS = whole('commits', 10_000, 2);
const ITEMS = whole('items', 1000);
const FILES = whole('files', 2000, 10);
const REPS = whole('reps', 5);
const SESSIONS = whole('sessions', 50, 0);
const NAIVE = argOf(argv, 'naive', 'yes');
if (NAIVE !== 'yes' && NAIVE !== 'no') usage(`--naive takes yes or no; got ${NAIVE}`);
/** The session that made code commit `c` (1-based), or saved item `n`: one of SESSIONS. */
const sessionOf = (k: number) => `bench-s${k % SESSIONS}`;
const out = argOf(argv, 'out', join(import.meta.dirname, 'results'));
const log = (s: string) => process.stderr.write(`${s}\n`);
// what is measured is loaded once the options are good: a usage error costs only Node's start
const { closeKnowledgeBase, openKnowledgeBase } = await import('../src/knowledge/core/kb.ts');
const { verifyKnowledge } = await import('../src/knowledge/stale/verify-knowledge.ts');
const { parseAnchor } = await import('../src/model/anchor.ts');
const { FORMAT_VERSION } = await import('../src/model/config.ts');
const { Decision, decisionSpec } = await import('../src/model/decision.ts');
const { stringifyYaml } = await import('../src/model/frontmatter.ts');
const { formatId } = await import('../src/model/ids.ts');
const { encodeItem } = await import('../src/model/kind.ts');
const { DEFAULT_RULES } = await import('../src/model/safety-rules.ts');
const { machine } = await import('./harness.ts');
const { benchEnv, stats } = await import('./lib.ts');
const env = benchEnv();

/** A small deterministic PRNG (the same repository every run). */
let seed = 42;
const rand = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;

function fastImport(dir: string, stream: string, marks?: string): void {
  const r = spawnSync('git', ['-C', dir, 'fast-import', '--quiet', ...(marks ? [`--export-marks=${marks}`] : [])], { input: stream, env, maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`fast-import failed: ${r.stderr}`);
}

const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}`;
const fileText = (i: number, n: number, keepSymbol: boolean) => `export const version = ${n};\nexport function ${keepSymbol ? `fn${i}` : `renamed${i}`}() {}\n`;
const manifest = (n: number) =>
  JSON.stringify(
    { dependencies: Object.fromEntries(Array.from({ length: 20 }, (_, j) => [`lib${j}`, `^${j === n % 20 ? Math.floor(n / 20) + 1 : 1}.0.0`])) },
    null,
    2,
  );

/** The code history: COMMITS commits on main, each changing one or two files; some renames, deletions, dependency bumps. */
function seedCode(dir: string): string[] {
  const live: string[] = Array.from({ length: FILES }, (_, i) => `src/m${i % 50}/f${i}.ts`);
  const parts = ['commit refs/heads/main', 'mark :1', 'committer Bench <bench@example.com> 1700000000 +0000', data('initial code'), 'deleteall'];
  live.forEach((p, i) => parts.push(`M 100644 inline ${p}`, data(fileText(i, 0, true))));
  parts.push('M 100644 inline package.json', data(manifest(0)));
  let bumps = 0;
  for (let c = 2; c <= COMMITS; c++) {
    parts.push(
      'commit refs/heads/main',
      `mark :${c}`,
      `committer Bench <bench@example.com> ${1700000000 + c * 60} +0000`,
      data(`change ${c}`),
      `from :${c - 1}`,
    );
    if (c % 97 === 0) {
      const k = rand(live.length);
      const to = live[k]!.replace(/\.ts$/, `-r${c}.ts`);
      parts.push(`R ${live[k]} ${to}`);
      live[k] = to;
    } else if (c % 211 === 0 && live.length > 10) {
      parts.push(`D ${live.splice(rand(live.length), 1)[0]}`);
    } else if (c % 50 === 0) {
      parts.push('M 100644 inline package.json', data(manifest(++bumps)));
    } else {
      for (let k = 0; k < 1 + (c % 3 === 0 ? 1 : 0); k++) {
        const f = rand(live.length);
        const i = Number(/f(\d+)/.exec(live[f]!)![1]);
        parts.push(`M 100644 inline ${live[f]}`, data(fileText(i, c, c % 10 !== 0)));
      }
    }
  }
  if (SESSIONS > 0) {
    // every commit's note names a session, as post-commit writes it (git's fast-import fans the notes tree out)
    parts.push('commit refs/notes/axme', 'committer Bench <bench@example.com> 1767225600 +0000', data('notes'));
    for (let c = 1; c <= COMMITS; c++) parts.push(`N inline :${c}`, data(`branch: main\nsession: ${sessionOf(c)}\n`));
  }
  const marks = join(dir, '.git', 'bench-marks');
  fastImport(dir, `${parts.join('\n')}\n`, marks);
  execFileSync('git', ['-C', dir, 'symbolic-ref', 'HEAD', 'refs/heads/main'], { env });
  const shas: string[] = [];
  for (const line of readFileSync(marks, 'utf8').split('\n')) {
    const m = /^:(\d+) ([0-9a-f]{40})$/.exec(line);
    if (m) shas[Number(m[1]) - 1] = m[2]!;
  }
  return shas;
}

/** ITEMS decisions, each anchored, learned at a commit anywhere in the history; one memory commit. */
function seedStore(dir: string, shas: string[]): Array<{ anchors: string[]; learned_at: string }> {
  const files: Array<[string, string]> = [
    ['axme.yaml', stringifyYaml({ format: FORMAT_VERSION, kind: 'repo' })],
    ['safety/rules.yaml', stringifyYaml(DEFAULT_RULES)],
  ];
  const items: Array<{ anchors: string[]; learned_at: string }> = [];
  for (let n = 1; n <= ITEMS; n++) {
    const i = rand(FILES);
    const roll = rand(100);
    const anchor =
      roll < 70
        ? `src/m${i % 50}/f${i}.ts`
        : roll < 80
          ? `src/m${i % 50}/`
          : roll < 90
            ? `src/m${i % 50}/f${i % 10}*.ts`
            : roll < 95
              ? `src/m${i % 50}/f${i}.ts#fn${i}`
              : `dep:lib${i % 20}`;
    const learned_at = shas[rand(shas.length)]!;
    items.push({ anchors: [anchor], learned_at });
    const item = Decision.parse({
      slug: `decision-${n}`,
      id: formatId('D', n),
      title: `Decision ${n} about ${anchor}`,
      decision: `About ${anchor}.`,
      anchors: [anchor],
      learned_at,
      ...(SESSIONS > 0 ? { session: sessionOf(n) } : {}),
      status: 'active',
      created: '2026-01-01T00:00:00.000Z',
      updated: '2026-01-01T00:00:00.000Z',
    });
    files.push([`decisions/${item.slug}.md`, encodeItem(decisionSpec, item)]);
  }
  const parts = ['commit refs/memory/main', 'committer Bench <bench@example.com> 1767225600 +0000', data('store: seed')];
  for (const [path, text] of files) parts.push(`M 100644 inline ${path}`, data(text));
  fastImport(dir, `${parts.join('\n')}\n`);
  return items;
}

/** The naive way: one git log per anchor of every item, in turn. */
function naive(dir: string, items: Array<{ anchors: string[]; learned_at: string }>): { ms: number; stale: number } {
  const t0 = performance.now();
  let stale = 0;
  for (const item of items) {
    let moved = false;
    for (const raw of item.anchors) {
      const a = parseAnchor(raw);
      const spec = a.type === 'dep' ? 'package.json' : a.type === 'glob' ? `:(glob)${a.glob}` : a.path;
      const r = execFileSync('git', ['-C', dir, 'log', '--format=%H', '-M', `${item.learned_at}..HEAD`, '--', spec], { env, encoding: 'utf8' });
      if (r.trim()) moved = true;
    }
    if (moved) stale++;
  }
  return { ms: performance.now() - t0, stale };
}

async function timeVerify(dir: string, warm: boolean): Promise<{ samples: number[]; stale: number; checked: number }> {
  const samples: number[] = [];
  let last = { stale: [] as unknown[], checked: 0 };
  let kb = warm ? await openKnowledgeBase({ cwd: dir, env }) : null;
  if (kb) last = await verifyKnowledge(kb);
  for (let r = 0; r < (warm ? REPS * 4 : REPS); r++) {
    const k = kb ?? (await openKnowledgeBase({ cwd: dir, env }));
    const t0 = performance.now();
    last = await verifyKnowledge(k);
    samples.push(performance.now() - t0);
    if (!kb) await closeKnowledgeBase(k);
  }
  if (kb) await closeKnowledgeBase(kb);
  kb = null;
  return { samples, stale: last.stale.length, checked: last.checked };
}

const dir = mkdtempSync(join(tmpdir(), 'axme-bench-verify-'));
execFileSync('git', ['init', '-q', dir], { env });
const started = Date.now();
try {
  log(`seeding ${COMMITS} code commits over ${FILES} files`);
  const shas = seedCode(dir);
  log(`seeding ${ITEMS} anchored decisions`);
  const items = seedStore(dir, shas);
  log('verify, first run (no cache of any kind)');
  const kb = await openKnowledgeBase({ cwd: dir, env });
  const t0 = performance.now();
  const first = await verifyKnowledge(kb);
  const firstMs = performance.now() - t0;
  await closeKnowledgeBase(kb);
  log(`verify, cold (a new knowledge base per run) x${REPS}`);
  const cold = await timeVerify(dir, false);
  log(`verify, warm (the same knowledge base: the remembered result) x${REPS * 4}`);
  const warm = await timeVerify(dir, true);
  log(NAIVE === 'yes' ? `naive: one git log per anchor, ${items.length} items` : 'naive: left out (--naive no)');
  const nv = NAIVE === 'yes' ? naive(dir, items) : null;
  const rows: Array<{ measure: string; stats: Stats; stale: number }> = [
    { measure: 'axme verify, first run (nothing cached)', stats: stats([firstMs]), stale: first.stale.length },
    { measure: 'axme verify, cold (new knowledge base)', stats: stats(cold.samples), stale: cold.stale },
    { measure: 'axme verify, warm (remembered per memory tree and HEAD)', stats: stats(warm.samples), stale: warm.stale },
    ...(nv ? [{ measure: 'naive: git log <learned_at>..HEAD -- <anchor>, per anchor', stats: stats([nv.ms]), stale: nv.stale }] : []),
  ];
  const m = machine();
  const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
  console.log(
    `Staleness: ${COMMITS} code commits, ${FILES} files, ${ITEMS} anchored items (learned_at spread over the history), ${SESSIONS} sessions (items saved by them, commits noted); ${m.cores} x ${m.cpu}, node ${m.node}, git ${m.git}\n`,
  );
  console.log('| measure | runs | ms, median (p10–p90) | items stale |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const r of rows) console.log(`| ${r.measure} | ${r.stats.n} | ${fmt(r.stats.median)} (${fmt(r.stats.p10)}–${fmt(r.stats.p90)}) | ${r.stale} |`);
  console.log(
    `\n${nv ? `naive / cold: **${(nv.ms / rows[1]!.stats.median).toFixed(1)}x**; ` : ''}checked ${first.checked} items, ${first.unverifiable.length} unverifiable. The naive loop counts an item stale when any commit touched its anchor (grep anchors that still match count too).`,
  );
  mkdirSync(out, { recursive: true });
  const file = join(out, `verify-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), machine: m, commits: COMMITS, files: FILES, items: ITEMS, sessions: SESSIONS, reps: REPS, seconds: Math.round((Date.now() - started) / 1000), rows }, null, 2)}\n`,
  );
  log(`results: ${file}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

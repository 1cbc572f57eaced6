// Writes through the git CLI backend (AXME_BACKEND=cli, and what hooks and workspace commands use),
// side by side with the same writes by the backend of an older revision, in one run: writes per
// second and git processes per write (counted from git's own GIT_TRACE), for
//   - a warm add (one decision added by an open knowledge base: the MCP server's case),
//   - a cold add (the first write of a knowledge base just opened: one `axme decision add`),
//   - a bulk write (40 files in 20 folders as one commit: an import, a merge).
// The two sides alternate, each on its own copy of a seeded store.
//   node --import tsx bench/cli-writes.bench.ts [--base <rev>] [--size 1000] [--reps 15]
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { argOf, wholeArg } from './args.ts';

const ROOT = resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const BASE = argOf(argv, 'base', 'HEAD~1');
const SIZE = wholeArg('cli-writes.bench', argv, 'size', 1000);
const REPS = wholeArg('cli-writes.bench', argv, 'reps', 15);
const { benchEnv, fmt, seededRepo, stats } = await import('./lib.ts');

type KbModule = typeof import('../src/knowledge/core/kb.ts');
type AddModule = typeof import('../src/knowledge/items/decision/add-decision.ts');
type CommitModule = typeof import('../src/store/commit.ts');
interface Side {
  name: string;
  kb: KbModule;
  add: AddModule;
  commit: CommitModule;
}

/** The store and knowledge modules of `srcDir` (this checkout's src/, or the base's copy of it). */
async function side(name: string, srcDir: string): Promise<Side> {
  return {
    name,
    kb: await import(join(srcDir, 'knowledge/core/kb.ts')),
    add: await import(join(srcDir, 'knowledge/items/decision/add-decision.ts')),
    commit: await import(join(srcDir, 'store/commit.ts')),
  };
}

// the base's src/ beside this one, so its imports find node_modules
const baseDir = join(ROOT, `.bench-base-${process.pid}`);
mkdirSync(baseDir);
// removed however the run ends
process.on('exit', () => rmSync(baseDir, { recursive: true, force: true }));
const archive = spawnSync('sh', ['-c', `git archive "$1" src | tar -x -C "$2"`, 'sh', BASE, baseDir], { cwd: ROOT, encoding: 'utf8' });
if (archive.status !== 0) throw new Error(`git archive ${BASE}: ${archive.stderr}`);
const baseSha = spawnSync('git', ['rev-parse', '--short', BASE], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
const sides = [await side(`base ${baseSha}`, join(baseDir, 'src')), await side('this checkout', join(ROOT, 'src'))];

interface Sample {
  ms: number;
  gits: number;
}
const results = new Map<string, Sample[]>();
const record = (s: Side, measure: string, sample: Sample) => {
  const key = `${measure}\t${s.name}`;
  results.set(key, [...(results.get(key) ?? []), sample]);
};

const repos = new Map<Side, { dir: string; trace: string }>();
for (const s of sides) {
  const dir = seededRepo(SIZE);
  const trace = join(dir, '.git', 'bench-trace.log');
  writeFileSync(trace, '');
  repos.set(s, { dir, trace });
}
const gitsSoFar = (trace: string) =>
  readFileSync(trace, 'utf8')
    .split('\n')
    .filter((l) => l.includes('trace: built-in: git ')).length;

/** Runs `fn` on `s`'s repository: its time and the git processes it started. */
async function measure(s: Side, name: string, fn: (dir: string, env: NodeJS.ProcessEnv) => Promise<void>): Promise<void> {
  const { dir, trace } = repos.get(s)!;
  const env = benchEnv({ GIT_TRACE: trace, AXME_BACKEND: 'cli' });
  const before = gitsSoFar(trace);
  const t0 = performance.now();
  await fn(dir, env);
  record(s, name, { ms: performance.now() - t0, gits: gitsSoFar(trace) - before });
}

const warm = new Map<Side, Awaited<ReturnType<KbModule['openKnowledgeBase']>>>();
for (const s of sides) {
  const { dir, trace } = repos.get(s)!;
  const kb = await s.kb.openKnowledgeBase({ cwd: dir, env: benchEnv({ GIT_TRACE: trace, AXME_BACKEND: 'cli' }), backend: 'cli', actor: 'agent' });
  await s.add.addDecision(kb, { title: `warm-up ${s.name}`, decision: 'x' });
  warm.set(s, kb);
}
for (let i = 0; i < REPS; i++) {
  for (const s of sides) {
    await measure(s, 'warm add', async () => void (await s.add.addDecision(warm.get(s)!, { title: `warm ${i}`, decision: 'Benchmark add.' })));
    await measure(s, 'cold add (open, add, close)', async (dir, env) => {
      const kb = await s.kb.openKnowledgeBase({ cwd: dir, env, backend: 'cli', actor: 'agent' });
      await s.add.addDecision(kb, { title: `cold ${i}`, decision: 'Benchmark add.' });
      await s.kb.closeKnowledgeBase(kb);
    });
    await measure(s, 'bulk write: 40 files in 20 folders, one commit', async (dir, env) => {
      const kb = await s.kb.openKnowledgeBase({ cwd: dir, env, backend: 'cli', actor: 'agent' });
      const files = new Map<string, Buffer>();
      for (let f = 0; f < 40; f++) files.set(`bulk/b${f % 20}/file-${i}-${f}.md`, Buffer.from(`bulk ${i} ${f}\n`));
      await s.commit.commitOperation(kb.repo, {
        ref: 'refs/memory/bench-bulk',
        now: () => new Date(),
        apply: async () => ({ change: { files, message: `bulk ${i}` }, result: null }),
      });
      await s.kb.closeKnowledgeBase(kb);
    });
  }
}
for (const s of sides) await s.kb.closeKnowledgeBase(warm.get(s)!);
for (const { dir } of repos.values()) rmSync(dir, { recursive: true, force: true });

const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}`;
let out = `CLI backend writes, ${SIZE} decisions in the store, ${REPS} runs each, on ${machine}\n\n`;
out += '| write | backend of | median ms (p10-p90) | writes/s | git processes per write |\n|---|---|---:|---:|---:|\n';
for (const [key, samples] of results) {
  const [measureName, sideName] = key.split('\t');
  const t = stats(samples.map((x) => x.ms));
  const gits = stats(samples.map((x) => x.gits));
  out += `| ${measureName} | ${sideName} | ${fmt(t.median)} (${fmt(t.p10)}-${fmt(t.p90)}) | ${(1000 / t.median).toFixed(1)} | ${gits.median} |\n`;
}
process.stdout.write(out);

// Sync benchmark (issue 7): the three-way merge of two diverged stores, each side changing
// --changes items (default 1000) of a store of --size items (default 2000) — disjoint (each side
// adds its own new decisions) and overlapping (both sides edit the same decisions: one the text,
// the other the tags, so every item is merged field by field) — and the time of a sync round of
// 3 clones over a local bare remote (each clone adds items, then each runs `axme sync`), and of a
// sync with nothing new; then the git processes one `axme sync` runs in each case (first sync,
// nothing new, push, fast-forward, three-way merge), counted through a script on PATH that logs
// each git command before running the real git.
// --against <dist folder>: another build (a copy of dist/ made before a change) run on a team of
// its own in the same rounds, each of its syncs beside this build's (after it, then before it),
// and its git processes counted the same way: the two compared side by side.
// --merge no: leave out the merge measures (the sync round and the counts only).
// Table on stdout, JSON in bench/results/.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Decision } from '../src/model/decision.ts';
import { argOf, wholeArg } from './args.ts';
import type { Stats } from './lib.ts';

const arg = (name: string, d: string) => argOf(process.argv.slice(2), name, d);
const SIZE = wholeArg('sync.bench', process.argv.slice(2), 'size', 2000, 0);
const CHANGES = wholeArg('sync.bench', process.argv.slice(2), 'changes', 1000, 0);
const REPS = wholeArg('sync.bench', process.argv.slice(2), 'reps', 5);
const OUT = arg('out', join(import.meta.dirname, 'results'));
const AGAINST = arg('against', '');
const MERGE = arg('merge', 'yes') !== 'no';
const log = (s: string) => process.stderr.write(`${s}\n`);
// what is measured is loaded once the options are good: a usage error costs only Node's start
const { closeKnowledgeBase, openKnowledgeBase } = await import('../src/knowledge/core/kb.ts');
const { addBacklogItem } = await import('../src/knowledge/items/backlog/add-backlog-item.ts');
const { planMerge } = await import('../src/knowledge/sync/merge/merge-stores.ts');
const { Decision: DecisionSchema, decisionSpec } = await import('../src/model/decision.ts');
const { formatId } = await import('../src/model/ids.ts');
const { encodeItem } = await import('../src/model/kind.ts');
const { readSnapshot, writeChanges } = await import('../src/store/tree.ts');
const { importCommit } = await import('../test/helpers.ts');
const { benchEnv, CLI, fmt, GNU_TIME, seededRepo, stats, timeProcessCpu } = await import('./lib.ts');
const env = benchEnv();

/** One commit on `ref` (parent `from`) changing `files`, through git fast-import. */
function commitFiles(dir: string, ref: string, from: string, files: Array<[string, string]>, when: number): string {
  importCommit(dir, files, { ref, from, when, force: true });
  return execFileSync('git', ['-C', dir, 'rev-parse', ref], { encoding: 'utf8' }).trim();
}

const decision = (i: number, over: Partial<Decision> = {}) =>
  encodeItem(
    decisionSpec,
    DecisionSchema.parse({
      slug: `seeded-decision-${i}`,
      id: formatId('D', i),
      title: `Seeded decision ${i} about component ${i % 97}`,
      decision: `Component ${i % 97} uses approach ${i}. `.repeat(3),
      reasoning: 'Measured in the benchmark seed.',
      created: '2026-01-01T00:00:00.000Z',
      updated: '2026-01-01T00:00:00.000Z',
      ...over,
    }),
  );

/** Adds backlog items to the store of `cwd`, one commit each, as `axme backlog add` would. */
async function addItems(cwd: string, titles: string[]): Promise<void> {
  const clone = await openKnowledgeBase({ cwd, env, actor: 'human' });
  try {
    for (const title of titles) await addBacklogItem(clone, { title });
  } finally {
    await closeKnowledgeBase(clone);
  }
}

const rows: Array<{ measure: string; stats: Stats }> = [];
if (MERGE) await mergeMeasures();

async function mergeMeasures(): Promise<void> {
  const dir = seededRepo(SIZE);
  const base = execFileSync('git', ['-C', dir, 'rev-parse', 'refs/memory/main'], { encoding: 'utf8' }).trim();
  const kb = await openKnowledgeBase({ cwd: dir, env, actor: 'sync', backend: arg('backend', 'isogit') as 'cli' | 'isogit' });
  for (const mode of ['disjoint', 'overlapping'] as const) {
    const x: Array<[string, string]> = [];
    const y: Array<[string, string]> = [];
    for (let k = 1; k <= CHANGES; k++) {
      if (mode === 'disjoint') {
        x.push([`decisions/x-${k}.md`, decision(SIZE + k, { slug: `x-${k}`, title: `X ${k}` })]);
        y.push([`decisions/y-${k}.md`, decision(SIZE + k, { slug: `y-${k}`, title: `Y ${k}` })]);
      } else {
        x.push([`decisions/seeded-decision-${k}.md`, decision(k, { decision: `Rewritten on X ${k}.`, updated: '2026-02-01T00:00:00.000Z' })]);
        y.push([`decisions/seeded-decision-${k}.md`, decision(k, { tags: ['from-y'], updated: '2026-02-02T00:00:00.000Z' })]);
      }
    }
    const tx = commitFiles(dir, 'refs/memory/x', base, x, 1767300000);
    const ty = commitFiles(dir, 'refs/memory/y', base, y, 1767300100);
    const [sb, sx, sy] = await Promise.all([readSnapshot(kb.repo.backend, base), readSnapshot(kb.repo.backend, tx), readSnapshot(kb.repo.backend, ty)]);
    const samples: number[] = [];
    let detail = '';
    for (let i = 0; i < REPS; i++) {
      const t = performance.now();
      const plan = await planMerge({ kb, base: sb, ours: { ...sx, commit: tx }, theirs: { ...sy, commit: ty } });
      await writeChanges(kb.repo.backend, sx, plan.changes);
      samples.push(performance.now() - t);
      detail = `${plan.changes.size} files written, ${plan.renumbered.length} renumbered, ${plan.conflicts.length} conflicts`;
    }
    log(`${mode}: ${detail}`);
    rows.push({ measure: `merge, ${CHANGES} changed items per side, ${mode} (store of ${SIZE}; ${detail})`, stats: stats(samples) });
  }
  await kb.repo.close();
  rmSync(dir, { recursive: true, force: true });
}

/** A build of the CLI: this checkout's dist/, or the --against one. */
interface Build {
  name: string;
  cli: string;
}
const builds: Build[] = [{ name: 'this build', cli: CLI }, ...(AGAINST ? [{ name: `against ${AGAINST}`, cli: join(resolve(AGAINST), 'axme.cjs') }] : [])];
const root = mkdtempSync(join(tmpdir(), 'axme-bench-sync-'));
const axme = (cli: string, cwd: string, args: string[], extra: NodeJS.ProcessEnv = {}) =>
  execFileSync(process.execPath, [cli, ...args], { cwd, env: { ...env, ...extra }, stdio: ['ignore', 'ignore', 'pipe'] });

/** A bare remote and `n` clones in `dir`; the first makes the store with `cli` and every clone syncs it. */
function team(cli: string, dir: string, n: number): string[] {
  execFileSync('git', ['init', '-q', '--bare', join(dir, 'remote.git')]);
  const clones = Array.from({ length: n }, (_, i) => {
    const c = join(dir, `clone-${i}`);
    execFileSync('git', ['clone', '-q', join(dir, 'remote.git'), c], { env, stdio: 'ignore' });
    return c;
  });
  axme(cli, clones[0]!, ['init', '--no-claude', '--no-git-hooks', '--no-scan']);
  for (const c of clones) axme(cli, c, ['sync']);
  return clones;
}

// a sync round of 3 clones per build, the builds' syncs side by side
const teams = builds.map((b, i) => {
  const dir = join(root, `round-${i}`);
  mkdirSync(dir);
  return team(b.cli, dir, 3);
});
/** GNU time, for the CPU times (without it, only wall times are reported) */

const series = () => builds.map(() => [] as number[]);
const [round, single, singleCpu, idle, idleCpu] = [series(), series(), series(), series(), series()];
for (let r = 0; r < REPS; r++) {
  // the new items are the round's setup, not its measure: added in this process (a CLI process per item cost more than the syncs)
  for (const clones of teams)
    for (const [i, c] of clones.entries())
      await addItems(
        c,
        Array.from({ length: 5 }, (_, k) => `Round ${r} clone ${i} item ${k}`),
      );
  // this build first in even rounds, the other first in odd ones
  const order = r % 2 ? [...builds.keys()].reverse() : [...builds.keys()];
  const took = builds.map(() => 0);
  for (let c = 0; c < 3; c++)
    for (const b of order) {
      const t = await timeProcessCpu(process.execPath, [builds[b]!.cli, 'sync'], { cwd: teams[b]![c]!, env });
      single[b]!.push(t.ms);
      singleCpu[b]!.push(t.cpu);
      took[b]! += t.ms;
    }
  for (const b of builds.keys()) round[b]!.push(took[b]!);
  // the last clone just pushed: its next sync has nothing new
  for (const b of order) {
    const t = await timeProcessCpu(process.execPath, [builds[b]!.cli, 'sync'], { cwd: teams[b]![2]!, env });
    idle[b]!.push(t.ms);
    idleCpu[b]!.push(t.cpu);
  }
}
for (const [b, build] of builds.entries()) {
  const who = builds.length > 1 ? ` (${build.name})` : '';
  rows.push({ measure: `sync round: 3 clones, 5 new items each, one \`axme sync\` per clone${who}`, stats: stats(round[b]!) });
  rows.push({ measure: `one \`axme sync\` in such a round (fetch, merge or fast-forward, push)${who}`, stats: stats(single[b]!) });
  if (GNU_TIME) rows.push({ measure: `CPU time of one such \`axme sync\`, its git processes included${who}`, stats: stats(singleCpu[b]!) });
  rows.push({ measure: `one \`axme sync\` with nothing new${who}`, stats: stats(idle[b]!) });
  if (GNU_TIME) rows.push({ measure: `CPU time of one \`axme sync\` with nothing new, its git processes included${who}`, stats: stats(idleCpu[b]!) });
}

// git processes per sync: the real git behind a logging script on PATH
const bin = join(root, 'git-logging-bin');
mkdirSync(bin);
const realGit = join(execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim(), 'git');
writeFileSync(join(bin, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> "$AXME_BENCH_GIT_LOG"\nexec '${realGit}' "$@"\n`);
chmodSync(join(bin, 'git'), 0o755);
const gitLog = join(root, 'git-commands.log');
const counted = (cli: string, cwd: string): number => {
  writeFileSync(gitLog, '');
  axme(cli, cwd, ['sync'], { PATH: `${bin}:${env.PATH ?? process.env.PATH}`, AXME_BENCH_GIT_LOG: gitLog });
  return readFileSync(gitLog, 'utf8').split('\n').filter(Boolean).length;
};
const cases = [
  'first sync, to an empty remote',
  'first sync of a second clone (takes the store)',
  'nothing new',
  'push only (ahead)',
  'three-way merge',
  'fast-forward',
];
const counts: number[][] = [];
for (const [i, b] of builds.entries()) {
  const dir = join(root, `count-${i}`);
  mkdirSync(dir);
  execFileSync('git', ['init', '-q', '--bare', join(dir, 'remote.git')]);
  const [a, c] = ['a', 'b'].map((name) => {
    const clone = join(dir, name);
    execFileSync('git', ['clone', '-q', join(dir, 'remote.git'), clone], { env, stdio: 'ignore' });
    return clone;
  }) as [string, string];
  axme(b.cli, a, ['init', '--no-claude', '--no-git-hooks', '--no-scan']);
  const n = [counted(b.cli, a), counted(b.cli, c), counted(b.cli, a)];
  // each side's new item, as in the rounds: added in this process, not by a CLI process
  await addItems(a, ['From a']);
  n.push(counted(b.cli, a));
  await addItems(c, ['From b']);
  n.push(counted(b.cli, c), counted(b.cli, a));
  counts.push(n);
}
rmSync(root, { recursive: true, force: true });

console.log(`sync (${cpus().length} cores, ${cpus()[0]?.model ?? 'cpu'}; node ${process.version}; ${REPS} runs)`);
console.log('| measure | median ms | p10 | p90 |\n| --- | ---: | ---: | ---: |');
for (const r of rows) console.log(`| ${r.measure} | ${fmt(r.stats.median)} | ${fmt(r.stats.p10)} | ${fmt(r.stats.p90)} |`);
console.log(`\n| git processes per \`axme sync\` | ${builds.map((b) => b.name).join(' | ')} |\n| --- |${builds.map(() => ' ---: |').join('')}`);
for (const [i, name] of cases.entries()) console.log(`| ${name} | ${counts.map((n) => n[i]).join(' | ')} |`);
mkdirSync(OUT, { recursive: true });
const file = join(OUT, `sync-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(
  file,
  `${JSON.stringify({ machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version }, size: SIZE, changes: CHANGES, reps: REPS, builds: builds.map((b) => b.name), rows, gitProcesses: Object.fromEntries(cases.map((c, i) => [c, counts.map((n) => n[i])])) }, null, 2)}\n`,
);
log(`results: ${file}`);

// Sync benchmark (issue 7): the three-way merge of two diverged stores, each side changing
// --changes items (default 1000) of a store of --size items (default 2000) — disjoint (each side
// adds its own new decisions) and overlapping (both sides edit the same decisions: one the text,
// the other the tags, so every item is merged field by field) — and the time of a sync round of
// 3 clones over a local bare remote (each clone adds items, then each runs `axme sync`).
// Table on stdout, JSON in bench/results/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeKnowledgeBase, openKnowledgeBase } from '../src/knowledge/core/kb.ts';
import { addBacklogItem } from '../src/knowledge/items/backlog/add-backlog-item.ts';
import { planMerge } from '../src/knowledge/sync/merge/merge-stores.ts';
import { Decision, decisionSpec } from '../src/model/decision.ts';
import { formatId } from '../src/model/ids.ts';
import { encodeItem } from '../src/model/kind.ts';
import { readSnapshot, writeChanges } from '../src/store/tree.ts';
import { importCommit } from '../test/helpers.ts';
import { argOf, benchEnv, CLI, fmt, type Stats, seededRepo, stats, timeProcess } from './lib.ts';

const arg = (name: string, d: string) => argOf(process.argv.slice(2), name, d);
const SIZE = Number(arg('size', '2000'));
const CHANGES = Number(arg('changes', '1000'));
const REPS = Number(arg('reps', '5'));
const OUT = arg('out', join(import.meta.dirname, 'results'));
const log = (s: string) => process.stderr.write(`${s}\n`);
const env = benchEnv();

/** One commit on `ref` (parent `from`) changing `files`, through git fast-import. */
function commitFiles(dir: string, ref: string, from: string, files: Array<[string, string]>, when: number): string {
  importCommit(dir, files, { ref, from, when, force: true });
  return execFileSync('git', ['-C', dir, 'rev-parse', ref], { encoding: 'utf8' }).trim();
}

const decision = (i: number, over: Partial<Decision> = {}) =>
  encodeItem(
    decisionSpec,
    Decision.parse({
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

// a sync round of 3 clones
const root = mkdtempSync(join(tmpdir(), 'axme-bench-sync-'));
execFileSync('git', ['init', '-q', '--bare', join(root, 'remote.git')]);
const clones = [0, 1, 2].map((i) => {
  const c = join(root, `clone-${i}`);
  execFileSync('git', ['clone', '-q', join(root, 'remote.git'), c], { env, stdio: 'ignore' });
  return c;
});
const axme = (cwd: string, args: string[]) => execFileSync(process.execPath, [CLI, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
axme(clones[0]!, ['init', '--no-claude', '--no-git-hooks', '--no-scan']);
for (const c of clones) axme(c, ['sync']);
const round: number[] = [];
const single: number[] = [];
for (let r = 0; r < REPS; r++) {
  // the new items are the round's setup, not its measure: added in this process (a CLI process per item cost more than the syncs)
  for (const [i, c] of clones.entries())
    await addItems(
      c,
      Array.from({ length: 5 }, (_, k) => `Round ${r} clone ${i} item ${k}`),
    );
  const t = performance.now();
  for (const c of clones) single.push(await timeProcess(process.execPath, [CLI, 'sync'], { cwd: c, env }));
  round.push(performance.now() - t);
}
rows.push({ measure: 'sync round: 3 clones, 5 new items each, one `axme sync` per clone', stats: stats(round) });
rows.push({ measure: 'one `axme sync` in such a round (fetch, merge or fast-forward, push)', stats: stats(single) });
rmSync(root, { recursive: true, force: true });

console.log(`sync (${cpus().length} cores, ${cpus()[0]?.model ?? 'cpu'}; node ${process.version}; ${REPS} runs)`);
console.log('| measure | median ms | p10 | p90 |\n| --- | ---: | ---: | ---: |');
for (const r of rows) console.log(`| ${r.measure} | ${fmt(r.stats.median)} | ${fmt(r.stats.p10)} | ${fmt(r.stats.p90)} |`);
mkdirSync(OUT, { recursive: true });
const file = join(OUT, `sync-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(
  file,
  `${JSON.stringify({ machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version }, size: SIZE, changes: CHANGES, reps: REPS, rows }, null, 2)}\n`,
);
log(`results: ${file}`);

// What the inbound checks of a sync cost where they do work (h/trustreview): the remote changes
// --changes decisions (default 1000) of a store of --size (default 2000) and adds a deny to
// safety/rules.yaml (a tightening: taken), with notes on 50 commits; the clone has a local memory,
// so its `axme sync` is a three-way merge that reads both rule sets, the decisions it changes and
// the notes tree. Each rep copies the prepared team twice and runs one `axme sync` with this
// build and one with --against <dist folder> (a build of the code before), alternating which goes
// first: wall and CPU time (GNU time, the git processes included) side by side.
// Table on stdout, JSON in bench/results/.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { argOf, wholeArg } from './args.ts';
import { benchEnv, CLI, fmt, GNU_TIME, type Stats, seededRepo, stats, timeProcessCpu } from './lib.ts';

const args = process.argv.slice(2);
const SIZE = wholeArg('sync-inbound.bench', args, 'size', 2000, 1);
const CHANGES = Math.min(SIZE, wholeArg('sync-inbound.bench', args, 'changes', 1000, 1));
const REPS = wholeArg('sync-inbound.bench', args, 'reps', 7);
const OUT = argOf(args, 'out', join(import.meta.dirname, 'results'));
const AGAINST = argOf(args, 'against', '');
const env = benchEnv();
const git = (cwd: string, a: string[], input?: string) =>
  execFileSync('git', a, { cwd, env, input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['pipe', 'pipe', 'pipe'] });
const REF = 'refs/memory/main';

/** The team: a bare remote, the teammate's store (seeded) pushed to it, the clone `b` started from it, then the teammate's change pushed and b's local memory. */
async function prepare(): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'axme-bench-inbound-'));
  const a = seededRepo(SIZE);
  git(root, ['init', '-q', '--bare', 'remote.git']);
  git(a, ['remote', 'add', 'origin', join(root, 'remote.git')]);
  git(a, ['push', '-q', 'origin', `${REF}:${REF}`]);
  git(root, ['clone', '-q', 'remote.git', 'b']);
  const b = join(root, 'b');
  execFileSync(process.execPath, [CLI, 'init', '--no-scan'], { cwd: b, env, stdio: 'ignore' });
  // the teammate's change: CHANGES decisions edited, a deny added, notes on 50 commits (by plain git)
  const index = { ...env, GIT_INDEX_FILE: join(a, '.git', 'bench-index') };
  const g = (x: string[], input?: string) => execFileSync('git', x, { cwd: a, env: index, input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  g(['read-tree', REF]);
  const paths = g(['ls-tree', '-r', '--name-only', REF, 'decisions/']).trim().split('\n').slice(0, CHANGES);
  const lines: string[] = [];
  for (const p of paths) {
    const text = g(['show', `${REF}:${p}`]).replace(/\n\n/, '\n\nEdited by the teammate. ');
    lines.push(`100644 ${g(['hash-object', '-w', '--stdin'], text).trim()}\t${p}`);
  }
  const rules = g(['show', `${REF}:safety/rules.yaml`]).replace(/deniedCommands:\n/, 'deniedCommands:\n    - terraform destroy\n');
  lines.push(`100644 ${g(['hash-object', '-w', '--stdin'], rules).trim()}\tsafety/rules.yaml`);
  g(['update-index', '--index-info'], `${lines.join('\n')}\n`);
  const tip = g(['commit-tree', g(['write-tree']).trim(), '-p', REF, '-m', 'teammate edits']).trim();
  let parent = tip;
  for (let i = 0; i < 50; i++) {
    parent = g(['commit-tree', g(['write-tree']).trim(), '-p', parent, '-m', `code ${i}`]).trim();
    g(['notes', '--ref=axme', 'add', '-f', '-m', `session: s${i}\nbranch: main`, parent]);
  }
  g(['push', '-q', 'origin', `${tip}:${REF}`, 'refs/notes/axme:refs/notes/axme']);
  execFileSync(process.execPath, [CLI, 'memory', 'add', '--type', 'feedback', '--title', 'Local work', '--description', 'Before the sync.'], {
    cwd: b,
    env,
    stdio: 'ignore',
  });
  rmSync(a, { recursive: true, force: true });
  return root;
}

const builds: Array<[string, string]> = [
  ['this build', CLI],
  ...(AGAINST ? [[`against ${AGAINST}`, join(resolve(AGAINST), 'axme.cjs')] as [string, string]] : []),
];
const template = await prepare();
const wall = builds.map(() => [] as number[]);
const cpu = builds.map(() => [] as number[]);
for (let rep = 0; rep < REPS; rep++) {
  const order = rep % 2 ? [...builds.keys()].reverse() : [...builds.keys()];
  for (const i of order) {
    const copy = mkdtempSync(join(tmpdir(), 'axme-bench-inbound-run-'));
    cpSync(template, copy, { recursive: true });
    git(join(copy, 'b'), ['remote', 'set-url', 'origin', join(copy, 'remote.git')]);
    const t = await timeProcessCpu(process.execPath, [builds[i]![1], 'sync'], { cwd: join(copy, 'b'), env });
    wall[i]!.push(t.ms);
    cpu[i]!.push(t.cpu);
    rmSync(copy, { recursive: true, force: true });
  }
}
rmSync(template, { recursive: true, force: true });

const rows: Array<{ measure: string; stats: Stats }> = [];
for (const [i, [who]] of builds.entries()) {
  rows.push({ measure: `\`axme sync\`: a three-way merge taking ${CHANGES} changed decisions, the rules and 50 notes (${who})`, stats: stats(wall[i]!) });
  if (GNU_TIME) rows.push({ measure: `CPU time of that sync, its git processes included (${who})`, stats: stats(cpu[i]!) });
}
const head = `sync-inbound (${cpus().length} cores, ${cpus()[0]?.model.trim()}; node ${process.version}; store of ${SIZE}; ${REPS} runs)`;
const table = [
  '| measure | median ms | p10 | p90 |',
  '| --- | ---: | ---: | ---: |',
  ...rows.map((r) => `| ${r.measure} | ${fmt(r.stats.median)} | ${fmt(r.stats.p10)} | ${fmt(r.stats.p90)} |`),
];
process.stdout.write(`${head}\n${table.join('\n')}\n`);
mkdirSync(OUT, { recursive: true });
writeFileSync(join(OUT, `sync-inbound-${Date.now()}.json`), `${JSON.stringify({ head, rows }, null, 2)}\n`);

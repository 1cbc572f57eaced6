// Git hooks benchmark (issue 19): what axme's git hooks add to `git commit` and `git push`,
// side by side in one run. Two clones of one seeded store: one with axme's hooks installed by
// `axme init`, one without any hook. Each round runs, in turn: `node -e 0`; a person's plain
// commit with and without the hooks; an agent's commit (CLAUDECODE=1) with its `#!axme pr=none`
// marker with and without the hooks; a person's and an agent's push of a feature branch to a
// local bare remote with and without the pre-push hook. The measure is the hooks' extra time
// divided by `node -e 0`: budgets ≤ 1.0 for a person's commit or push, ≤ 1.5 for an agent's.
// `--warmup N`: untimed rounds first (1; a smoke run takes 0). Table on stdout, JSON in bench/results/.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { wholeArg } from './args.ts';
import { argOf, benchEnv, CLI, fmt, type Stats, seededRepo, stats, timeProcess } from './lib.ts';

const arg = (name: string, d: string) => argOf(process.argv.slice(2), name, d);
const REPS = Number(arg('reps', '30'));
const OUT = arg('out', join(import.meta.dirname, 'results'));
const log = (s: string) => process.stderr.write(`${s}\n`);
if (!Number.isInteger(REPS) || REPS < 1) {
  log('--reps takes a whole number of at least 1');
  process.exit(2);
}
/** untimed rounds of every measure first (file cache, code cache, the compiled policy); a smoke run takes 0 */
const WARMUP = wholeArg('git-hooks.bench', process.argv.slice(2), 'warmup', 1, 0);

const root = mkdtempSync(join(tmpdir(), 'axme-bench-git-hooks-'));
const cache = join(root, 'code-cache');
mkdirSync(cache, { mode: 0o700 });
// the hooks find this build as `axme init --local` makes them find it (src/setup/launch.ts)
const env = benchEnv({
  AXME_COMPILE_CACHE: cache,
  AXME_BIN: CLI,
  AXME_NODE: process.execPath,
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
});
const agentEnv = { ...env, CLAUDECODE: '1' };
const git = (dir: string, ...args: string[]) => execFileSync('git', ['-C', dir, ...args], { env, encoding: 'utf8' }).trim();

// the store, then a working tree with axme's hooks and an identical one without hooks
const hooked = seededRepo(30);
git(hooked, 'commit', '-q', '--allow-empty', '-m', 'first');
execFileSync(process.execPath, [CLI, 'init', '--no-claude', '--no-scan', '--no-fetch-config'], { cwd: hooked, env, stdio: 'ignore' });
const plain = join(root, 'plain');
cpSync(hooked, plain, { recursive: true });
git(plain, 'config', 'core.hooksPath', join(root, 'no-hooks'));
mkdirSync(join(root, 'no-hooks'));
for (const dir of [hooked, plain]) {
  const remote = join(root, `${dir === plain ? 'plain' : 'hooked'}-remote.git`);
  git(root, 'init', '-q', '--bare', remote);
  git(dir, 'remote', 'add', 'origin', remote);
  git(dir, 'checkout', '-q', '-b', 'feature');
}

let n = 0;
const commit = (dir: string, agent: boolean) => () =>
  timeProcess('git', ['-C', dir, 'commit', '-q', '--allow-empty', '-m', `change ${++n}`, ...(agent ? ['-m', '#!axme pr=none repo=bench/bench'] : [])], {
    cwd: dir,
    env: agent ? agentEnv : env,
  });
// each push moves its own branch: the person's and the agent's each carry the round's commits
const push =
  (dir: string, agent = false) =>
  () =>
    timeProcess('git', ['-C', dir, 'push', '-q', 'origin', `HEAD:refs/heads/${agent ? 'agent-feature' : 'feature'}`], {
      cwd: dir,
      env: agent ? agentEnv : env,
    });

interface Measure {
  measure: string;
  run: () => Promise<number>;
}
const measures: Measure[] = [
  { measure: 'node -e 0', run: () => timeProcess(process.execPath, ['-e', '0'], { cwd: root, env }) },
  { measure: "person's commit, no hooks", run: commit(plain, false) },
  { measure: "person's commit, axme's hooks", run: commit(hooked, false) },
  { measure: "agent's commit with its marker, no hooks", run: commit(plain, true) },
  { measure: "agent's commit with its marker, axme's hooks", run: commit(hooked, true) },
  // each push carries the commits of the round before it
  { measure: 'git push of a feature branch, no hooks', run: push(plain) },
  { measure: 'git push of a feature branch, axme pre-push', run: push(hooked) },
  { measure: "an agent's push of a feature branch, no hooks", run: push(plain, true) },
  { measure: "an agent's push of a feature branch, axme pre-push", run: push(hooked, true) },
];

for (let w = 0; w < WARMUP; w++) for (const m of measures) await m.run(); // warm up: file cache, code cache, the compiled policy
log(`git hooks: ${REPS} rounds of ${measures.map((m) => m.measure).join(' / ')}`);
const samples = measures.map(() => [] as number[]);
for (let i = 0; i < REPS; i++) for (const [j, m] of measures.entries()) samples[j]!.push(await m.run());
// the hooks must have run for real: the agent's marker of the last round's commit (the pushes commit nothing) became trailers
if (!/^Axme-PR: none$/m.test(git(hooked, 'log', '-1', '--format=%B', 'HEAD'))) {
  log(`axme's hooks did not run in ${hooked}: ${git(hooked, 'log', '-2', '--format=%B')}`);
  process.exit(1);
}

const s = samples.map((x) => stats(x));
const node = s[0]!.median;
const pairs: Array<{ measure: string; without: Stats; with: Stats; extra: number; ratio: number; budget: number }> = [
  { measure: "a person's commit", without: s[1]!, with: s[2]!, budget: 1.0 },
  { measure: "an agent's commit with its marker", without: s[3]!, with: s[4]!, budget: 1.5 },
  { measure: "a person's push (pre-push)", without: s[5]!, with: s[6]!, budget: 1.0 },
  { measure: "an agent's push (pre-push)", without: s[7]!, with: s[8]!, budget: 1.5 },
].map((p) => ({ ...p, extra: p.with.median - p.without.median, ratio: (p.with.median - p.without.median) / node }));

console.log(
  `git hooks vs plain git (${cpus().length} cores, ${cpus()[0]?.model ?? 'cpu'}; node ${process.version}; ${REPS} alternating rounds; node -e 0 = ${fmt(node)} ms)`,
);
console.log('| operation | without hooks ms | with axme ms (p10–p90) | extra ms | extra ÷ node -e 0 | budget |\n| --- | ---: | ---: | ---: | ---: | ---: |');
for (const p of pairs)
  console.log(
    `| ${p.measure} | ${fmt(p.without.median)} | ${fmt(p.with.median)} (${fmt(p.with.p10)}–${fmt(p.with.p90)}) | ${fmt(p.extra)} | ${p.ratio.toFixed(2)} | ≤ ${p.budget} |`,
  );
mkdirSync(OUT, { recursive: true });
const file = join(OUT, `git-hooks-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(
  file,
  `${JSON.stringify({ machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version }, reps: REPS, node: s[0], pairs }, null, 2)}\n`,
);
log(`results: ${file}`);
rmSync(root, { recursive: true, force: true });
rmSync(hooked, { recursive: true, force: true });

// Test files before and after a change, side by side in one run: each file as it is now and as it
// was at a git revision, run alternately (`node --import tsx --test <file>`, one at a time), with
// the wall time and the CPU time of the test process and its children. Alternating keeps a busy
// machine's noise on both sides.
//   node --import tsx bench/test-files.bench.ts <rev> <test file>... [--rounds 3]
// Needs `npm run build` (the tests that spawn the CLI run dist/axme.cjs). The old version is
// written beside the new one (so its relative imports resolve) and removed afterwards.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

interface Run {
  wall: number;
  cpu: number;
  ok: boolean;
}

/** One `node --test` run of `file`: wall and CPU seconds (the process and all it waited for). */
function runOnce(file: string): Run {
  const started = process.hrtime.bigint();
  // bash's `times` after the run: the CPU its children used, grandchildren included once reaped
  const r = spawnSync('bash', ['-c', `node --import tsx --test --test-reporter=dot "$1" >/dev/null 2>&1; s=$?; times; exit $s`, 'bench', file], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const child = r.stdout.trim().split('\n').at(-1) ?? '';
  const secs = [...child.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return { wall, cpu: (secs[0] ?? 0) + (secs[1] ?? 0), ok: r.status === 0 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function main(): void {
  const args = process.argv.slice(2);
  const ri = args.indexOf('--rounds');
  const rounds = ri >= 0 ? Number(args.splice(ri, 2)[1]) : 3;
  const [rev, ...files] = args;
  if (!rev || !files.length) {
    process.stderr.write('usage: bench/test-files.bench.ts <rev> <test file>... [--rounds n]\n');
    process.exit(2);
  }
  process.stdout.write(`test file: wall s before -> after (median of ${rounds}), CPU s before -> after\n`);
  for (const file of files) {
    const old = join(dirname(file), `${basename(file, '.test.ts')}.before-bench.test.ts`);
    const text = spawnSync('git', ['show', `${rev}:${file}`], { cwd: ROOT, encoding: 'utf8' });
    if (text.status !== 0) throw new Error(`git show ${rev}:${file}: ${text.stderr}`);
    writeFileSync(join(ROOT, old), text.stdout);
    try {
      const before: Run[] = [];
      const after: Run[] = [];
      for (let i = 0; i < rounds; i++) {
        before.push(runOnce(old));
        after.push(runOnce(file));
      }
      const f = (runs: Run[], k: 'wall' | 'cpu') => median(runs.map((x) => x[k])).toFixed(1);
      const failed = [...before, ...after].some((x) => !x.ok) ? '  (a run failed)' : '';
      process.stdout.write(`${file}: ${f(before, 'wall')} -> ${f(after, 'wall')} s wall, ${f(before, 'cpu')} -> ${f(after, 'cpu')} s CPU${failed}\n`);
    } finally {
      rmSync(join(ROOT, old), { force: true });
    }
  }
}

main();

// The tests' TypeScript loader against tsx, side by side in one run: each test file run by
// `node --import <loader> --test`, tsx and scripts/test-loader.mjs alternately (one at a time), with
// the wall time and the CPU time (user + system) of the test process and all its children, and the
// start-up alone (`-e 0`, and an import of the CLI's entry src/cli/main.ts). Alternating keeps a busy
// machine's noise on both sides. Needs `npm run build` (the tests that spawn the CLI run dist/).
//   node scripts/test-loader-bench.mjs [--rounds 2] [test file...]
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LOADERS = { tsx: 'tsx', 'test-loader': './scripts/test-loader.mjs' };

/** One run of `node --import <loader> <args>`: wall and CPU seconds (bash's `times`: its children, reaped grandchildren included). */
function runOnce(loader, args) {
  const started = process.hrtime.bigint();
  const r = spawnSync('bash', ['-c', 'node --import "$@" >/dev/null 2>&1; s=$?; times; exit $s', 'bench', loader, ...args], { cwd: ROOT, encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const child = r.stdout.trim().split('\n').at(-1) ?? '';
  const secs = [...child.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return { wall, cpu: (secs[0] ?? 0) + (secs[1] ?? 0), ok: r.status === 0 };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function main() {
  const args = process.argv.slice(2);
  const ri = args.indexOf('--rounds');
  const rounds = ri >= 0 ? Number(args.splice(ri, 2)[1]) : 2;
  if (!Number.isInteger(rounds) || rounds < 1 || args.some((a) => a.startsWith('--'))) {
    process.stderr.write('usage: node scripts/test-loader-bench.mjs [--rounds N] [test file...]\n');
    process.exit(2);
  }
  const cases = [
    ['start-up (-e 0)', ['--input-type=module', '-e', '0']],
    ['import src/cli/main.ts', ['--input-type=module', '-e', "await import('./src/cli/main.ts')"]],
    ...args.map((f) => [f, ['--test', '--test-reporter=dot', f]]),
  ];
  process.stdout.write(
    `load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}; ${rounds} rounds, tsx and the test loader alternately\n`,
  );
  process.stdout.write('| case | CPU s tsx | test loader | wall s tsx | test loader |\n| --- | ---: | ---: | ---: | ---: |\n');
  const totals = { tsx: { cpu: 0, wall: 0 }, 'test-loader': { cpu: 0, wall: 0 } };
  for (const [name, argv] of cases) {
    const runs = { tsx: [], 'test-loader': [] };
    for (let i = 0; i < rounds; i++) for (const [k, loader] of Object.entries(LOADERS)) runs[k].push(runOnce(loader, argv));
    const m = (k, f) => median(runs[k].map((x) => x[f]));
    for (const k of Object.keys(totals)) for (const f of ['cpu', 'wall']) totals[k][f] += m(k, f);
    const failed = Object.values(runs)
      .flat()
      .some((x) => !x.ok)
      ? ' (a run failed)'
      : '';
    process.stdout.write(
      `| ${name}${failed} | ${m('tsx', 'cpu').toFixed(2)} | ${m('test-loader', 'cpu').toFixed(2)} | ${m('tsx', 'wall').toFixed(1)} | ${m('test-loader', 'wall').toFixed(1)} |\n`,
    );
  }
  const t = (k, f) => totals[k][f].toFixed(f === 'cpu' ? 2 : 1);
  process.stdout.write(`| all (medians summed) | ${t('tsx', 'cpu')} | ${t('test-loader', 'cpu')} | ${t('tsx', 'wall')} | ${t('test-loader', 'wall')} |\n`);
  process.stdout.write(
    `load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}\n`,
  );
}

main();

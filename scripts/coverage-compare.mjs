// Two coverage reports of scripts/coverage.mjs side by side: the totals of each, and the src/ files
// whose share of covered lines fell most from the first to the second (files in only one of them
// listed apart). Each report is <checkout>/coverage/coverage-summary.json; paths compare relative
// to their checkout, so two clones of different commits compare file by file.
//   node scripts/coverage-compare.mjs <before-summary.json> <after-summary.json> [--top N] [--json]
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

const args = process.argv.slice(2);
const json = args.includes('--json');
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 15;
const files = args.filter((a, i) => !a.startsWith('--') && i !== topAt + 1);
if (files.length !== 2 || !Number.isInteger(top) || top < 0 || args.some((a) => a.startsWith('--') && a !== '--json' && a !== '--top')) {
  process.stderr.write('usage: node scripts/coverage-compare.mjs <before-summary.json> <after-summary.json> [--top N] [--json]\n');
  process.exit(2);
}
for (const f of files)
  if (!existsSync(f)) {
    process.stderr.write(`coverage-compare: no ${f}: run npm run coverage (-- <checkout>) first, it writes <checkout>/coverage/coverage-summary.json\n`);
    process.exit(2);
  }
const [before, after] = files.map(read);
const METRICS = ['lines', 'branches', 'functions'];

const totals = Object.fromEntries(METRICS.map((m) => [m, { before: before.total[m], after: after.total[m] }]));
const common = [...before.files.keys()].filter((f) => after.files.has(f));
const fell = common
  .map((file) => ({ file, before: before.files.get(file).lines, after: after.files.get(file).lines }))
  .map((r) => ({ ...r, points: pct(r.after) - pct(r.before) }))
  .filter((r) => r.points < 0)
  .sort((a, b) => a.points - b.points || b.before.covered - b.after.covered - (a.before.covered - a.after.covered))
  .slice(0, top);
const onlyBefore = [...before.files.keys()].filter((f) => !after.files.has(f)).sort();
const onlyAfter = [...after.files.keys()].filter((f) => !before.files.has(f)).sort();

if (json) process.stdout.write(`${JSON.stringify({ totals, fell, onlyBefore, onlyAfter })}\n`);
else {
  process.stdout.write('| of src/ | before | after |\n| --- | ---: | ---: |\n');
  for (const m of METRICS) process.stdout.write(`| ${m} | ${cell(totals[m].before)} | ${cell(totals[m].after)} |\n`);
  process.stdout.write(
    `\nline coverage fell most (${common.length} files in both):\n\n| file | lines before | after | points |\n| --- | ---: | ---: | ---: |\n`,
  );
  for (const r of fell) process.stdout.write(`| ${r.file} | ${cell(r.before)} | ${cell(r.after)} | ${r.points.toFixed(1)} |\n`);
  process.stdout.write(`\nonly before (${onlyBefore.length}): ${onlyBefore.join(', ')}\nonly after (${onlyAfter.length}): ${onlyAfter.join(', ')}\n`);
}

/** A summary: its totals, and its files by their path under the checkout (the folder holding coverage/). */
function read(path) {
  const summary = JSON.parse(readFileSync(path, 'utf8'));
  const checkout = dirname(dirname(resolve(path)));
  const byFile = new Map();
  for (const [file, s] of Object.entries(summary)) if (file !== 'total') byFile.set(relative(checkout, file), s);
  return { total: summary.total, files: byFile };
}

function pct(m) {
  return m.total ? (100 * m.covered) / m.total : 100;
}

function cell(m) {
  return `${pct(m).toFixed(2)} % (${m.covered} of ${m.total})`;
}

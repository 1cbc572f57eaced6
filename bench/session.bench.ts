// Session benchmark (issue 6): what session tracking costs where it runs often, and what a
// recovery costs. With N earlier sessions on record (the local folder grows until finished
// sessions are pruned after 30 days):
// - finding the open session of a process (every git hook and every CLI write run by an agent);
// - a post-tool-use hook process (runs after every edit);
// - recovering one orphan (a commit), and a sweep that finds nothing to do (server start).
// Table on stdout, JSON in bench/results/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { argOf, wholeArg } from './args.ts';
import type { Stats } from './lib.ts';

const argv = process.argv.slice(2);
const REPS = wholeArg('session.bench', argv, 'reps', 20);
const SESSIONS = wholeArg('session.bench', argv, 'sessions', 500, 0);
const OUT = argOf(argv, 'out', join(import.meta.dirname, 'results'));
const log = (s: string) => process.stderr.write(`${s}\n`);
// what is measured is loaded once the options are good: a usage error costs only Node's start
const { recoverSession } = await import('../src/knowledge/close/recover-session.ts');
const { sweepOrphans } = await import('../src/knowledge/close/sweep-orphans.ts');
const { openKnowledgeBase } = await import('../src/knowledge/core/kb.ts');
const { ancestors } = await import('../src/session/owner.ts');
const { activeSession, recordEvent, sessionForHarness } = await import('../src/session/sessions.ts');
const { benchEnv, CLI, fmt, seededRepo, stats, timeProcess } = await import('./lib.ts');

const dir = seededRepo(100);
const env = benchEnv();
const common = join(dir, '.git');
const now = new Date();
// earlier sessions, all closed: the state a busy repository reaches before pruning
log(`seeding ${SESSIONS} closed sessions`);
for (let i = 0; i < SESSIONS; i++) {
  const m = sessionForHarness(common, 'claude-code', `old-${i}`, { cwd: dir, transcriptPath: null, now, owner: () => ({ pid: 1_000_000 + i, start: null }) });
  for (let f = 0; f < 20; f++) recordEvent(common, m.id, { t: now.toISOString(), type: 'file', path: `src/file-${f}.ts`, tool: 'Edit' });
  recordEvent(common, m.id, { t: now.toISOString(), type: 'closed', commit: null });
}
// the open session, owned by this process (as Claude Code owns its hooks' sessions)
const open = sessionForHarness(common, 'claude-code', 'live', { cwd: dir, transcriptPath: null, now, owner: () => ({ pid: process.pid, start: null }) });
const rows: Array<{ measure: string; stats: Stats }> = [];

const find: number[] = [];
const me = ancestors(process.pid).concat(process.pid);
for (let i = 0; i < REPS * 5; i++) {
  const t = performance.now();
  const s = activeSession(common, me);
  find.push(performance.now() - t);
  if (s?.id !== open.id) throw new Error('the open session was not found');
}
rows.push({ measure: `find the open session among ${SESSIONS + 1} (in-process)`, stats: stats(find) });

mkdirSync(join(dir, 'src'), { recursive: true });
const post = JSON.stringify({
  session_id: 'live',
  cwd: dir,
  hook_event_name: 'PostToolUse',
  tool_name: 'Edit',
  tool_input: { file_path: join(dir, 'src/a.ts') },
});
const posts: number[] = [];
const node0: number[] = [];
for (let i = 0; i < REPS; i++) {
  node0.push(await timeProcess(process.execPath, ['-e', '0'], { cwd: dir, env }));
  posts.push(await timeProcess(process.execPath, [CLI, 'hook', 'post-tool-use'], { cwd: dir, env, input: post }));
}
rows.push({ measure: 'node -e 0', stats: stats(node0) });
rows.push({ measure: 'hook post-tool-use (records an edit)', stats: stats(posts) });

const kb = await openKnowledgeBase({ cwd: dir, env, actor: 'agent', backend: 'cli' });
const sweeps: number[] = [];
for (let i = 0; i < REPS; i++) {
  const t = performance.now();
  await sweepOrphans(kb);
  sweeps.push(performance.now() - t);
}
rows.push({ measure: `sweep with nothing to recover (${SESSIONS + 1} sessions)`, stats: stats(sweeps) });

const recoveries: number[] = [];
// at least 3 recoveries (fewer only when --reps asks for fewer rounds)
for (let i = 0; i < Math.max(Math.min(3, REPS), Math.floor(REPS / 2)); i++) {
  const m = sessionForHarness(common, 'claude-code', `dead-${i}`, { cwd: dir, transcriptPath: null, now, owner: () => ({ pid: 999_999_999, start: null }) });
  for (let f = 0; f < 20; f++) recordEvent(common, m.id, { t: now.toISOString(), type: 'file', path: `src/file-${f}.ts`, tool: 'Edit' });
  const t = performance.now();
  const r = await recoverSession(kb, m.id);
  recoveries.push(performance.now() - t);
  if (r.outcome !== 'recovered') throw new Error(`recovery said ${r.outcome}`);
}
rows.push({ measure: 'recover one orphan (20 files; one commit)', stats: stats(recoveries) });
await kb.repo.close();
execFileSync('git', ['-C', dir, 'fsck', '--no-progress'], { env });

console.log(`sessions (${cpus().length} cores, ${cpus()[0]?.model ?? 'cpu'}; node ${process.version}; ${SESSIONS} earlier sessions)`);
console.log('| measure | median ms | p10 | p90 |\n| --- | ---: | ---: | ---: |');
for (const r of rows) console.log(`| ${r.measure} | ${fmt(r.stats.median)} | ${fmt(r.stats.p10)} | ${fmt(r.stats.p90)} |`);
mkdirSync(OUT, { recursive: true });
const file = join(OUT, `session-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(
  file,
  `${JSON.stringify({ machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version }, reps: REPS, sessions: SESSIONS, rows }, null, 2)}\n`,
);
log(`results: ${file}`);
rmSync(dir, { recursive: true, force: true });

/**
 * Context delivery (issue 32): what axme hands an agent, and when.
 *
 * 1. The session start at 100 / 1,000 / 10,000 decisions: the characters `axme hook
 *    session-start` injects, beside what a "load everything" start would (every decision's file,
 *    as AXME Code's start loaded them), on the same store.
 * 2. Per-prompt recall on real documents (bench/retrieval: 161 public ADRs, 141 queries written
 *    as a person asks, not as the titles read): each query is sent to the real prompt hook
 *    (`axme hook user-prompt-submit`, one process each), in sessions of 10 prompts. Counted: the
 *    share of prompts whose relevant item was injected by that prompt, or earlier in the same
 *    session (the model holds it either way); characters per prompt; items injected twice in one
 *    session (must be 0); unrelated prompts that got anything.
 * 3. The prompt hook's time at 1,000 and 10,000 items against `node -e 0`, rounds alternating,
 *    and the pre-tool-use hook on an Edit (where the pre-edit recall runs) beside them.
 *
 *   npm run build && node --import tsx bench/context.bench.ts [--reps 15] [--sizes 100,1000,10000]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { SESSION_START_BUDGET } from '../src/hooks/session-start.ts';
import { sessionContext } from '../src/hooks/store-work.ts';
import { sessionStoreAt } from '../src/knowledge/core/location.ts';
import { argOf, benchEnv, CLI, fmt, seededRepo, stats, timeProcess } from './lib.ts';
import { loadCorpus, seedCorpusRepo } from './retrieval/corpus.ts';

const REPS = Number(argOf(process.argv, 'reps', '15'));
const SIZES = argOf(process.argv, 'sizes', '100,1000,10000').split(',').map(Number);
const SESSION_LEN = 10;
const env = benchEnv({ HOME: join(process.env.TMPDIR ?? '/tmp', 'axme-bench-home') });

/** Runs one hook event in `dir` with `payload`; its stdout. */
function hook(dir: string, event: string, payload: Record<string, unknown>): string {
  const r = spawnSync(process.execPath, [CLI, 'hook', event], {
    cwd: dir,
    env,
    input: JSON.stringify({ cwd: dir, transcript_path: '/tmp/bench.jsonl', ...payload }),
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`axme hook ${event} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}
const contextOf = (stdout: string): string =>
  stdout.trim() ? ((JSON.parse(stdout) as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput?.additionalContext ?? '') : '';
/** The characters of every decision file on refs/memory/main: what a load-everything start reads. */
function everything(dir: string): number {
  const names = execFileSync('git', ['-C', dir, 'ls-tree', '-r', '--name-only', 'refs/memory/main', 'decisions/'], { encoding: 'utf8', maxBuffer: 1 << 28 })
    .split('\n')
    .filter(Boolean);
  const blobs = execFileSync('git', ['-C', dir, 'cat-file', '--batch'], {
    input: names.map((n) => `refs/memory/main:${n}`).join('\n') + '\n',
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  return blobs.length;
}

console.log(`# Context delivery (node ${process.version})\n`);

// 1. the session start
console.log(
  '## Session start\n\n| decisions | injected at start (chars) | load everything (chars) | ratio | start hook (ms) |\n| ---: | ---: | ---: | ---: | --- |',
);
const big: Record<number, string> = {};
for (const n of SIZES) {
  const dir = seededRepo(n);
  big[n] = dir;
  const t0 = performance.now();
  let ctx: string;
  let note = '';
  try {
    ctx = contextOf(hook(dir, 'session-start', { session_id: `start-${n}`, hook_event_name: 'SessionStart', source: 'startup' }));
  } catch (err) {
    // the hook gives up at its deadline (25 s): the same context, assembled in this process, says what it would have injected
    note = ` (the hook gave up: ${(err as Error).message.split('\n')[0]!.slice(-60)}; measured in-process)`;
    const loc = sessionStoreAt(dir, env)!;
    ctx = (await sessionContext(loc, env, { budget: SESSION_START_BUDGET - 400, cwd: dir, self: null })).text;
  }
  const ms = performance.now() - t0;
  const all = everything(dir);
  console.log(
    `| ${n.toLocaleString('en')} | ${ctx.length.toLocaleString('en')} | ${all.toLocaleString('en')} | ${(all / ctx.length).toFixed(0)}× | ${fmt(ms)}${note} |`,
  );
}

// 2. per-prompt recall on the retrieval corpus
const { files, qrels, docs } = loadCorpus();
const corpus = seedCorpusRepo(files, qrels);
const titleOf = new Map(docs.map((d) => [d.id, d.title]));
const lineRe = /^- (decision|memory|backlog|question) (\S+) /gm;
let inContext = 0;
let byPrompt = 0;
/** prompts whose item an earlier prompt of the session gave: asked again in a fresh session */
const heldEarlier: typeof qrels.queries = [];
const missed: string[] = [];
let repeats = 0;
let maxChars = 0;
const chars: number[] = [];
const byKind = new Map<string, { n: number; hit: number }>();
const queries = qrels.queries;
for (let s = 0; s < queries.length; s += SESSION_LEN) {
  const session = `recall-${s}`;
  const seen = new Set<string>();
  let text = '';
  for (const q of queries.slice(s, s + SESSION_LEN)) {
    const ctx = contextOf(hook(corpus, 'user-prompt-submit', { session_id: session, hook_event_name: 'UserPromptSubmit', prompt: q.q }));
    chars.push(ctx.length);
    maxChars = Math.max(maxChars, ctx.length);
    for (const m of ctx.matchAll(lineRe)) {
      const key = `${m[1]} ${m[2]}`;
      if (seen.has(key)) repeats++;
      seen.add(key);
    }
    text += `\n${ctx}`;
    // the relevant item, by its title, as recall writes it after the id
    const wanted = q.relevant.map((id) => titleOf.get(id)!).filter(Boolean);
    const now = wanted.some((t) => ctx.includes(` ${t}`));
    const held = wanted.some((t) => text.includes(` ${t}`));
    if (now) byPrompt++;
    if (held) inContext++;
    if (held && !now) heldEarlier.push(q);
    if (!held) missed.push(`${q.kind}: "${q.q}" → ${wanted.join(' | ')}`);
    const k = byKind.get(q.kind) ?? { n: 0, hit: 0 };
    k.n++;
    if (held) k.hit++;
    byKind.set(q.kind, k);
  }
}
// what a fresh session would have got for the prompts whose item an earlier prompt gave
const fresh = heldEarlier.filter((q, i) => {
  const ctx = contextOf(hook(corpus, 'user-prompt-submit', { session_id: `fresh-${i}`, hook_event_name: 'UserPromptSubmit', prompt: q.q }));
  return q.relevant.some((id) => ctx.includes(` ${titleOf.get(id)}`));
}).length;
const UNRELATED = [
  'Please write a haiku about autumn leaves falling in the garden.',
  'What is the capital of France?',
  'fix the tests',
  'thanks, that looks good — commit it',
  'Why is the build slow on my laptop?',
];
const leaked = UNRELATED.filter(
  (p, i) => contextOf(hook(corpus, 'user-prompt-submit', { session_id: `unrelated-${i}`, hook_event_name: 'UserPromptSubmit', prompt: p })) !== '',
).length;
const injected = chars.filter((c) => c > 0);
const st = stats(injected.length ? injected : [0]);
console.log(`\n## Per-prompt recall (${docs.length} real ADRs, ${queries.length} paraphrased prompts, sessions of ${SESSION_LEN})\n`);
console.log(
  `- relevant item in the model's context (this prompt or earlier in the session): ${inContext}/${queries.length} = ${((100 * inContext) / queries.length).toFixed(1)} %`,
);
console.log(
  `- injected by that prompt itself: ${byPrompt}/${queries.length} = ${((100 * byPrompt) / queries.length).toFixed(1)} %; as the first prompt of a fresh session: ${byPrompt + fresh}/${queries.length} = ${((100 * (byPrompt + fresh)) / queries.length).toFixed(1)} %`,
);
console.log(`- by kind: ${[...byKind].map(([k, v]) => `${k} ${v.hit}/${v.n}`).join(', ')}`);
console.log(
  `- characters per prompt that injected something: median ${st.median}, p90 ${st.p90}, max ${maxChars}; prompts with nothing injected: ${chars.length - injected.length}`,
);
console.log(`- items injected twice within a session: ${repeats}`);
console.log(`- unrelated prompts that got anything: ${leaked}/${UNRELATED.length}`);
console.log(`- missed (${missed.length}):\n${missed.map((m) => `  - ${m}`).join('\n')}`);

// 3. the prompt hook's time at every size of 1,000 items or more, beside node -e 0 and the pre-edit hook at the largest, rounds alternating
const n = Math.max(...SIZES);
const timed = SIZES.filter((s) => s >= 1000);
const promptIn = (dir: string, i: number) =>
  JSON.stringify({
    session_id: `time-${i}`,
    transcript_path: '/tmp/bench.jsonl',
    cwd: dir,
    hook_event_name: 'UserPromptSubmit',
    prompt: `Which approach does component ${i % 97} use, and why?`,
  });
const editIn = (dir: string, i: number) =>
  JSON.stringify({
    session_id: `edit-${i}`,
    transcript_path: '/tmp/bench.jsonl',
    cwd: dir,
    hook_event_name: 'PreToolUse',
    tool_name: 'Edit',
    tool_input: { file_path: join(dir, 'src', `c${i}.ts`), old_string: 'a', new_string: 'b' },
  });
const node0: number[] = [];
const prompt = new Map<number, number[]>(timed.map((s) => [s, []]));
const edit: number[] = [];
// warm: the first prompt builds what later ones load (the search index, the anchor index)
for (const s of timed) await timeProcess(process.execPath, [CLI, 'hook', 'user-prompt-submit'], { cwd: big[s]!, env, input: promptIn(big[s]!, -1) });
await timeProcess(process.execPath, [CLI, 'hook', 'pre-tool-use'], { cwd: big[n]!, env, input: editIn(big[n]!, -1) });
for (let i = 0; i < REPS; i++) {
  node0.push(await timeProcess(process.execPath, ['-e', '0'], { cwd: big[n]!, env }));
  for (const s of timed)
    prompt.get(s)!.push(await timeProcess(process.execPath, [CLI, 'hook', 'user-prompt-submit'], { cwd: big[s]!, env, input: promptIn(big[s]!, i) }));
  edit.push(await timeProcess(process.execPath, [CLI, 'hook', 'pre-tool-use'], { cwd: big[n]!, env, input: editIn(big[n]!, i) }));
}
const a = stats(node0);
const c = stats(edit);
console.log(`\n## Hook time (${REPS} rounds, every row once a round in turn; median, p90 ms)\n`);
console.log('| process | median | p90 | × node -e 0 |\n| --- | ---: | ---: | ---: |');
console.log(`| node -e 0 | ${fmt(a.median)} | ${fmt(a.p90)} | 1.00 |`);
for (const s of timed) {
  const b = stats(prompt.get(s)!);
  console.log(`| axme hook user-prompt-submit, ${s.toLocaleString('en')} decisions | ${fmt(b.median)} | ${fmt(b.p90)} | ${(b.median / a.median).toFixed(2)} |`);
}
console.log(
  `| axme hook pre-tool-use (Edit, pre-edit recall), ${n.toLocaleString('en')} decisions | ${fmt(c.median)} | ${fmt(c.p90)} | ${(c.median / a.median).toFixed(2)} |`,
);

for (const d of [...Object.values(big), corpus]) rmSync(d, { recursive: true, force: true });

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runBench, runBenchJson } from './run-bench.ts';

type Report = { side: string; rss_mb: number; facts: Record<string, number> };

/**
 * The benchmarks are not run in CI; these only prove the harnesses still work end to end. Each
 * run is one process that mostly waits on the children it starts, so several run at once, the
 * longest first.
 */
describe('the benchmarks, each at a tiny size', { concurrency: 3 }, () => {
  test('the side-by-side benchmark runs every pair at a tiny size: medians, ratios, items kept, hit rates', { timeout: 600_000 }, async (t) => {
    type Side = { label: string; stats: { median: number }; samples: number[] };
    const { stdout, json } = await runBenchJson<{
      machine: { cores: number };
      results: Array<{ pair: string; measure: string; size: number; a: Side; b: Side; ratio: { median: number }; facts?: Record<string, string | number> }>;
    }>('compare.bench.ts', ['--sizes', '15', '--reps', '2', '--warmup', '0', '--adds', '3', '--writers', '2'], t.signal);
    assert.match(stdout, /^Side by side: .* node v\d+/m);
    assert.match(stdout, /\| pair \| items \| A \|/);
    assert.ok(json.machine.cores > 0);
    for (const pair of ['save', 'backends', 'concurrent', 'peer', 'hook', 'context']) {
      const rows = json.results.filter((row) => row.pair === pair);
      assert.ok(rows.length > 0, `${pair}: ${stdout}`);
      for (const row of rows) {
        assert.equal(row.size, 15);
        assert.ok(
          row.a.samples.length >= 2 && row.a.samples.length === row.b.samples.length,
          `${pair} ${row.measure}: A and B alternate the same number of rounds`,
        );
        assert.ok(row.a.stats.median > 0 && row.b.stats.median > 0 && row.ratio.median > 0, `${pair} ${row.measure}`);
      }
    }
    // 2 writers × 3 adds, each kept: the harness checks it too, and would have exited 1
    const concurrent = json.results.find((row) => row.pair === 'concurrent')!;
    assert.equal(concurrent.measure, '2 writers × 3 adds, until the last is done');
    assert.match(String(concurrent.facts!['axme kept']), /^6\/6 every run/);
    assert.match(String(concurrent.facts!['plumbing (retry) kept']), /^6\/6 every run/);
    // every exact-phrase query has its one answer in axme's top 5
    const query = json.results.find((row) => row.pair === 'peer' && row.measure === 'one query')!;
    const [hits, of] = String(query.facts!['axme hit@5 exact']).split('/').map(Number);
    assert.ok(of! > 0 && hits === of, `axme hit@5 exact ${hits}/${of}`);
  });

  test('the retrieval benchmark runs on two corpora (the second on 2 man pages and 2 READMEs) with a tiny latency store and reports every engine and measure', {
    timeout: 600_000,
  }, async (t) => {
    type Row = {
      engine: string;
      scores: { all: { queries: number; recallAt1: number; recallAt5: number; mrr: number; ndcgAt10: number } };
      warm?: { median: number };
    };
    const { stdout, json } = await runBenchJson<{
      quality: Row[];
      unseen: { sections: number; quality: Row[] };
      heldout: { sections: number; quality: Row[] };
      fresh: { sections: number; quality: Row[] };
      latency: Array<{ engine: string; size: number }>;
      // the held-out and fresh corpora are scored by the same code as the unseen one: left out here
    }>('retrieval.bench.ts', ['--size', '50', '--reps', '1', '--corpora', 'records,unseen', '--sources', '2'], t.signal);
    assert.match(stdout, /\| engine \| R@1 \| R@5 \| MRR \| nDCG@10 \|/);
    assert.match(stdout, /\| search latency \| items \|/);
    const engines = ['plain BM25', 'BM25 + Porter + stop words', 'BM25 (axme before)', 'MiniSearch 7.2.0', 'Orama 3.1.18', 'axme'];
    assert.deepEqual(
      json.quality.map((q) => q.engine),
      engines,
    );
    assert.ok(json.quality.every((q) => q.scores.all.queries >= 120));
    // the second corpus is read on this machine (git's man pages, node_modules READMEs): reported apart when present
    if (json.unseen.sections > 0) {
      assert.match(stdout, /^Unseen text: \d+ sections of git's man pages and 2 package READMEs, \d+ queries$/m);
      assert.deepEqual(
        json.unseen.quality.map((q) => q.engine),
        engines,
      );
      assert.ok(json.unseen.quality.every((q) => q.scores.all.queries > 0 && q.scores.all.ndcgAt10 >= 0 && q.scores.all.recallAt1 <= q.scores.all.recallAt5));
      assert.ok(json.unseen.quality.at(-1)!.warm!.median > 0, "axme's warm query time");
    }
    assert.deepEqual([json.heldout.sections, json.heldout.quality], [0, []]);
    assert.doesNotMatch(stdout, /^Held out/m);
    assert.deepEqual([json.fresh.sections, json.fresh.quality], [0, []]);
    assert.doesNotMatch(stdout, /^Fresh/m);
    assert.deepEqual(
      json.latency.map((l) => [l.engine, l.size]),
      [
        ['axme', 50],
        ['MiniSearch 7.2.0', 50],
      ],
    );
  });

  test('the retrieval benchmark scores the fresh corpus alone (its first man page and README), in its own table and JSON key', {
    timeout: 600_000,
  }, async (t) => {
    type Row = { engine: string; scores: Record<string, { queries: number; recallAt1: number; recallAt5: number }>; warm?: { median: number } };
    const { stdout, json } = await runBenchJson<{
      quality: Row[];
      unseen: { sections: number };
      heldout: { sections: number };
      fresh: { sections: number; queries: number; missing: string[]; quality: Row[] };
      latency: unknown[];
    }>('retrieval.bench.ts', ['--size', '0', '--reps', '1', '--corpora', 'fresh', '--sources', '1'], t.signal);
    assert.deepEqual([json.quality, json.unseen.sections, json.heldout.sections, json.latency], [[], 0, 0, []]);
    if (json.fresh.missing.length) return t.skip(`the fresh corpus's first sources are missing here: ${json.fresh.missing.join(', ')}`);
    assert.match(stdout, /^Fresh \(queries written before any engine ran on it\): \d+ sections of 1 man page and 1 package README, \d+ queries$/m);
    assert.deepEqual(
      json.fresh.quality.map((q) => q.engine),
      ['plain BM25', 'BM25 + Porter + stop words', 'BM25 (axme before)', 'MiniSearch 7.2.0', 'Orama 3.1.18', 'axme'],
    );
    for (const q of json.fresh.quality) {
      assert.equal(q.scores.all!.queries, json.fresh.queries);
      assert.ok(json.fresh.queries > 0 && q.scores.all!.recallAt1 <= q.scores.all!.recallAt5, q.engine);
      for (const kind of ['paraphrase', 'body', 'identifier', 'typo']) assert.ok(q.scores[kind], `${q.engine}: ${kind}`);
    }
    assert.ok(json.fresh.quality.at(-1)!.warm!.median > 0, "axme's warm query time");
  });

  test('the retrieval benchmark scores the FAQ corpus alone, seeded as answered questions and backlog items, in its own table and JSON key', {
    timeout: 600_000,
  }, async (t) => {
    type Row = { engine: string; scores: Record<string, { queries: number; recallAt1: number; recallAt5: number; mrr: number }>; warm?: { median: number } };
    const { stdout, json } = await runBenchJson<{
      quality: Row[];
      notes: { notes: number };
      faq: { entries: number; queries: number; quality: Row[] };
      latency: unknown[];
    }>('retrieval.bench.ts', ['--size', '0', '--reps', '1', '--corpora', 'faq'], t.signal);
    assert.deepEqual([json.quality, json.notes.notes, json.latency], [[], 0, []]);
    const m =
      /^FAQ \(queries written before any engine ran on it\): (\d+) FAQ entries as answered questions and (\d+) troubleshooting entries as backlog items, from \d+ repositories, (\d+) queries$/m.exec(
        stdout,
      );
    assert.ok(m, stdout);
    assert.ok(Number(m[1]) > 0 && Number(m[2]) > 0, 'both kinds are seeded');
    assert.equal(Number(m[1]) + Number(m[2]), json.faq.entries);
    assert.equal(Number(m[3]), json.faq.queries);
    assert.deepEqual(
      json.faq.quality.map((q) => q.engine),
      ['plain BM25', 'BM25 + Porter + stop words', 'BM25 (axme before)', 'MiniSearch 7.2.0', 'Orama 3.1.18', 'axme'],
    );
    for (const q of json.faq.quality) {
      assert.equal(q.scores.all!.queries, json.faq.queries);
      for (const kind of ['paraphrase', 'body', 'identifier', 'typo']) assert.ok(q.scores[kind]!.queries > 0, `${q.engine}: ${kind}`);
    }
    // questions and backlog items are searched: axme and the old BM25 (every kind) find most answers
    for (const engine of ['axme', 'BM25 (axme before)']) assert.ok(json.faq.quality.find((q) => q.engine === engine)!.scores.all!.recallAt5 > 0.5, engine);
    assert.ok(json.faq.quality.at(-1)!.warm!.median > 0, "axme's warm query time");
  });

  test('the sync benchmark runs at a tiny size and reports merges and sync rounds', { timeout: 600_000 }, async (t) => {
    const { stdout, json } = await runBenchJson<{ rows: Array<{ measure: string; stats: { median: number } }> }>(
      'sync.bench.ts',
      ['--size', '30', '--changes', '10', '--reps', '1'],
      t.signal,
    );
    for (const m of [
      'merge, 10 changed items per side, disjoint',
      'merge, 10 changed items per side, overlapping',
      'sync round: 3 clones',
      'one `axme sync`',
    ]) {
      assert.ok(
        json.rows.some((row) => row.measure.startsWith(m) && row.stats.median > 0),
        `${m}: ${stdout}`,
      );
    }
  });

  test('the team server benchmark runs small: the table, the JSON, nothing lost', { timeout: 600_000 }, async (t) => {
    const { stdout, json } = await runBenchJson<{
      clients: number;
      ops: number;
      phases: Array<{ name: string; acked: number; lost: number; fsck: boolean; searches: number }>;
    }>('serve-http.bench.ts', ['--clients', '2', '--ops', '3'], t.signal);
    for (const run of ['http load', 'http writes', 'http writes + flood', 'stdio fleet'])
      assert.match(stdout, new RegExp(`^\\| ${run.replace(/[+]/g, '\\+')} \\| 2 \\| 6 \\| \\d+ \\| 6/6 \\| 0 \\| clean \\|`, 'm'), `table row "${run}"`);
    assert.match(stdout, /HTTP writes\/s vs the stdio fleet's: /);
    assert.equal(json.clients, 2);
    assert.equal(json.ops, 3);
    assert.deepEqual(
      json.phases.map((p) => p.name),
      ['http load', 'http writes', 'http writes + flood', 'stdio fleet'],
    );
    assert.ok(json.phases.every((p) => p.acked === 6 && p.lost === 0 && p.fsck));
    assert.equal(json.phases[0]!.searches, 6);
  });

  test('the hook benchmark runs at a tiny size and reports the ratios to node -e 0', { timeout: 600_000 }, async (t) => {
    const { stdout, json } = await runBenchJson<{ rows: Array<{ measure: string; stats: { median: number }; ratio?: number }> }>(
      'hook.bench.ts',
      ['--reps', '1', '--warmup', '0', '--size', '10', '--guard-kb', '1'],
      t.signal,
    );
    const allowed = json.rows.find((row) => row.measure.startsWith('hook pre-tool-use, allowed'));
    const denied = json.rows.find((row) => row.measure.startsWith('hook pre-tool-use, denied'));
    for (const client of ['cursor', 'codex', 'gemini']) {
      const row = json.rows.find((x) => x.measure === `hook pre-tool-use --client ${client}, allowed`);
      assert.ok(row && row.ratio! > 0, `the ${client} adapter is measured`);
    }
    assert.ok(allowed && denied && allowed.ratio! > 0 && denied.ratio! > 0, stdout);
    assert.ok(stdout.includes('× node -e 0'));
    // the guard on a long script: what this build answered, with its CPU time
    assert.ok(
      json.rows.some((r) => r.measure.startsWith('hook pre-tool-use, a 1 KB script (this build): let through; CPU median')),
      stdout,
    );
  });

  test('the sandbox benchmark runs at a tiny size and reports each client, on and off, beside node -e 0', {
    timeout: 600_000,
    skip: !bwrapRuns() && 'bubblewrap cannot start a sandbox here',
  }, async (t) => {
    const { stdout, json } = await runBenchJson<{ rows: Array<{ measure: string; stats: { median: number }; ratio: number; overhead: number }> }>(
      'sandbox.bench.ts',
      ['--reps', '1', '--warmup', '0'],
      t.signal,
    );
    for (const m of ['Claude Code, sandbox off', 'Claude Code, sandbox on', 'Codex, sandbox on', 'Gemini CLI, sandbox on', 'the sandbox alone']) {
      const row = json.rows.find((r) => r.measure.startsWith(m));
      assert.ok(row && row.stats.median > 0 && row.ratio > 0, `${m} is measured: ${stdout}`);
    }
    assert.ok(stdout.includes('on top of the command'));
  });

  test('the start-up benchmark runs at a tiny size and reports the ratios to node -e 0 with their budgets', { timeout: 600_000 }, async (t) => {
    const { stdout, json } = await runBenchJson<{ rows: Array<{ measure: string; stats: { median: number }; ratio?: number; budget?: number }> }>(
      'startup.bench.ts',
      ['--reps', '1', '--warmup', '0', '--size', '5'],
      t.signal,
    );
    const read = json.rows.find((row) => row.measure.startsWith('read: axme decision list'));
    const write = json.rows.find((row) => row.measure.startsWith('write: axme decision add'));
    assert.ok(read && write && read.ratio! > 0 && write.ratio! > 0, stdout);
    assert.deepEqual([read.budget, write.budget], [2, 2.5]);
    assert.ok(
      json.rows.some((row) => row.measure.startsWith('read, no code cache') && row.stats.median > 0),
      stdout,
    );
    assert.ok(stdout.includes('× node -e 0'));
  });

  test("the git hooks benchmark runs at a tiny size and reports the hooks' extra time against node -e 0, with its budgets", { timeout: 600_000 }, async (t) => {
    const { stdout, json } = await runBenchJson<{
      pairs: Array<{ measure: string; extra: number; ratio: number; budget: number; with: { median: number }; without: { median: number } }>;
    }>('git-hooks.bench.ts', ['--reps', '1', '--warmup', '0'], t.signal);
    assert.deepEqual(
      json.pairs.map((p) => [p.measure, p.budget]),
      [
        ["a person's commit", 1],
        ["an agent's commit with its marker", 1.5],
        ["a person's push (pre-push)", 1],
        ["an agent's push (pre-push)", 1.5],
      ],
    );
    for (const p of json.pairs) assert.ok(p.with.median > 0 && p.without.median > 0 && Number.isFinite(p.ratio), stdout);
    assert.ok(stdout.includes('extra ÷ node -e 0'));
  });

  test('the store benchmark runs at a tiny size and reports every measure', { timeout: 600_000 }, async (t) => {
    const { stdout, json } = await runBenchJson<{ rows: Array<{ size: number; stats: { median: number } }> }>(
      'store.bench.ts',
      ['--sizes', '20', '--reps', '1'],
      t.signal,
    );
    for (const measure of [
      'add, in-process API (isogit, warm)',
      'add, CLI process (AXME_BACKEND=cli)',
      'list --json, cold process',
      'add, git plumbing script',
    ]) {
      assert.ok(stdout.includes(measure), `table has "${measure}"`);
    }
    assert.ok(json.rows.length >= 8);
    assert.ok(json.rows.every((row) => row.size === 20 && row.stats.median > 0));
  });

  test('the session benchmark runs at a tiny size and reports every measure', { timeout: 600_000 }, async (t) => {
    const { stdout, json } = await runBenchJson<{ rows: Array<{ measure: string; stats: { median: number } }> }>(
      'session.bench.ts',
      ['--reps', '1', '--sessions', '5'],
      t.signal,
    );
    for (const m of ['find the open session', 'hook post-tool-use', 'sweep with nothing to recover', 'recover one orphan']) {
      assert.ok(
        json.rows.some((row) => row.measure.startsWith(m) && row.stats.median > 0),
        `${m}: ${stdout}`,
      );
    }
  });

  test('the transcript benchmark runs at 1 MB: the table and the JSON, both sides in their own process', { timeout: 600_000 }, async (t) => {
    const { stdout, json } = await runBenchJson<{ mb: number; reps: number; reports: Record<'axme' | 'baseline', Report[]> }>(
      'transcript.bench.ts',
      ['--mb', '1', '--reps', '1'],
      t.signal,
    );
    for (const row of ['| A: axme |', '| B: baseline |', 'A/B per round']) assert.ok(stdout.includes(row), `output has "${row}"`);
    assert.equal(json.mb, 1);
    assert.equal(json.reports.axme.length, 1);
    assert.equal(json.reports.baseline.length, 1);
    const [a, b] = [json.reports.axme[0]!, json.reports.baseline[0]!];
    // the same file on both sides: every line seen, the one malformed line counted by both
    assert.equal(a.facts.lines, b.facts.lines);
    assert.equal(a.facts.malformed, 1);
    assert.equal(b.facts.malformed, 1);
    assert.ok(a.facts.chunks! >= 1 && a.facts.sidechain_entries! > 0 && a.facts.redactions! > 0, JSON.stringify(a.facts));
    assert.ok(a.rss_mb > 0 && b.rss_mb > 0);
  });

  test('the staleness benchmark runs at a tiny size: the table and the JSON', { timeout: 600_000 }, async (t) => {
    const { stdout, json } = await runBenchJson<{ commits: number; items: number; rows: Array<{ measure: string; stale: number }> }>(
      'verify.bench.ts',
      ['--commits', '60', '--items', '12', '--files', '20', '--reps', '1'],
      t.signal,
    );
    for (const measure of ['axme verify, first run', 'axme verify, cold', 'axme verify, warm', 'naive: git log'])
      assert.ok(stdout.includes(`| ${measure}`), `table has "${measure}"`);
    assert.equal(json.commits, 60);
    assert.equal(json.items, 12);
    assert.equal(json.rows.length, 4);
  });

  test('the search-model benchmark runs at a tiny size and measures words only beside words + model', { timeout: 600_000 }, async (t) => {
    const { stdout, json } = await runBenchJson<{ rows: Array<{ measure: string; words: { median: number } | null; model: { median: number } }> }>(
      'search-model.bench.ts',
      ['--size', '20', '--reps', '1'],
      t.signal,
    );
    for (const measure of ['load the model', 'warm query', 'first query after a write'])
      assert.ok(
        json.rows.some((r) => r.measure.startsWith(measure) && r.model.median > 0),
        `${measure}: ${stdout}`,
      );
    assert.ok(json.rows.find((r) => r.measure === 'warm query')!.words!.median > 0);
  });

  test('the hook, sandbox, start-up, git hooks, store, session, sync and retrieval benchmarks refuse a number (or a corpus name) they cannot use with a usage error, before they run anything', async () => {
    const out = mkdtempSync(join(tmpdir(), 'axme-bench-out-'));
    try {
      const cases = [
        ['hook.bench.ts', ['--reps', 'x'], /^hook\.bench: --reps takes a whole number of at least 1; got x$/m],
        ['hook.bench.ts', ['--size', '1.5'], /^hook\.bench: --size takes a whole number of at least 0; got 1\.5$/m],
        ['hook.bench.ts', ['--guard-kb', '1,big'], /^hook\.bench: --guard-kb takes whole numbers of at least 1, comma-separated .*; got 1,big$/m],
        ['hook.bench.ts', ['--warmup', 'some'], /^hook\.bench: --warmup takes a whole number of at least 0; got some$/m],
        ['startup.bench.ts', ['--warmup', '-1'], /^startup\.bench: --warmup takes a whole number of at least 0; got -1$/m],
        ['git-hooks.bench.ts', ['--warmup', '1.5'], /^git-hooks\.bench: --warmup takes a whole number of at least 0; got 1\.5$/m],
        ['sandbox.bench.ts', ['--reps', '0'], /^sandbox\.bench: --reps takes a whole number of at least 1; got 0$/m],
        ['sandbox.bench.ts', ['--warmup', 'x'], /^sandbox\.bench: --warmup takes a whole number of at least 0; got x$/m],
        ['store.bench.ts', ['--sizes', '20,many'], /^store\.bench: --sizes takes whole numbers of at least 0, comma-separated .*; got 20,many$/m],
        ['session.bench.ts', ['--sessions', '-5'], /^session\.bench: --sessions takes a whole number of at least 0; got -5$/m],
        ['sync.bench.ts', ['--reps', 'x'], /^sync\.bench: --reps takes a whole number of at least 1; got x$/m],
        ['retrieval.bench.ts', ['--sources', '0'], /^retrieval\.bench: --sources takes a whole number of at least 1; got 0$/m],
        [
          'retrieval.bench.ts',
          ['--corpora', 'fresh,nope'],
          /^retrieval\.bench: --corpora takes names from records, unseen, heldout, fresh, notes, faq, comma-separated; got fresh,nope$/m,
        ],
      ] as const;
      const runs = await Promise.all(cases.map(([script, args]) => runBench(script, [...args, '--out', out])));
      for (const [i, [script, args, says]] of cases.entries()) {
        assert.equal(runs[i]!.status, 2, `${script} ${args.join(' ')}: ${runs[i]!.stderr}`);
        assert.match(runs[i]!.stderr, says);
      }
      assert.deepEqual(readdirSync(out), [], 'nothing written');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  test('the side-by-side benchmark refuses an unknown pair or a bad size with a usage error', async () => {
    const out = mkdtempSync(join(tmpdir(), 'axme-bench-out-'));
    try {
      const cases = [
        [['--only', 'nope'], /no pair nope \(pairs: save, backends/],
        [['--sizes', '10,ten'], /--sizes/],
        [['--reps', '0'], /--reps/],
        [['--warmup', 'x'], /--warmup takes a whole number of untimed rounds, at least 0; got x/],
      ] as const;
      const runs = await Promise.all(cases.map(([args]) => runBench('compare.bench.ts', [...args, '--out', out])));
      for (const [i, [args, says]] of cases.entries()) {
        assert.equal(runs[i]!.status, 2, `${args.join(' ')}: ${runs[i]!.stderr}`);
        assert.match(runs[i]!.stderr, says);
      }
      assert.deepEqual(readdirSync(out), [], 'nothing written');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  test('the team server benchmark refuses an unknown option with exit 2', async () => {
    const [r, many] = await Promise.all([runBench('serve-http.bench.ts', ['--clientz', '5']), runBench('serve-http.bench.ts', ['--ops', 'many'])]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /unknown option/);
    assert.equal(many.status, 2);
  });

  test('the transcript benchmark refuses an unknown option or a bad value with exit 2', async () => {
    const [r, big, none] = await Promise.all([
      runBench('transcript.bench.ts', ['--size', '5']),
      runBench('transcript.bench.ts', ['--mb', 'big']),
      runBench('transcript.bench.ts', ['--reps', '0']),
    ]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /unknown option/);
    assert.equal(big.status, 2);
    assert.equal(none.status, 2);
  });

  test('the staleness benchmark refuses an unknown option with exit 2', async () => {
    const [r, many] = await Promise.all([runBench('verify.bench.ts', ['--commitz', '5']), runBench('verify.bench.ts', ['--items', 'many'])]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /unknown option/);
    assert.equal(many.status, 2);
  });
});

function bwrapRuns(): boolean {
  return spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--', '/bin/true']).status === 0;
}

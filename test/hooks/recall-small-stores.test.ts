/**
 * The prompt recall in small and single-topic stores: an item exactly on topic is recalled though
 * its score, an IDF sum, is small where every word is in few documents (a fixed floor of 9 once
 * recalled nothing there), and a prompt about nothing in the store still recalls nothing
 * (src/knowledge/views/recall-prompt.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { backlogAdd } from '../../src/operations/backlog/writes.ts';
import { decisionAdd } from '../../src/operations/decision/add.ts';
import { memoryAdd } from '../../src/operations/memory/add.ts';
import { initCore } from '../core.ts';
import { tempRepo } from '../helpers.ts';
import { cliText } from '../store-fixture.ts';
import { hookBinary } from './hook-in-process.ts';

const UNRELATED = [
  'fix the typo in the README',
  'What is the capital of France?',
  'thanks, that looks good — commit it',
  'Please write a haiku about autumn leaves.',
];

/** A repository with axme initialised and `fill` run on it; its folder, environment and cleanup. */
async function store(fill: (dir: string, env: NodeJS.ProcessEnv) => Promise<void>) {
  const repo = tempRepo({ commit: true });
  const home = mkdtempSync(join(tmpdir(), 'axme-home-'));
  const env = { HOME: home };
  await initCore(repo.dir, {}, { env });
  await fill(repo.dir, env);
  return {
    dir: repo.dir,
    env,
    cleanup: () => {
      repo.cleanup();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** What the prompt hook injects for `prompt` in `dir`, as Claude Code runs it; null when nothing. */
async function recalled(w: { dir: string; env: NodeJS.ProcessEnv }, prompt: string, session: string): Promise<string | null> {
  const r = await hookBinary('user-prompt-submit', {
    cwd: w.dir,
    env: { ...w.env, CLAUDECODE: '1' },
    input: JSON.stringify({ session_id: session, cwd: w.dir, hook_event_name: 'UserPromptSubmit', prompt }),
  });
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.trim() === '' ? null : ((JSON.parse(r.stdout).hookSpecificOutput?.additionalContext as string | undefined) ?? null);
}

describe('prompt recall in a store of three items', () => {
  let w: Awaited<ReturnType<typeof store>>;
  before(async () => {
    w = await store(async (dir, env) => {
      await cliText(dir, decisionAdd, { title: 'Postgres index naming', decision: 'Name Postgres indexes idx_<table>_<columns>.' }, { env });
      await cliText(dir, decisionAdd, { title: 'Use Redis for caching', decision: 'Cache in Redis.' }, { env });
      await cliText(dir, backlogAdd, { title: 'Add dark mode' }, { env });
    });
  });
  after(() => w.cleanup());

  test('a prompt about the one item on topic recalls it, and only it', async () => {
    for (const [i, prompt] of ['How should I name the new Postgres indexes?', 'Postgres index naming'].entries()) {
      const text = await recalled(w, prompt, `small-${i}`);
      assert.ok(text, `nothing recalled for ${prompt}`);
      assert.match(text, /D-001 Postgres index naming/);
      assert.doesNotMatch(text, /Redis|dark mode/);
    }
  });

  test('prompts about nothing in the store recall nothing', async () => {
    for (const [i, prompt] of UNRELATED.entries()) assert.equal(await recalled(w, prompt, `small-none-${i}`), null, prompt);
  });
});

describe('prompt recall in a store of fifteen memories on one topic', () => {
  let w: Awaited<ReturnType<typeof store>>;
  const topics = [
    'rollback',
    'locking',
    'backfill',
    'naming',
    'ordering',
    'squashing',
    'review',
    'timeouts',
    'indexes',
    'seeds',
    'enums',
    'renames',
    'drops',
    'defaults',
    'testing',
  ];
  before(async () => {
    w = await store(async (dir, env) => {
      for (const t of topics)
        await cliText(
          dir,
          memoryAdd,
          { type: 'pattern', title: `Database migration ${t}`, description: `How a database migration handles ${t}: the team's way, with the migration tool.` },
          { env },
        );
    });
  });
  after(() => w.cleanup());

  test('a prompt about one of them recalls it', async () => {
    const text = await recalled(w, 'How do we handle rollback in a database migration?', 'topic-1');
    assert.ok(text, 'nothing recalled');
    assert.match(text, /Database migration rollback/);
  });

  test('prompts about nothing in the store recall nothing', async () => {
    for (const [i, prompt] of UNRELATED.entries()) assert.equal(await recalled(w, prompt, `topic-none-${i}`), null, prompt);
  });
});

describe('prompt recall when the prompt says more than the item', () => {
  let w: Awaited<ReturnType<typeof store>>;
  before(async () => {
    w = await store(async (dir, env) => {
      await cliText(
        dir,
        decisionAdd,
        {
          title: 'Money is stored in integer cents',
          decision: 'Every amount is an integer number of cents in the database and in the API; never a float. Currency is a separate ISO 4217 column.',
        },
        { env },
      );
      await cliText(
        dir,
        memoryAdd,
        {
          type: 'feedback',
          title: 'Run migrations against a local Postgres before pushing',
          description: 'The user wants every new migration applied to a local Postgres and rolled back once before it is pushed.',
        },
        { env },
      );
      await cliText(dir, backlogAdd, { title: 'PDF export of invoices', description: 'Customers want to download an invoice as a PDF.' }, { env });
    });
  });
  after(() => w.cleanup());

  // bench/recall-small.bench.ts: an on-topic prompt's words the store lacks ("discount", "type",
  // "prices") raised what the item had to score past what it did (0.48 of the prompt's worth)
  test('a question in its own words about the one item on topic recalls it', async () => {
    const text = await recalled(w, 'Should the discount amount be a float, or what type do we use for prices?', 'more-1');
    assert.ok(text, 'nothing recalled');
    assert.match(text, /D-001 Money is stored in integer cents/);
    assert.doesNotMatch(text, /PDF export|local Postgres/);
  });

  test('prompts about nothing in the store recall nothing', async () => {
    for (const [i, prompt] of UNRELATED.entries()) assert.equal(await recalled(w, prompt, `more-none-${i}`), null, prompt);
  });
});

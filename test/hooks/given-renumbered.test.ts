import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { mutate } from '../../src/knowledge/core/mutate.ts';
import { itemPath } from '../../src/model/paths.ts';
import { decisionAdd } from '../../src/operations/decision/add.ts';
import { withCore } from '../core.ts';
import { git } from '../helpers.ts';
import { cliJson } from '../store-fixture.ts';
import { hookInProcess, loadBuiltHook } from './hook-in-process.ts';
import { recallWorld } from './recall-world.ts';

/**
 * What a session was given is kept by an item's file name, never by its display ID: a sync can
 * renumber an item in the middle of a session (two clones both numbered a newcomer D-007), and
 * then another item holds the ID the session was given. That item is news to the session: the
 * start's list, a prompt's recall and a pre-edit recall each hand it over, and the renumbered item
 * is not handed over again under its new ID.
 */

describe('a session given an item that is renumbered meanwhile', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let dbId: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, env, dbId, cleanup } = await recallWorld([
      ['Render dates in UTC on the billing page', 'Invoices show dates in UTC with the zone named.'],
      ['Feature flags live in LaunchDarkly', 'No homegrown flag tables.'],
      ['Logs are structured JSON', 'Use the pino logger; no console.log in services.'],
      ['Release notes are written by hand', 'Each release gets a human summary in CHANGELOG.md.'],
      ['Images are served from the CDN', 'Upload to the bucket; the CDN serves them.'],
    ]));
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'src', 'cache.ts'), 'export const cache = 1;\n');
    await loadBuiltHook();
  });
  after(() => cleanup());

  const contextOf = (stdout: string): string | null =>
    stdout.trim() === ''
      ? null
      : ((JSON.parse(stdout) as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput?.additionalContext ?? null);
  const hook = async (event: 'user-prompt-submit' | 'session-start' | 'pre-tool-use', session: string, fields: Record<string, unknown>) => {
    const name = { 'user-prompt-submit': 'UserPromptSubmit', 'session-start': 'SessionStart', 'pre-tool-use': 'PreToolUse' }[event];
    const r = await hookInProcess(event, {
      cwd: dir,
      env,
      input: JSON.stringify({ session_id: session, transcript_path: '/tmp/t.jsonl', cwd: dir, hook_event_name: name, ...fields }),
    });
    assert.equal(r.code, 0, r.stderr);
    return contextOf(r.stdout);
  };
  const prompt = (session: string, text: string) => hook('user-prompt-submit', session, { prompt: text });

  /** Adds a decision, then swaps its display ID with `holder`'s, as a sync's renumbering leaves two items; returns the new one's (old) ID and title. */
  async function newcomerTaking(holder: string, title: string, text: string, anchors: string[] = []): Promise<{ id: string; title: string }> {
    const added = await cliJson(dir, decisionAdd, { title, decision: text, anchors }, { env });
    const newId = (added.id ?? added.item?.id ?? added.decision?.id) as string;
    await withCore(
      dir,
      (kb) =>
        mutate(kb, (state) => {
          const files = new Map<string, string>();
          for (const d of state.items.decision) {
            if (d.id !== holder && d.id !== newId) continue;
            const path = itemPath('decision', d.slug);
            const now = git(dir, ['show', `refs/memory/main:${path}`]);
            files.set(path, now.replace(/^id: .*$/m, `id: ${d.id === holder ? newId : holder}`));
          }
          assert.equal(files.size, 2);
          return { result: null, files, subject: 'test: a sync renumbered two decisions' };
        }),
      { env },
    );
    return { id: holder, title };
  }

  test("a prompt's recall: the item now holding a given ID is recalled, the renumbered one is not given again", async () => {
    assert.ok((await prompt('r-1', 'The postgres connection pool leaks clients, can you fix the pooling?'))?.includes(dbId));
    const was = dbId;
    const news = await newcomerTaking(
      was,
      'Cache invalidation goes through Redis pub/sub',
      'Every cache eviction is published on the redis channel cache:evict.',
    );
    dbId = git(dir, ['show', 'refs/memory/main:decisions/use-connection-pooling-for-postgres.md']).match(/^id: (.*)$/m)![1]!;
    assert.notEqual(dbId, was);
    const ctx = await prompt('r-1', 'How does cache invalidation with redis pub/sub eviction work?');
    assert.ok(ctx?.includes(`decision ${news.id} ${news.title}`), `the item now ${news.id} is news to the session: ${ctx}`);
    assert.equal(
      await prompt('r-1', 'The postgres connection pool leaks clients again, fix the pooling'),
      null,
      'the pool decision was given, under its old ID',
    );
  });

  test("the start's list: an item that takes a listed ID after the start is recalled", async () => {
    const start = await hook('session-start', 's-1', { source: 'startup' });
    assert.ok(start?.includes(dbId), 'the start lists the pool decision');
    const was = dbId;
    const news = await newcomerTaking(was, 'Queue jobs with BullMQ', 'Background jobs go through BullMQ queues on the shared redis; no cron scripts.');
    dbId = git(dir, ['show', 'refs/memory/main:decisions/use-connection-pooling-for-postgres.md']).match(/^id: (.*)$/m)![1]!;
    const ctx = await prompt('s-1', 'Where should background jobs be queued, BullMQ queues or cron scripts?');
    assert.ok(ctx?.includes(`decision ${news.id} Queue jobs with BullMQ`), `listed ID ${news.id} now names another item: ${ctx}`);
  });

  test('a pre-edit recall: an anchored item that takes a given ID is shown at its own file', async () => {
    const edit = (file: string) =>
      hook('pre-tool-use', 'e-1', { tool_name: 'Edit', tool_input: { file_path: join(dir, file), old_string: 'a', new_string: 'b' } });
    assert.ok((await edit('src/db.ts'))?.includes(dbId));
    const news = await newcomerTaking(dbId, 'The cache module wraps ioredis', 'src/cache.ts is the only place that talks to redis.', ['src/cache.ts']);
    const ctx = await edit('src/cache.ts');
    assert.ok(ctx?.includes(`${news.id} The cache module wraps ioredis`), `the item anchored to src/cache.ts: ${ctx}`);
  });
});

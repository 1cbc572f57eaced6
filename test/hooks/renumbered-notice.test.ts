/**
 * A sync that renumbers a display ID in the middle of a session: the session may have been given
 * the old ID (the start's list, a recall, the agent's own `decision add`), which now names the
 * teammate's item. Its next prompt is told, once, which item moved to which ID; a session begun
 * after the sync is not (it was given the new IDs).
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { RENUMBERED_HEADER } from '../../src/hooks/renumbered-notice.ts';
import { coreAt } from '../core.ts';
import { teamOfTwo } from '../knowledge/fixture-copies.ts';
import { hookInProcess, loadBuiltHook } from './hook-in-process.ts';

const team = teamOfTwo('axme-renumbered-notice-', async (A) => {
  await A.addDecision({ title: 'Migrations are reviewed', decision: 'Every migration goes through a pull request.' });
});

/** The context Claude Code's prompt hook adds in `dir` for session `session` (null: none). */
async function promptContext(dir: string, session: string, prompt: string): Promise<string | null> {
  const r = await hookInProcess('user-prompt-submit', {
    cwd: dir,
    input: JSON.stringify({ session_id: session, transcript_path: '/tmp/t.jsonl', cwd: dir, hook_event_name: 'UserPromptSubmit', prompt }),
  });
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.trim() === ''
    ? null
    : ((JSON.parse(r.stdout) as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput?.additionalContext ?? null);
}

describe("a sync renumbers this clone's new decision while a session is open", () => {
  before(() => loadBuiltHook());

  test("the session's next prompt says which item moved to which ID, once; a session begun after the sync is not told", async () => {
    const { a, b } = await team();
    const prompt = 'How are schema migrations reviewed before they merge?';
    // the session begins, then the agent records a decision here while a teammate publishes one with the same next ID
    await promptContext(b, 'open-1', prompt);
    const mine = await coreAt(b).addDecision({ title: 'Cache sessions in Redis', decision: 'Session data lives in redis with a one-hour TTL.' });
    await coreAt(a).addDecision({ title: 'Publish domain events on Kafka', decision: 'Services publish their domain events to kafka topics.' });
    await coreAt(a).sync();
    const synced = await coreAt(b).sync();
    const moved = synced.merges.flatMap((m) => m.renumbered);
    assert.deepEqual(
      moved.map((r) => `${r.path} ${r.from}`),
      [`decisions/cache-sessions-in-redis.md ${mine.item.id}`],
      'the clone renumbered its own newcomer',
    );
    const to = moved[0]!.to;

    const ctx = (await promptContext(b, 'open-1', 'Where is session data cached, and for how long?')) ?? '';
    assert.ok(ctx.startsWith(RENUMBERED_HEADER), `the notice, before any recall: ${ctx}`);
    assert.ok(ctx.includes(`- ${mine.item.id} is now ${to}: Cache sessions in Redis (decisions/cache-sessions-in-redis.md)`), ctx);

    const again = await promptContext(b, 'open-1', prompt);
    assert.ok(!again?.includes(RENUMBERED_HEADER), `told once: ${again}`);

    const later = await promptContext(b, 'later-1', prompt);
    assert.ok(!later?.includes(RENUMBERED_HEADER), `a session begun after the sync was given the new IDs: ${later}`);
  });

  test('a sync that renumbers nothing tells nothing', async () => {
    const { a, b } = await team();
    const prompt = 'How are schema migrations reviewed before they merge?';
    await promptContext(b, 'calm-1', prompt);
    await coreAt(a).addDecision({ title: 'Publish domain events on Kafka', decision: 'Services publish their domain events to kafka topics.' });
    await coreAt(a).sync();
    assert.equal((await coreAt(b).sync()).integrated, 'fast-forward');
    const ctx = await promptContext(b, 'calm-1', 'Which topics do services publish domain events to?');
    assert.ok(!ctx?.includes(RENUMBERED_HEADER), `${ctx}`);
  });
});

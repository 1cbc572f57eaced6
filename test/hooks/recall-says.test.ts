import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { memoryAdd } from '../../src/operations/memory/add.ts';
import { questionAsk } from '../../src/operations/question/writes.ts';
import { cliText } from '../store-fixture.ts';
import { hookInProcess, loadBuiltHook } from './hook-in-process.ts';
import { recallWorld } from './recall-world.ts';

/**
 * A recalled item's line says what the item says, after its title: the search's snippet is the
 * line with the most words of the prompt, and the title has them as often as not — the line then
 * said the title twice and the decision's statement never reached the model.
 */

/** Items whose titles carry the words a prompt about them uses: [title, what it says, the prompt]. */
const ITEMS: ReadonlyArray<readonly [string, string, string]> = [
  ['Gift cards expire after a year', 'A card bought today is void 365 days later; the balance is forfeited.', 'When do gift cards expire?'],
  ['Courier tracking number format', 'Tracking numbers are stored as opaque strings, never parsed.', 'What tracking number format does the courier use?'],
  ['Warehouse stock reservation', 'A reservation holds stock for fifteen minutes, then returns it.', 'How long does a warehouse stock reservation last?'],
];
const MEMORIES: ReadonlyArray<readonly [string, string, string]> = [
  ['Thumbnail webp quality', 'Encode at quality 80; lower shows banding on gradients.', 'Which webp quality for a thumbnail?'],
];

/** Questions asked with no context: their question is their title, and all they say. */
const QUESTIONS = ['Who owns the parcel locker integration?', 'Should invoices keep refund history for a year?'];

describe('recall: a line says what the item says', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let cleanup: () => void;
  before(async () => {
    ({ dir, env, cleanup } = await recallWorld(
      [
        ['Feature flags live in LaunchDarkly', 'No homegrown flag tables.'],
        ['Logs are structured JSON', 'Use the pino logger; no console.log in services.'],
        ['Release notes are written by hand', 'Each release gets a human summary in CHANGELOG.md.'],
      ],
      ITEMS.map(([title, decision]) => ({ title, decision })),
    ));
    for (const [title, description] of MEMORIES) await cliText(dir, memoryAdd, { type: 'pattern', title, description }, { env });
    for (const q of QUESTIONS) await cliText(dir, questionAsk, { question: q }, { env });
    await loadBuiltHook();
  });
  after(() => cleanup());

  const prompt = async (session: string, text: string): Promise<string> => {
    const r = await hookInProcess('user-prompt-submit', {
      cwd: dir,
      env,
      input: JSON.stringify({ session_id: session, cwd: dir, hook_event_name: 'UserPromptSubmit', prompt: text }),
    });
    assert.equal(r.code, 0, r.stderr);
    return r.stdout.trim() ? (JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string) : '';
  };

  for (const [i, [title, says, asked]] of [...ITEMS, ...MEMORIES].entries()) {
    test(`"${asked}" recalls "${title}" with what it says`, async () => {
      const ctx = await prompt(`says-${i}`, asked);
      const line = ctx.split('\n').find((l) => l.includes(` ${title}`));
      assert.ok(line, `not recalled:\n${ctx}`);
      assert.ok(line.endsWith(`${title}: ${says}`), `the line says: ${line}`);
    });
  }

  for (const [i, q] of QUESTIONS.entries()) {
    test(`"${q}" is recalled once on its line, not twice`, async () => {
      const ctx = await prompt(`asks-${i}`, q);
      const line = ctx.split('\n').find((l) => l.includes(q));
      assert.ok(line, `not recalled:\n${ctx}`);
      assert.equal(line.split(q).length - 1, 1, `the line says: ${line}`);
    });
  }
});

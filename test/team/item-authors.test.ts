import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axmeIn, axmeInOk } from '../cli-in-process.ts';
import { type Person, twoPeople } from '../team-clones.ts';

/**
 * After a sync brings a teammate's items, a reader can tell whose is whose: `axme <kind> show`
 * says who wrote an item — the git identity of the commit that added its file, on the clone that
 * wrote it — in `--json` (`written_by`) and as a line on stderr; a merge that brings the item in
 * does not make it the merger's (real git: a bare remote, two clones with their own HOME and
 * identity).
 */

const root = mkdtempSync(join(tmpdir(), 'axme-item-authors-'));
after(() => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

let ann: Person;
let bob: Person;
const run = (p: Person, args: string[]) => axmeInOk(p.dir, args, { env: p.env });

before(async () => {
  [ann, bob] = (await twoPeople(root)).people;
  await run(ann, ['decision', 'add', '--title', 'Use Postgres for orders', '--decision', 'Orders live in Postgres.', '--reasoning', 'Transactions.']);
  await run(ann, ['memory', 'add', '--title', 'Run migrations by hand', '--description', 'never on boot', '--type', 'feedback']);
  await run(bob, ['decision', 'add', '--title', 'Use NATS for events', '--decision', 'Events go through NATS.', '--reasoning', 'Fan-out.']);
  await run(bob, ['backlog', 'add', '--title', 'Retry failed webhooks']);
  await run(bob, ['question', 'ask', 'Which region hosts the queue?']);
  // diverged on both sides: bob's sync merges, ann's fast-forwards over bob's merge
  await run(ann, ['sync']);
  await run(bob, ['sync']);
  await run(ann, ['sync']);
});

const json = async (p: Person, args: string[]) => run(p, [...args, '--json']);

describe('who wrote an item, after a sync', () => {
  const rows: Array<[string, string[], 'ann' | 'bob']> = [
    ["ann's decision", ['decision', 'show', 'use-postgres-for-orders'], 'ann'],
    ["bob's decision", ['decision', 'show', 'use-nats-for-events'], 'bob'],
    ["ann's memory", ['memory', 'show', 'run-migrations-by-hand'], 'ann'],
    ["bob's backlog item", ['backlog', 'show', 'retry-failed-webhooks'], 'bob'],
    ["bob's question", ['question', 'show', 'which-region-hosts-the-queue'], 'bob'],
  ];
  for (const [name, args, who] of rows)
    test(`${name} is theirs on both clones`, async () => {
      const person = who === 'ann' ? ann : bob;
      for (const reader of [ann, bob]) {
        const shown = await json(reader, args);
        assert.equal(shown.written_by?.email, person.email, `${reader.name} reads ${args.join(' ')}: ${JSON.stringify(shown.written_by)}`);
        assert.equal(shown.written_by?.name, person.name);
        assert.match(shown.written_by?.commit ?? '', /^[0-9a-f]{40}$/);
      }
    });

  test('the text form says it on stderr, the stored file stays the answer on stdout', async () => {
    const r = await axmeIn(ann.dir, ['decision', 'show', 'use-nats-for-events'], { env: ann.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /written by Bob Baker <bob@example\.com> in [0-9a-f]{12}/);
    assert.doesNotMatch(r.stdout, /written by/);
  });

  test("an edit by the other person leaves the item its writer's", async () => {
    await run(ann, ['backlog', 'update', 'retry-failed-webhooks', '--status', 'in-progress']);
    const shown = await json(ann, ['backlog', 'show', 'retry-failed-webhooks']);
    assert.equal(shown.status, 'in-progress');
    assert.equal(shown.written_by?.email, bob.email);
  });
});

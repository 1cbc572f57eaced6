import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axmeIn, axmeInOk } from '../cli-in-process.ts';
import { githubStandIn } from '../github-server.ts';
import { git } from '../helpers.ts';
import { type Person, twoPeople } from '../team-clones.ts';

/**
 * A teammate's open proposal is seen from the other clone: `axme propose` pushes
 * `axme/proposals/<name>` and opens a pull request; after a sync (or a plain `git fetch`) the other
 * clone's `axme status` lists it, and `axme diff --proposal <name>` shows its semantic diff; once
 * it is adopted it is open no more (real git: a bare remote, two clones with their own HOME and
 * identity; GitHub's API is a local stand-in).
 */

const root = mkdtempSync(join(tmpdir(), 'axme-remote-proposals-'));
after(() => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

let ann: Person;
let bob: Person;
let remote: string;
let gh: Awaited<ReturnType<typeof githubStandIn>>;
const envOf = (p: Person) => ({ ...p.env, GITHUB_API_URL: gh.url, GITHUB_TOKEN: 'test-token' });
const run = (p: Person, args: string[]) => axmeInOk(p.dir, args, { env: envOf(p) });

before(async () => {
  gh = await githubStandIn({
    'POST /repos/acme/app/pulls': (_req, _body, hit) => ({
      status: 201,
      json: { number: 40 + hit, html_url: `https://github.com/acme/app/pull/${40 + hit}`, state: 'open' },
    }),
  });
  ({
    remote,
    people: [ann, bob],
  } = await twoPeople(root));
  await run(ann, ['decision', 'add', '--title', 'Cache sessions in Valkey', '--decision', 'Sessions are cached in Valkey.', '--reasoning', 'Latency.']);
  await run(ann, ['propose', '--repo', 'acme/app', '--title', 'Session caching', '--name', 'session-caching']);
});
after(() => gh?.close());

describe("a teammate's open proposal, seen from the other clone", () => {
  test('before any fetch, bob sees none', async () => {
    const s = await run(bob, ['status', '--json']);
    assert.deepEqual(s.proposals, []);
  });

  test("after bob's sync, his status lists ann's proposal (a teammate's, no PR number known here) and ann's lists it as hers with its PR", async () => {
    await run(bob, ['sync']);
    const s = await run(bob, ['status', '--json']);
    assert.equal(s.proposals.length, 1, JSON.stringify(s.proposals));
    assert.deepEqual(
      { remote: s.proposals[0].remote, name: s.proposals[0].name, branch: s.proposals[0].branch, mine: s.proposals[0].mine, pr: s.proposals[0].pr },
      { remote: 'origin', name: 'session-caching', branch: 'axme/proposals/session-caching', mine: false, pr: null },
    );
    assert.equal(s.proposals[0].tip, git(remote, ['rev-parse', 'refs/heads/axme/proposals/session-caching']).trim());
    const text = await run(bob, ['status']);
    assert.match(text, /open proposal origin: axme\/proposals\/session-caching \(a teammate's\): axme diff --proposal session-caching/);

    // ann's own clone, after a plain fetch (a sync would share her refs/memory/main, the proposal's source, directly)
    git(ann.dir, ['fetch', '-q', 'origin']);
    const mine = await run(ann, ['status', '--json']);
    assert.equal(mine.proposals.length, 1, JSON.stringify(mine.proposals));
    assert.equal(mine.proposals[0].pr, 41);
    assert.equal(mine.proposals[0].mine, true);
  });

  test("bob reads its semantic diff locally: ann's decision added", async () => {
    const d = await run(bob, ['diff', '--proposal', 'session-caching', '--json']);
    assert.deepEqual(
      d.items.map((i: { change: string; title: string }) => `${i.change} ${i.title}`),
      ['added Cache sessions in Valkey'],
    );
    assert.equal(d.toName, 'refs/remotes/origin/axme/proposals/session-caching');
    const missing = await axmeIn(bob.dir, ['diff', '--proposal', 'no-such-thing'], { env: envOf(bob) });
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /no proposal no-such-thing/);
  });

  test('a plain git fetch shows a newer proposal too, and a deleted branch is open no more after the next sync', async () => {
    await run(ann, ['memory', 'add', '--title', 'Valkey keys expire after a day', '--description', 'TTL 24h', '--type', 'pattern']);
    await run(ann, ['propose', '--repo', 'acme/app', '--title', 'Key expiry', '--name', 'key-expiry']);
    git(bob.dir, ['fetch', '-q', 'origin']);
    const s = await run(bob, ['status', '--json']);
    assert.deepEqual(
      s.proposals.map((p: { name: string }) => p.name),
      ['key-expiry', 'session-caching'],
    );
    git(remote, ['update-ref', '-d', 'refs/heads/axme/proposals/key-expiry']);
    await run(bob, ['sync']);
    const after = await run(bob, ['status', '--json']);
    assert.deepEqual(
      after.proposals.map((p: { name: string }) => p.name),
      ['session-caching'],
    );
  });

  test('once merged into axme/memory and taken by a sync, it is not listed as open', async () => {
    const tip = git(remote, ['rev-parse', 'refs/heads/axme/proposals/session-caching']).trim();
    git(remote, ['update-ref', 'refs/heads/axme/memory', tip]);
    await run(bob, ['sync']);
    const s = await run(bob, ['status', '--json']);
    assert.deepEqual(s.proposals, []);
  });
});

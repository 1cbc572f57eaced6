import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { checkKnowledge } from '../../src/knowledge/admin/check-knowledge.ts';
import { assembleContext } from '../../src/knowledge/views/context.ts';
import { propose } from '../../src/operations/review.ts';
import { type CoreOptions, coreAt, exitCodeOf, rejectsWith, runOp, withCore } from '../core.ts';
import { githubStandIn, pull, type Seen } from '../github-server.ts';
import { axme, axmeOk, git } from '../helpers.ts';
import { copyTeam } from './fixture-copies.ts';

const REF = 'refs/memory/main';
const roots: string[] = [];
after(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

/** A bare "remote", `n` clones with their own identities, and a reviewer's scratch repository. */
function team(n: number): { root: string; remote: string; clones: string[]; reviewer: string } {
  const root = mkdtempSync(join(tmpdir(), 'axme-review-'));
  roots.push(root);
  const remote = join(root, 'remote.git');
  git(root, ['init', '-q', '--bare', remote]);
  const clones = Array.from({ length: n }, (_, i) => {
    const dir = join(root, `clone-${i}`);
    git(root, ['init', '-q', '-b', 'main', dir]);
    git(dir, ['config', 'user.name', `Dev ${i}`]);
    git(dir, ['config', 'user.email', `dev${i}@example.com`]);
    git(dir, ['commit', '-q', '--allow-empty', '-m', 'first']);
    git(dir, ['remote', 'add', 'origin', remote]);
    return dir;
  });
  const reviewer = join(root, 'reviewer');
  git(root, ['init', '-q', '-b', 'scratch', reviewer]);
  git(reviewer, ['config', 'user.name', 'Reviewer']);
  git(reviewer, ['config', 'user.email', 'reviewer@example.com']);
  git(reviewer, ['remote', 'add', 'origin', remote]);
  return { root, remote, clones, reviewer };
}

/**
 * Two clones that share a store, and clone 0's new decision and memory not yet proposed: made once
 * (the first call), then copied for each caller, its clones and reviewer pointed at the copy's remote.
 */
let proposing: Promise<string> | undefined;
async function teamProposing(): Promise<{ root: string; remote: string; clones: string[]; reviewer: string }> {
  proposing ??= (async () => {
    const {
      root,
      clones: [a, b],
    } = team(2);
    const [A, B] = [coreAt(a!), coreAt(b!)];
    await A.init();
    await A.sync();
    await B.sync();
    await A.addDecision({ title: 'Use Valkey for caching', decision: 'Cache with Valkey.', reasoning: 'The licence.' });
    await A.addMemory({ type: 'pattern', title: 'Cache keys are namespaced', description: 'service:entity:id' });
    return root;
  })();
  const {
    root,
    remote,
    dirs: [a, b, reviewer],
  } = copyTeam(await proposing, ['clone-0', 'clone-1', 'reviewer'], 'axme-review-');
  roots.push(root);
  return { root, remote, clones: [a!, b!], reviewer: reviewer! };
}

type MergeStyle = 'merge commit' | 'squash' | 'rebase';

/** What GitHub's merge button does to axme/memory, done with git on the remote. */
function mergeOnRemote(reviewer: string, proposal: string, style: MergeStyle, pr: number): void {
  git(reviewer, ['fetch', '-q', 'origin', `+refs/heads/axme/*:refs/remotes/origin/axme/*`]);
  git(reviewer, ['checkout', '-q', '-B', 'axme/memory', 'origin/axme/memory']);
  const branch = `origin/axme/proposals/${proposal}`;
  if (style === 'merge commit') git(reviewer, ['merge', '-q', '--no-ff', '-m', `Merge pull request #${pr} from acme/axme/proposals/${proposal}`, branch]);
  else if (style === 'squash') {
    git(reviewer, ['merge', '-q', '--squash', branch]);
    git(reviewer, ['commit', '-q', '-m', `Knowledge (#${pr})`]);
  } else {
    const base = git(reviewer, ['merge-base', 'HEAD', branch]).trim();
    git(reviewer, ['cherry-pick', `${base}..${branch}`]);
  }
  git(reviewer, ['push', '-q', 'origin', 'axme/memory']);
}

/** A maintainer turns review on by editing axme.yaml in a worktree of the store, as by hand. */
function requireReview(dir: string): void {
  const wt = join(dir, '..', 'store-edit');
  git(dir, ['worktree', 'add', '-q', '--detach', wt, REF]);
  writeFileSync(join(wt, 'axme.yaml'), `${readFileSync(join(wt, 'axme.yaml'), 'utf8')}review:\n  required: true\n`);
  git(wt, ['commit', '-q', '-am', 'review: required']);
  git(dir, ['update-ref', REF, git(wt, ['rev-parse', 'HEAD']).trim()]);
  git(dir, ['worktree', 'remove', '--force', wt]);
}

const tree = (dir: string, ref = REF) => git(dir, ['rev-parse', `${ref}^{tree}`]).trim();
const files = (dir: string, ref: string) => git(dir, ['ls-tree', '-r', '--name-only', ref]).trim().split('\n');
const hasRef = (dir: string, ref: string) => git(dir, ['for-each-ref', '--format=%(refname)', ref]).trim() === ref;

async function github(closed: number[] = []) {
  const api = await githubStandIn({
    'POST /repos/acme/app/pulls': (_req, _body, hit) => ({
      status: 201,
      json: { number: 6 + hit, html_url: `https://github.com/acme/app/pull/${6 + hit}`, state: 'open' },
    }),
    ...Object.fromEntries(closed.map((n) => [`GET /repos/acme/app/pulls/${n}`, () => ({ status: 200, json: pull(n, 'closed', false) })])),
  });
  return { ...api, env: { GITHUB_API_URL: api.url, GITHUB_TOKEN: 'test-token' } };
}

/** `axme check` (exits 1 unless ok). */
const checkOf = (dir: string) => withCore(dir, (kb) => checkKnowledge(kb));
/** `axme context`: the text it prints. */
const contextOf = async (dir: string) => (await withCore(dir, (kb) => assembleContext(kb, {}))).text;

const pullRequests = (seen: Seen[]) =>
  seen
    .filter((s) => s.method === 'POST' && s.url === '/repos/acme/app/pulls')
    .map((s) => JSON.parse(s.body) as { head: string; base: string; title: string; body: string });

describe('knowledge pull requests', () => {
  test('a title in another script gives an ASCII branch name', async () => {
    const {
      remote,
      clones: [a],
    } = await teamProposing();
    const gh = await github();
    try {
      await runOp(a!, propose, { repo: 'acme/app', title: '缓存的知识' }, { env: gh.env });
      const [req] = pullRequests(gh.seen);
      assert.match(req!.head, /^axme\/proposals\/[a-z0-9-]+$/);
      assert.ok(files(remote, `refs/heads/${req!.head}`).includes('decisions/use-valkey-for-caching.md'));
    } finally {
      await gh.close();
    }
  });

  for (const style of ['merge commit', 'squash', 'rebase'] as const) {
    test(`propose pushes the branch and opens the PR with the semantic diff; after a ${style} into axme/memory, sync adopts it and every clone converges`, async () => {
      const {
        remote,
        clones: [a, b],
        reviewer,
      } = await teamProposing();
      const gh = await github();
      try {
        const [A, B] = [coreAt(a!, { env: gh.env }), coreAt(b!, { env: gh.env })];

        if (style === 'merge commit') {
          // through the CLI once: the URL is the answer on stdout, what happened goes to stderr
          const r = await axme(a!, ['propose', '--repo', 'acme/app', '--title', 'Caching knowledge'], { env: gh.env });
          assert.equal(r.code, 0, r.stderr);
          assert.equal(r.stdout, 'https://github.com/acme/app/pull/7\n', 'stdout is the PR URL');
          assert.match(r.stderr, /Created axme\/memory on origin/);
        } else {
          const r = await runOp(a!, propose, { repo: 'acme/app', title: 'Caching knowledge' }, { env: gh.env });
          assert.deepEqual(
            r.opened.map((o: { url: string }) => o.url),
            ['https://github.com/acme/app/pull/7'],
            'the PR URL',
          );
          assert.equal(r.createdBase, true, 'Created axme/memory on origin');
        }
        // the branch holds the knowledge files; axme/memory started from the shared knowledge
        assert.ok(files(remote, 'refs/heads/axme/proposals/caching-knowledge').includes('decisions/use-valkey-for-caching.md'));
        assert.equal(git(remote, ['rev-parse', 'refs/heads/axme/memory']).trim(), git(remote, ['rev-parse', REF]).trim());
        const [req] = pullRequests(gh.seen);
        assert.equal(req!.head, 'axme/proposals/caching-knowledge');
        assert.equal(req!.base, 'axme/memory');
        assert.equal(req!.title, 'Caching knowledge');
        assert.match(req!.body, /^## Knowledge changes/);
        assert.match(req!.body, /- \*\*added\*\* D-001 Use Valkey for caching — `decisions\/use-valkey-for-caching\.md`/);
        assert.match(req!.body, /- \*\*added\*\* Cache keys are namespaced/);
        assert.equal(gh.seen.find((s) => s.method === 'POST')!.authorization, 'token test-token');

        mergeOnRemote(reviewer, 'caching-knowledge', style, 7);

        const syncB = (await B.sync()).text;
        assert.match(syncB, /Adopted the reviewed knowledge from origin's axme\/memory/);
        assert.ok(files(b!, REF).includes('decisions/use-valkey-for-caching.md'), 'B took the merged proposal');
        const syncA = (await A.sync()).text;
        assert.match(syncA, /Proposal caching-knowledge \(PR #7\) was merged/);
        assert.equal(git(remote, ['for-each-ref', 'refs/heads/axme/proposals/']).trim(), '', 'the merged proposal branch is cleaned up');
        await coreAt(b!).sync();
        await coreAt(a!).sync();
        assert.equal(tree(a!), tree(b!), 'the clones converge');
        assert.equal(tree(a!), tree(remote));
        const decisions = await B.list('decision');
        assert.deepEqual(
          decisions.map((d: { title: string }) => d.title),
          ['Use Valkey for caching'],
          'once, not twice',
        );
        assert.equal((await checkOf(a!)).ok, true, '`axme check` exits 0');
      } finally {
        await gh.close();
      }
    });
  }

  test("with review.required an agent's save waits on refs/memory/proposals/<session>: context shows it as pending; merged, it is adopted; closed unmerged, it stays out", async () => {
    const {
      remote,
      clones: [a],
      reviewer,
    } = team(1);
    const gh = await github([8]);
    try {
      const A = coreAt(a!, { env: gh.env });
      await A.init();
      requireReview(a!);
      await A.sync();
      const accepted = git(a!, ['rev-parse', REF]).trim();

      // what `axme` run by an agent (CLAUDECODE=1, AXME_SESSION) opens
      const agent: CoreOptions = { env: gh.env, actor: 'agent', session: '20261124-feedc0de' };
      const saved = await coreAt(a!, agent).addDecision({ title: 'Use NATS for events', decision: 'Events go through NATS.' });
      assert.equal(saved.location, 'refs/memory/proposals/20261124-feedc0de:decisions/use-nats-for-events.md');
      assert.equal(git(a!, ['rev-parse', REF]).trim(), accepted, 'refs/memory/main did not change');
      assert.ok(files(a!, 'refs/memory/proposals/20261124-feedc0de').includes('decisions/use-nats-for-events.md'));
      const context = await contextOf(a!);
      assert.match(
        context,
        /## Pending review \(proposed, NOT accepted knowledge[^\n]*\n### refs\/memory\/proposals\/20261124-feedc0de\n- \+ added D-001 Use NATS for events/,
      );
      assert.ok(!(await A.list('decision')).some((d: { title: string }) => /Use NATS/.test(d.title)), 'not among the accepted decisions');

      const proposed = await runOp(a!, propose, { repo: 'acme/app' }, { env: gh.env });
      assert.deepEqual(
        proposed.opened.map((o: { url: string }) => o.url),
        ['https://github.com/acme/app/pull/7'],
      );
      assert.ok(files(remote, 'refs/heads/axme/proposals/20261124-feedc0de').includes('decisions/use-nats-for-events.md'));
      const pending = (await A.sync()).text;
      assert.match(pending, /Proposal 20261124-feedc0de \(PR #7\) is still under review/);
      assert.equal(git(a!, ['rev-parse', REF]).trim(), accepted, 'not merged yet: still out');

      mergeOnRemote(reviewer, '20261124-feedc0de', 'merge commit', 7);
      const adopted = (await A.sync()).text;
      assert.match(adopted, /Proposal 20261124-feedc0de \(PR #7\) was merged/);
      assert.ok(files(a!, REF).includes('decisions/use-nats-for-events.md'), 'adopted into refs/memory/main');
      assert.ok(!hasRef(a!, 'refs/memory/proposals/20261124-feedc0de'), 'the proposal ref is gone');
      assert.doesNotMatch(await contextOf(a!), /Pending review/);

      // a second proposal, closed on GitHub without merging
      await coreAt(a!, { ...agent, session: '20261124-0badcafe' }).addMemory({
        type: 'pattern',
        title: 'Events are past tense',
        description: 'OrderPlaced, not PlaceOrder',
      });
      assert.deepEqual(
        (await runOp(a!, propose, { repo: 'acme/app' }, { env: gh.env })).opened.map((o: { url: string }) => o.url),
        ['https://github.com/acme/app/pull/8'],
      );
      const closed = (await A.sync()).text;
      assert.match(closed, /Proposal 20261124-0badcafe \(PR #8\) was closed without merging: its items stay out of refs\/memory\/main/);
      assert.ok(!files(a!, REF).includes('memories/events-are-past-tense.md'));
      assert.ok(hasRef(a!, 'refs/memory/proposals/20261124-0badcafe'), 'kept, not deleted');
    } finally {
      await gh.close();
    }
  });

  test('two merged proposals that used one display ID are renumbered after adoption; a write that stores nothing leaves no proposal', async () => {
    const {
      clones: [a],
      reviewer,
    } = team(1);
    const gh = await github();
    try {
      const A = coreAt(a!, { env: gh.env });
      await A.init();
      await A.addDecision({ title: 'Use Postgres', decision: 'One database.' });
      requireReview(a!);
      await A.sync();

      // an agent's write that finds the decision already stored commits nothing: no proposal ref is left behind
      const dup = await coreAt(a!, { actor: 'agent', session: '20261124-00000000' }).addDecision({ title: 'Use Postgres', decision: 'One database.' });
      assert.equal(dup.duplicate, true);
      assert.equal(dup.location, 'refs/memory/main:decisions/use-postgres.md');
      assert.ok(!hasRef(a!, 'refs/memory/proposals/20261124-00000000'));

      for (const [session, title] of [
        ['20261124-aaaaaaaa', 'Use NATS for events'],
        ['20261124-bbbbbbbb', 'Use gRPC between services'],
      ] as const) {
        const r = await coreAt(a!, { actor: 'agent', session }).addDecision({ title, decision: 'x' });
        assert.equal(r.item.id, 'D-002', 'each proposal numbers from the accepted knowledge');
      }
      const urls = await runOp(a!, propose, { repo: 'acme/app' }, { env: gh.env });
      assert.deepEqual(
        urls.opened.map((o: { url: string }) => o.url),
        ['https://github.com/acme/app/pull/7', 'https://github.com/acme/app/pull/8'],
      );
      mergeOnRemote(reviewer, '20261124-aaaaaaaa', 'merge commit', 7);
      mergeOnRemote(reviewer, '20261124-bbbbbbbb', 'squash', 8);
      const synced = (await A.sync()).text;
      assert.match(synced, /Renumbered D-002 -> D-003 \(decisions\/use-(nats-for-events|grpc-between-services)\.md\): two adopted proposals used the ID/);
      assert.match(synced, /Proposal 20261124-aaaaaaaa \(PR #7\) was merged/);
      assert.match(synced, /Proposal 20261124-bbbbbbbb \(PR #8\) was merged/);
      const ids = (await A.list('decision')).map((d: { id: string }) => d.id).sort();
      assert.deepEqual(ids, ['D-001', 'D-002', 'D-003']);
      assert.equal((await checkOf(a!)).ok, true, 'unique IDs again (`axme check` exits 0)');
    } finally {
      await gh.close();
    }
  });

  test('propose says what to do: no GitHub repository, no token, nothing to propose, a remote without knowledge', async () => {
    const {
      clones: [a],
    } = team(1);
    const gh = await github();
    try {
      const A = coreAt(a!);
      await A.init();
      const noKnowledge = await rejectsWith(
        runOp(a!, propose, { repo: 'acme/app' }, { env: gh.env }),
        'WRONG_STATE',
        /origin holds no knowledge yet.*axme sync/,
      );
      assert.equal(exitCodeOf(noKnowledge), 1);
      // the built binary once: without --repo, a usage error (exit 2) on stderr
      const noRepo = await axme(a!, ['propose'], { env: gh.env });
      assert.equal(noRepo.code, 2);
      assert.match(noRepo.stderr, /not a GitHub URL\): pass --repo owner\/name/);
      const badRepo = await rejectsWith(runOp(a!, propose, { repo: 'not a repo' }, { env: gh.env }), 'INVALID_INPUT');
      assert.equal(exitCodeOf(badRepo), 2);
      await A.sync();
      const nothing = await runOp(a!, propose, { repo: 'acme/app' }, { env: gh.env });
      assert.equal(nothing.opened.length, 0);
      assert.match(nothing.skipped[0].reason, /already has everything/);
      await A.addDecision({ title: 'Use Postgres', decision: 'One database.' });
      const noTokenCore = await rejectsWith(
        runOp(a!, propose, { repo: 'acme/app' }, { env: { GITHUB_API_URL: gh.url } }),
        'GITHUB_FAILED',
        /needs a GitHub token: set GITHUB_TOKEN/,
      );
      assert.equal(exitCodeOf(noTokenCore), 1);
      assert.equal(pullRequests(gh.seen).length, 0, 'GitHub was never asked to open one');
    } finally {
      await gh.close();
    }
  });
});

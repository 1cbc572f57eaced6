import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { prState } from '../../src/github/pr-state.ts';
import { resolveToken } from '../../src/github/token.ts';
import { safetySet } from '../../src/operations/safety/edits.ts';
import { initCore } from '../core.ts';
import { githubStandIn, pull, type Seen } from '../github-server.ts';
import { axme, CLI, type CliResult, cleanEnv, tempRepo } from '../helpers.ts';
import { hookBinary, hookInProcess } from '../hooks/hook-in-process.ts';
import { cliText, makeStore } from '../store-fixture.ts';

const P = (n: number) => `GET /repos/acme/app/pulls/${n}`;

describe('prState through Octokit against a local GitHub stand-in', () => {
  let api: { url: string; seen: Seen[]; close: () => Promise<void> };
  let cache: string;
  before(async () => {
    api = await githubStandIn({
      [P(1)]: () => ({ status: 200, json: pull(1, 'open', false) }),
      [P(2)]: () => ({ status: 200, json: pull(2, 'closed', true) }),
      [P(3)]: () => ({ status: 200, json: pull(3, 'closed', false) }),
      [P(5)]: () => ({ status: 500, json: { message: 'boom' } }),
      // fails once, then answers: the retry succeeds
      [P(6)]: (_req, _body, hit) => (hit === 1 ? { status: 502, json: { message: 'bad gateway' } } : { status: 200, json: pull(6, 'open', false) }),
      [P(7)]: () => ({ status: 200, json: pull(7, 'open', false), delayMs: 30_000 }),
      [P(8)]: () => ({
        status: 403,
        json: { message: 'API rate limit exceeded' },
        headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(Date.parse('2026-11-22T11:00:00Z') / 1000)) },
      }),
    });
    cache = mkdtempSync(join(tmpdir(), 'axme-gh-cache-'));
  });
  after(async () => {
    await api.close();
    rmSync(cache, { recursive: true, force: true });
  });

  const now = () => new Date('2026-11-22T10:00:00Z');
  const env = () => ({ GITHUB_API_URL: api.url });
  const auth = { token: 't0ken', source: 'GITHUB_TOKEN' };

  // [pr, expected state, detail pattern]
  const cases: Array<[number, string, RegExp?]> = [
    [1, 'open'],
    [2, 'merged'],
    [3, 'closed'],
    [4, 'not-found'],
    [5, 'unknown', /HTTP 500/],
    [6, 'open'],
    [7, 'unknown', /no answer in time/],
    [8, 'unknown', /rate limit is used up until 2026-11-22T11:00:00/],
  ];
  for (const [pr, state, detail] of cases) {
    test(`PR #${pr} is ${state}`, async () => {
      // a generous limit for the answers, a short one for the PR that never answers in time
      const r = await prState({ repo: 'acme/app', pr, env: env(), now, auth, timeoutMs: pr === 7 ? 1_000 : 20_000 });
      assert.equal(r.state, state, r.detail);
      if (detail) assert.match(r.detail ?? '', detail);
    });
  }

  test('the token is sent; answers are cached briefly; a used-up rate limit stops asking until it resets', async () => {
    api.seen.length = 0;
    assert.equal((await prState({ repo: 'acme/app', pr: 1, env: env(), now, auth, cacheDir: cache })).state, 'open');
    assert.equal((await prState({ repo: 'acme/app', pr: 1, env: env(), now, auth, cacheDir: cache })).state, 'open');
    assert.equal(api.seen.filter((s) => s.url === '/repos/acme/app/pulls/1').length, 1, 'the second answer came from the cache');
    assert.equal(api.seen[0]!.authorization, 'token t0ken');
    const later = () => new Date('2026-11-22T10:05:00Z');
    await prState({ repo: 'acme/app', pr: 1, env: env(), now: later, auth, cacheDir: cache });
    assert.equal(api.seen.filter((s) => s.url === '/repos/acme/app/pulls/1').length, 2, 'an open PR is asked again after a minute');

    assert.equal((await prState({ repo: 'acme/app', pr: 8, env: env(), now, auth, cacheDir: cache })).state, 'unknown');
    const asked = api.seen.length;
    const r = await prState({ repo: 'acme/app', pr: 3, env: env(), now, auth, cacheDir: cache });
    assert.equal(r.state, 'unknown');
    assert.match(r.detail ?? '', /rate limit/);
    assert.equal(api.seen.length, asked, 'nothing is asked while the limit is used up');
    const afterReset = () => new Date('2026-11-22T11:00:01Z');
    assert.equal((await prState({ repo: 'acme/app', pr: 3, env: env(), now: afterReset, auth, cacheDir: cache })).state, 'closed');
  });

  test('without a token a 404 proves nothing: unknown, saying why', async () => {
    const r = await prState({ repo: 'acme/app', pr: 4, env: env(), now, auth: { token: null, source: null } });
    assert.equal(r.state, 'unknown');
    assert.match(r.detail ?? '', /no GitHub token/);
    assert.equal(api.seen.at(-1)!.authorization, undefined);
  });

  test('an unreachable API is unknown', async () => {
    const r = await prState({ repo: 'acme/app', pr: 1, env: { GITHUB_API_URL: 'http://127.0.0.1:9' }, now, auth, timeoutMs: 1_000 });
    assert.equal(r.state, 'unknown');
    assert.match(r.detail ?? '', /GitHub/);
  });

  test('the token comes from GITHUB_TOKEN, then GH_TOKEN', () => {
    assert.deepEqual(resolveToken({ GITHUB_TOKEN: 'a', GH_TOKEN: 'b' }), { token: 'a', source: 'GITHUB_TOKEN' });
    assert.deepEqual(resolveToken({ GH_TOKEN: 'b' }), { token: 'b', source: 'GH_TOKEN' });
    // no gh on this PATH: no token, and no error
    assert.deepEqual(resolveToken({ PATH: '/nonexistent' }), { token: null, source: null });
  });
});

describe('the pre-tool-use hook asks GitHub for #!axme pr=N', () => {
  let api: { url: string; seen: Seen[]; close: () => Promise<void> };
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    api = await githubStandIn({
      [P(11)]: () => ({ status: 200, json: pull(11, 'open', false) }),
      [P(12)]: () => ({ status: 200, json: pull(12, 'closed', true) }),
      [P(15)]: () => ({ status: 500, json: { message: 'boom' } }),
    });
    ({ dir, cleanup } = await makeStore({ init: { gitHooks: true, scan: 'if-new' } }));
  });
  after(async () => {
    await api.close();
    cleanup();
  });

  /**
   * The hook's reason to deny `command`, or null: through the binary (`binary`: the real hook
   * process and its exit code), else its handler in this process (runHook, what that process runs).
   */
  const run = async (command: string, { binary = false } = {}) => {
    const input = JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });
    const env = { GITHUB_API_URL: api.url, GITHUB_TOKEN: 't0ken' };
    const call = { cwd: dir, input, env };
    const r = binary ? await hookBinary('pre-tool-use', call) : await hookInProcess('pre-tool-use', call);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout ? (JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason as string) : null;
  };

  test('open PR: allowed; merged: denied; missing: denied; server error: denied naming the setting', async () => {
    assert.equal(await run('git commit -m "Cache sessions" #!axme pr=11 repo=acme/app', { binary: true }), null);
    assert.match((await run('git push origin feature #!axme pr=12 repo=acme/app'))!, /PR #12 of acme\/app is already merged/);
    assert.match((await run('git commit -m x #!axme pr=14 repo=acme/app'))!, /PR #14 of acme\/app does not exist/);
    assert.match((await run('git commit -m x #!axme pr=15 repo=acme/app'))!, /could not be checked \(GitHub HTTP 500\), and github\.unverifiedPr is deny/);
    assert.ok(api.seen.every((s) => s.authorization === 'token t0ken'));
    await cliText(dir, safetySet, { key: 'github.unverifiedPr', value: 'allow' });
    assert.equal(await run('git commit -m x #!axme pr=15 repo=acme/app'), null);
  });
});

describe('git config axme.githubApiUrl', () => {
  test('points the PR lookup at GitHub Enterprise when GITHUB_API_URL is not set; the shared store cannot', async () => {
    const api = await githubStandIn({ [P(21)]: () => ({ status: 200, json: pull(21, 'closed', true) }) });
    const { dir, cleanup } = tempRepo({ commit: true });
    try {
      await initCore(dir, { scan: 'if-new' });
      const { execFileSync } = await import('node:child_process');
      execFileSync('git', ['config', 'axme.githubApiUrl', api.url], { cwd: dir, env: cleanEnv() });
      const input = JSON.stringify({
        session_id: 's',
        cwd: dir,
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'git push origin f #!axme pr=21 repo=acme/app' },
      });
      const r = await axme(dir, ['hook', 'pre-tool-use'], { input, env: { GITHUB_API_URL: '', GITHUB_TOKEN: 't' } });
      assert.match(r.stdout, /PR #21 of acme\/app is already merged/);
      assert.equal(api.seen.length, 1);
    } finally {
      cleanup();
      await api.close();
    }
  });
});

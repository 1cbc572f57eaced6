import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { prState } from '../../src/github/pr-state.ts';
import { openPullRequest } from '../../src/github/pulls.ts';
import { AxmeError } from '../../src/model/errors.ts';
import { axmeOk, cleanEnv, git, tempRepo } from '../helpers.ts';

/**
 * GitHub's API unreachable (nothing listens on its port: a port bound, then closed): no HTTP
 * answer came, so the messages say the API could not be reached, at which host, and what to do —
 * not that a token is missing, not "HTTP 500". The policy stays as documented: the commit-msg
 * hook still refuses an unverifiable `pr=N` under github.unverifiedPr deny.
 */

let url: string;
let host: string;
before(async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(server.address() as { port: number }).port}`;
  url = `http://${host}`;
  await new Promise((resolve) => server.close(resolve));
});

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));
const now = () => new Date('2026-11-20T10:00:00Z');

describe('GitHub API unreachable', () => {
  test('a PR lookup is unknown: the API could not be reached, naming the host', async () => {
    const r = await prState({ repo: 'acme/app', pr: 11, env: { GITHUB_API_URL: url }, now, auth: { token: 't0ken', source: 'GITHUB_TOKEN' } });
    assert.equal(r.state, 'unknown');
    assert.equal(r.unreachable, true);
    assert.match(r.detail ?? '', new RegExp(`GitHub's API at ${host} could not be reached \\(connection refused\\)`));
  });

  test('opening a pull request: GITHUB_FAILED saying the API could not be reached, not an HTTP status', async () => {
    const err = await openPullRequest({
      repo: 'acme/app',
      head: 'axme/proposals/x',
      base: 'main',
      title: 't',
      body: 'b',
      env: { GITHUB_API_URL: url },
      auth: { token: 't0ken', source: 'GITHUB_TOKEN' },
    }).then(
      () => assert.fail('opened a pull request with no API'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof AxmeError && err.code === 'GITHUB_FAILED', String(err));
    assert.match(err.message, new RegExp(`GitHub's API at ${host} could not be reached \\(connection refused\\)`));
    assert.doesNotMatch(err.message, /HTTP 500/);
    assert.match(err.message, /GITHUB_API_URL/);
    assert.match(err.message, /run axme propose again/);
  });

  test('the commit-msg hook still refuses an unverifiable pr=N, saying the API could not be reached — not asking for a token', async () => {
    const { dir, cleanup } = tempRepo({ commit: true });
    cleanups.push(cleanup);
    await axmeOk(dir, ['init', '--no-claude', '--no-scan']);
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    git(dir, ['add', 'a.txt']);
    const r = spawnSync('git', ['commit', '-q', '-m', 'Add a', '-m', '#!axme pr=11 repo=acme/app'], {
      cwd: dir,
      encoding: 'utf8',
      env: cleanEnv({ CLAUDECODE: '1', GITHUB_API_URL: url, GITHUB_TOKEN: 't0ken' }),
    });
    assert.equal(r.status, 1, 'github.unverifiedPr is deny: refused, as documented');
    assert.match(r.stderr, new RegExp(`GitHub's API at ${host} could not be reached \\(connection refused\\)`));
    assert.match(r.stderr, /github\.unverifiedPr is deny/);
    assert.doesNotMatch(r.stderr, /Provide a token/);
    assert.match(r.stderr, /network/);
  });
});

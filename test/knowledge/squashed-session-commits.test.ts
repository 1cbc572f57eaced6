import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { axmeOk, cleanEnv, git } from '../helpers.ts';
import { commitAs, decide, project, S, staleCommits } from './own-session-fixture.ts';

// A session's commits reach main in other shapes than themselves: squashed (git merge --squash,
// GitHub's squash merge: the notes stay on the branch's commits and the Axme-Session trailers move
// into the body), behind a merge commit, rebased by a host that copies no notes. verify still tells
// them from changes since the decision; a person's words in a message never name a session.

const MARK = '\n\n#!axme pr=none repo=acme/shop';

/** Runs git as a person (no session) at `date` (author and committer). */
function personGit(dir: string, args: string[], date?: string): string {
  const env = cleanEnv(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {});
  return execFileSync('git', args, { cwd: dir, env, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
}

/** The session works on branch `work` from main: one commit per entry of `edits` (file text, date). */
function sessionBranch(dir: string, edits: Array<[string, string]>): string[] {
  git(dir, ['checkout', '-q', '-b', 'work']);
  const shas = edits.map(([text, date], i) => commitAs(dir, S, { 'src/rate.ts': text }, `token bucket, step ${i + 1}\n\nWhy step ${i + 1}.${MARK}`, date));
  git(dir, ['checkout', '-q', 'main']);
  return shas;
}

/** GitHub's squash message for the commits of `work` not on main: the title, then "* subject" and the body of each, oldest first, then its co-author line. */
function githubSquashMessage(dir: string, title: string): string {
  const shas = git(dir, ['rev-list', '--reverse', 'main..work']).trim().split('\n');
  const entries = shas.map((sha) => {
    const [subject, ...body] = git(dir, ['log', '-1', '--format=%B', sha]).trim().split('\n');
    return `* ${subject}${body.length ? `\n${body.join('\n')}` : ''}`;
  });
  return `${title}\n\n${entries.join('\n\n')}\n\n---------\n\nCo-authored-by: Pat <pat@example.com>\n`;
}

async function closeSession(dir: string, at: string): Promise<void> {
  await axmeOk(dir, ['session', 'finalize', '--json'], { env: { AXME_SESSION: S, AXME_NOW: at }, input: JSON.stringify({ summary: 'token bucket' }) });
}

describe("a session's commits squashed, merged or rebased into main still carry its decision out", () => {
  test("git merge --squash: SQUASH_MSG's indented trailers name the session, each with its commit's date; work after the session's close counts", async () => {
    const dir = await project();
    await decide(dir, S, 'Use a token bucket', ['src/rate.ts'], '2030-01-01T09:00:00.000Z');
    sessionBranch(dir, [
      ['export const bucket = 1;\n', '2030-01-01T10:00:00Z'],
      ['export const bucket = 2;\n', '2030-01-01T10:30:00Z'],
    ]);
    await closeSession(dir, '2030-01-01T11:00:00.000Z');
    personGit(dir, ['merge', '-q', '--squash', 'work']);
    personGit(dir, ['commit', '-q', '--no-edit'], '2030-01-02T09:00:00Z');
    assert.match(git(dir, ['log', '-1', '--format=%B']), new RegExp(`^ {4}Axme-Session: ${S}$`, 'm'));
    assert.equal(await staleCommits(dir), undefined);
    // more work of the session's after its close, squashed in turn: its date is past the close
    git(dir, ['checkout', '-q', '-b', 'more']);
    commitAs(dir, S, { 'src/rate.ts': 'export const bucket = 3;\n' }, `token bucket, days later${MARK}`, '2030-01-03T10:00:00Z');
    git(dir, ['checkout', '-q', 'main']);
    personGit(dir, ['merge', '-q', '--squash', 'more']);
    personGit(dir, ['commit', '-q', '--no-edit'], '2030-01-03T11:00:00Z');
    const late = git(dir, ['rev-parse', 'HEAD']).trim();
    assert.deepEqual(await staleCommits(dir), [late]);
  });

  test("GitHub's squash merge: '* subject' entries with their bodies, then a rule and co-authors; merged after the session closed", async () => {
    const dir = await project();
    await decide(dir, S, 'Use a token bucket', ['src/rate.ts'], '2030-01-01T09:00:00.000Z');
    sessionBranch(dir, [
      ['export const bucket = 1;\n', '2030-01-01T10:00:00Z'],
      ['export const bucket = 2;\n', '2030-01-01T10:30:00Z'],
    ]);
    await closeSession(dir, '2030-01-01T11:00:00.000Z');
    const message = githubSquashMessage(dir, 'Rate limiting (#12)');
    assert.ok(message.includes(`Axme-Session: ${S}\n\n* token bucket, step 2\n`), message);
    personGit(dir, ['merge', '-q', '--squash', 'work']);
    personGit(dir, ['commit', '-q', '-m', message], '2030-01-02T09:00:00Z');
    assert.equal(await staleCommits(dir), undefined);
    const later = commitAs(dir, null, { 'src/rate.ts': 'export const window = 1;\n' }, 'a person edits', '2030-01-02T10:00:00Z');
    assert.deepEqual(await staleCommits(dir), [later]);
  });

  test("a person's message that names the session in prose, or in a paragraph with other lines, is a change", async () => {
    const dir = await project();
    await decide(dir, S, 'Use a token bucket', ['src/rate.ts']);
    const prose = commitAs(dir, null, { 'src/rate.ts': 'export const window = 1;\n' }, `a sliding window\n\nThis undoes what Axme-Session: ${S} did.`);
    const mixed = commitAs(
      dir,
      null,
      { 'src/rate.ts': 'export const window = 2;\n' },
      `a wider window\n\nAs the session said:\nAxme-Session: ${S}\nwas too eager.\n\n* not a list of commits`,
    );
    assert.deepEqual(await staleCommits(dir), [prose, mixed]);
  });

  test("a merge commit whose parents are the session's commits is no change; a merge that edits the file beyond both sides is", async () => {
    const dir = await project();
    await decide(dir, S, 'Use a token bucket', ['src/rate.ts']);
    commitAs(dir, null, { 'README.md': '# shop, on main\n' }, 'readme');
    sessionBranch(dir, [['export const bucket = 1;\n', '2030-01-01T10:00:00Z']]);
    personGit(dir, ['merge', '-q', '--no-ff', '-m', 'Merge branch work', 'work']);
    assert.equal(await staleCommits(dir), undefined);
    git(dir, ['checkout', '-q', 'work']);
    commitAs(dir, S, { 'src/rate.ts': 'export const bucket = 2;\n' }, `token bucket, refill${MARK}`);
    git(dir, ['checkout', '-q', 'main']);
    personGit(dir, ['merge', '-q', '--no-ff', '--no-commit', 'work']);
    execFileSync('sh', ['-c', 'printf "export const bucket = 99;\\n" > src/rate.ts && git add src/rate.ts'], { cwd: dir, env: cleanEnv() });
    personGit(dir, ['commit', '-q', '-m', 'Merge branch work, with a change']);
    const evil = git(dir, ['rev-parse', 'HEAD']).trim();
    assert.deepEqual(await staleCommits(dir), [evil]);
  });

  test('rebased onto main by a host that copies no notes: the trailers name the session', async () => {
    const dir = await project();
    await decide(dir, S, 'Use a token bucket', ['src/rate.ts']);
    sessionBranch(dir, [['export const bucket = 1;\n', '2030-01-01T10:00:00Z']]);
    commitAs(dir, null, { 'README.md': '# shop, on main\n' }, 'readme');
    git(dir, ['checkout', '-q', 'work']);
    personGit(dir, ['-c', 'core.hooksPath=/dev/null', 'rebase', '-q', 'main']);
    git(dir, ['update-ref', '-d', 'refs/notes/axme']);
    git(dir, ['checkout', '-q', 'main']);
    personGit(dir, ['merge', '-q', '--ff-only', 'work']);
    assert.equal(await staleCommits(dir), undefined);
  });
});

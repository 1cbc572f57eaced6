import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { axmeOk, cleanEnv, commitFiles, git } from '../helpers.ts';
import { hookInProcess } from '../hooks/hook-in-process.ts';
import { commitAs, decide, pkg, project, S, staleCommits, staleOf, T } from './own-session-fixture.ts';

// The other usual order of an agent's work: decide first ("use a token bucket in src/rate.ts"),
// then edit and commit. The commits the deciding session makes after the save (its notes, or its
// Axme-Session trailer, name the session) carry the decision out: they are not changes since it was
// decided. Another session's commit, a person's, or one the session made after its close is.

describe("a decision is not outdated by its own session's commits", () => {
  test('a file anchor: the session commits the file after deciding; the context marks nothing; a person changes it later', async () => {
    const dir = await project();
    await decide(dir, S, 'Use a token bucket', ['src/rate.ts']);
    commitAs(dir, S, { 'src/rate.ts': 'export const bucket = 1;\n' }, 'token bucket');
    commitAs(dir, S, { 'src/rate.ts': 'export const bucket = 2;\n' }, 'token bucket, refill');
    assert.equal(await staleCommits(dir), undefined);
    assert.equal((await axmeOk(dir, ['context', '--json'])).counts.stale, 0);
    const later = commitAs(dir, null, { 'src/rate.ts': 'export const bucket = 3;\n' }, 'a person edits');
    assert.deepEqual(await staleCommits(dir), [later]);
  });

  test("another session's commit is a change, and the deciding session's commits after it are listed too", async () => {
    const dir = await project();
    await decide(dir, S, 'Use a token bucket', ['src/rate.ts']);
    const theirs = commitAs(dir, T, { 'src/rate.ts': 'export const window = 1;\n' }, 'a sliding window');
    const mine = commitAs(dir, S, { 'src/rate.ts': 'export const bucket = 1;\n' }, 'token bucket');
    assert.deepEqual(await staleCommits(dir), [theirs, mine]);
  });

  test("a teammate's commit made before the session's own is still reported", async () => {
    const dir = await project();
    await decide(dir, S, 'Use a token bucket', ['src/rate.ts']);
    const teammate = commitAs(dir, null, { 'src/rate.ts': 'export const window = 1;\n' }, 'teammate: sliding window');
    assert.deepEqual(await staleCommits(dir), [teammate]);
  });

  test('a folder anchor: edited and new files under it, then another session changes one', async () => {
    const dir = await project();
    await decide(dir, S, 'Rate limits live in src', ['src/']);
    commitAs(dir, S, { 'src/rate.ts': 'export const bucket = 1;\n', 'src/refill.ts': 'export const refill = 1;\n' }, 'token bucket');
    assert.equal(await staleCommits(dir), undefined);
    const theirs = commitAs(dir, T, { 'src/cart.ts': 'export const cart = 2;\n' }, 'cart');
    assert.deepEqual(await staleCommits(dir), [theirs]);
  });

  test("a glob anchor: the session's commit is its implementation; a file another session changed first is not", async () => {
    const dir = await project();
    await decide(dir, S, 'Sources are TypeScript', ['src/**/*.ts']);
    commitAs(dir, S, { 'src/rate.ts': 'export const bucket = 1;\n' }, 'token bucket');
    assert.equal(await staleCommits(dir), undefined);
    const theirs = commitAs(dir, T, { 'src/cart.ts': 'export const cart = 2;\n' }, 'cart');
    const mine = commitAs(dir, S, { 'src/cart.ts': 'export const cart = 3;\n', 'src/rate.ts': 'export const bucket = 2;\n' }, 'cart and bucket');
    assert.deepEqual(await staleCommits(dir), [theirs, mine]);
  });

  test("a dep: anchor: the session's bump is what it decided; a later bump is reported from the session's range", async () => {
    const dir = await project();
    await decide(dir, S, 'Validate with zod 5', ['dep:zod']);
    commitAs(dir, S, { 'package.json': pkg({ zod: '^5.0.0' }) }, 'zod 5');
    assert.equal(await staleCommits(dir), undefined);
    commitAs(dir, null, { 'package.json': pkg({ zod: '^5.2.0' }) }, 'zod 5.2');
    const d = (await staleOf(dir)).find((s) => s.kind === 'decision');
    assert.deepEqual(
      d?.changes.map((c) => [c.change, c.from_version, c.to_version]),
      [['dep-changed', '^5.0.0', '^5.2.0']],
    );
  });

  test('a commit the session makes after its close is a change; the ones before are not', async () => {
    const dir = await project();
    await decide(dir, S, 'Use a token bucket', ['src/rate.ts'], '2030-01-01T09:00:00.000Z');
    commitAs(dir, S, { 'src/rate.ts': 'export const bucket = 1;\n' }, 'token bucket', '2030-01-01T10:00:00Z');
    await axmeOk(dir, ['session', 'finalize', '--json'], {
      env: { AXME_SESSION: S, AXME_NOW: '2030-01-01T11:00:00.000Z' },
      input: JSON.stringify({ summary: 'token bucket' }),
    });
    assert.equal(await staleCommits(dir), undefined);
    const after = commitAs(dir, S, { 'src/rate.ts': 'export const window = 1;\n' }, 'a sliding window, days later', '2030-01-03T10:00:00Z');
    assert.deepEqual(await staleCommits(dir), [after]);
  });

  test('rebased and amended by a person: the notes follow the rewritten commits', async () => {
    const dir = await project();
    const base = git(dir, ['rev-parse', 'HEAD']).trim();
    await decide(dir, S, 'Use a token bucket', ['src/rate.ts']);
    commitAs(dir, S, { 'src/rate.ts': 'export const bucket = 1;\n' }, 'token bucket');
    commitAs(dir, S, { 'src/rate.ts': 'export const bucket = 2;\n' }, 'token bucket, refill');
    // a person amends the tip, then rebases both onto a new commit of main
    execFileSync('git', ['commit', '-q', '--amend', '-m', 'token bucket, refill (amended)'], { cwd: dir, env: cleanEnv() });
    git(dir, ['branch', 'work']);
    git(dir, ['reset', '-q', '--hard', base]);
    commitFiles(dir, { 'README.md': '# shop, rate limited\n' }, 'readme');
    git(dir, ['checkout', '-q', 'work']);
    execFileSync('git', ['rebase', '-q', 'main'], { cwd: dir, env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    assert.match(git(dir, ['log', '-1', '--notes=axme', '--format=%N']), new RegExp(`session: ${S}`));
    assert.equal(await staleCommits(dir), undefined);
  });

  test('the session renames the anchored file: still said, as renamed (the anchor names a file that is gone); its edits are not changes', async () => {
    const dir = await project();
    await decide(dir, S, 'Use a token bucket', ['src/rate.ts']);
    commitAs(dir, S, { 'src/rate.ts': 'export const bucket = 1;\n' }, 'token bucket');
    git(dir, ['mv', 'src/rate.ts', 'src/limit.ts']);
    const moved = commitAs(dir, S, {}, 'rate.ts is limit.ts');
    const d = (await staleOf(dir)).find((s) => s.kind === 'decision');
    assert.deepEqual(
      d?.changes.map((c) => [c.anchor, c.change, (c as { to?: string }).to]),
      [['src/rate.ts', 'renamed', 'src/limit.ts']],
    );
    assert.deepEqual(await staleCommits(dir), [moved]);
  });

  test("the commit's Axme-Session trailer names the session when the note is gone", async () => {
    const dir = await project();
    await decide(dir, S, 'Use a token bucket', ['src/rate.ts']);
    commitAs(dir, S, { 'src/rate.ts': 'export const bucket = 1;\n' }, 'token bucket\n\nAxme-Session: sess-decider');
    git(dir, ['update-ref', '-d', 'refs/notes/axme']);
    assert.equal(await staleCommits(dir), undefined);
  });

  test("reconfirmed by another session: that session's commits after the reconfirm carry it out, up to its close; a person's are changes", async () => {
    const dir = await project();
    await decide(dir, S, 'Use a token bucket', ['src/rate.ts'], '2030-01-01T09:00:00.000Z');
    const theirs = commitAs(dir, null, { 'src/rate.ts': 'export const bucket = 1;\n' }, 'a person edits', '2030-01-02T09:00:00Z');
    assert.deepEqual(await staleCommits(dir), [theirs]);
    await axmeOk(dir, ['reconfirm', 'use-a-token-bucket', '--json'], { env: { AXME_SESSION: T, AXME_NOW: '2030-01-02T10:00:00.000Z' } });
    assert.equal(await staleCommits(dir), undefined);
    commitAs(dir, T, { 'src/rate.ts': 'export const bucket = 2;\n' }, 'bucket 2', '2030-01-02T11:00:00Z');
    assert.equal(await staleCommits(dir), undefined);
    await axmeOk(dir, ['session', 'finalize', '--json'], {
      env: { AXME_SESSION: T, AXME_NOW: '2030-01-02T12:00:00.000Z' },
      input: JSON.stringify({ summary: 'checked the token bucket' }),
    });
    assert.equal(await staleCommits(dir), undefined);
    const late = commitAs(dir, T, { 'src/rate.ts': 'export const bucket = 3;\n' }, 'bucket 3, after the close', '2030-01-03T09:00:00Z');
    assert.deepEqual(await staleCommits(dir), [late]);
  });

  test('reconfirmed by another session, then by a person: the reconfirming session no longer carries it; the deciding one still does', async () => {
    const dir = await project();
    await decide(dir, S, 'Use a token bucket', ['src/rate.ts']);
    commitAs(dir, null, { 'src/rate.ts': 'export const bucket = 1;\n' }, 'a person edits');
    await axmeOk(dir, ['reconfirm', 'use-a-token-bucket', '--json'], { env: { AXME_SESSION: T } });
    const saved = git(dir, ['show', 'refs/memory/main:decisions/use-a-token-bucket.md']);
    assert.match(saved, new RegExp(`reconfirmed_by: ${T}`));
    assert.match(saved, new RegExp(`session: ${S}`));
    commitAs(dir, null, { 'README.md': '# shop 2\n' }, 'readme');
    await axmeOk(dir, ['reconfirm', 'use-a-token-bucket', '--json'], { env: { AXME_SESSION: '' } });
    assert.doesNotMatch(git(dir, ['show', 'refs/memory/main:decisions/use-a-token-bucket.md']), /reconfirmed_by/);
    commitAs(dir, S, { 'src/rate.ts': 'export const bucket = 2;\n' }, 'the decider goes on');
    assert.equal(await staleCommits(dir), undefined);
    const theirs = commitAs(dir, T, { 'src/rate.ts': 'export const bucket = 3;\n' }, 'bucket 3');
    assert.deepEqual(await staleCommits(dir), [theirs]);
  });

  test('a real agent session: decided through the CLI its harness runs, committed through git', async () => {
    const dir = await project();
    const start = await hookInProcess('session-start', {
      cwd: dir,
      input: JSON.stringify({ session_id: 'cc-own-1', cwd: dir, hook_event_name: 'SessionStart', source: 'startup' }),
      harnessHere: true,
    });
    assert.equal(start.code, 0, start.stderr);
    const id = readFileSync(join(dir, '.git', 'axme', 'sessions', 'harness', 'claude-code-cc-own-1'), 'utf8');
    await axmeOk(dir, ['decision', 'add', '--title', 'Use a token bucket', '--decision', 'in src/rate.ts', '--anchor', 'src/rate.ts', '--json'], {
      env: { CLAUDECODE: '1' },
    });
    const saved = git(dir, ['show', 'refs/memory/main:decisions/use-a-token-bucket.md']);
    assert.match(saved, new RegExp(`session: ${id}`));
    // an agent's commit carries the #!axme marker (the commit-msg hook asks for it)
    const own = commitAs(dir, null, { 'src/rate.ts': 'export const bucket = 1;\n' }, 'token bucket\n\n#!axme pr=none repo=acme/shop');
    assert.match(git(dir, ['notes', '--ref=axme', 'show', own]), new RegExp(`session: ${id}`));
    assert.equal(await staleCommits(dir), undefined);
    const end = await hookInProcess('session-end', {
      cwd: dir,
      input: JSON.stringify({ session_id: 'cc-own-1', cwd: dir, hook_event_name: 'SessionEnd', reason: 'other' }),
      harnessHere: true,
    });
    assert.equal(end.code, 0, end.stderr);
  });
});

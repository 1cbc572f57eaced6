import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { blame, showCommit } from '../../src/operations/code.ts';
import { decisionAdd } from '../../src/operations/decision/add.ts';
import { safetySet } from '../../src/operations/safety/edits.ts';
import { readSession } from '../../src/session/sessions.ts';
import { axmeIn, axmeInOk } from '../cli-in-process.ts';
import { initCore } from '../core.ts';
import { githubStandIn, pull, type Seen } from '../github-server.ts';
import { axmeOk, cleanEnv, git, tempRepo } from '../helpers.ts';
import { cliJson, cliText } from '../store-fixture.ts';
import { hookInProcess } from './hook-in-process.ts';

/**
 * Real git with the hooks installed; `agent` sets CLAUDECODE=1 as Claude Code does for its
 * commands. Asynchronous: the GitHub stand-in answers from this process while git runs.
 */
function gitRun(cwd: string, args: string[], env: NodeJS.ProcessEnv, agent = false): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env: cleanEnv({ ...env, ...(agent ? { CLAUDECODE: '1' } : {}) }) });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.on('error', () => {});
    child.stdin.end();
  });
}

describe('git hooks: real commits and pushes', () => {
  let api: { url: string; seen: Seen[]; close: () => Promise<void> };
  let dir: string;
  let remote: string;
  let cleanup: () => void;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    api = await githubStandIn({
      'GET /repos/acme/app/pulls/11': () => ({ status: 200, json: pull(11, 'open', false) }),
      'GET /repos/acme/app/pulls/12': () => ({ status: 200, json: pull(12, 'closed', true) }),
    });
    env = { GITHUB_API_URL: api.url, GITHUB_TOKEN: 't0ken' };
    ({ dir, cleanup } = tempRepo({ commit: true }));
    remote = mkdtempSync(join(tmpdir(), 'axme-remote-'));
    git(remote, ['init', '-q', '--bare', '-b', 'main']);
    git(dir, ['remote', 'add', 'origin', remote]);
    git(dir, ['push', '-q', 'origin', 'main']);
    // the user's own hook, which must keep running
    writeFileSync(join(dir, '.git', 'hooks', 'commit-msg'), '#!/bin/sh\necho "user hook ran" >> "$(git rev-parse --git-dir)/user-hook.log"\n');
    chmodSync(join(dir, '.git', 'hooks', 'commit-msg'), 0o755);
    const r = await axmeOk(dir, ['init', '--no-claude', '--json'], { env });
    await cliText(dir, decisionAdd, { title: 'Use Valkey for caching', decision: 'Valkey replaces Redis.' }, { env });
    assert.deepEqual(
      r.gitHooks.map((h: { hook: string; action: string }) => `${h.hook}:${h.action}`),
      ['commit-msg:chained', 'pre-push:created', 'post-commit:created', 'post-merge:created', 'post-rewrite:created'],
    );
  });
  after(async () => {
    await api.close();
    cleanup();
    rmSync(remote, { recursive: true, force: true });
  });

  test('init sets the notes settings and is idempotent', async () => {
    assert.equal(git(dir, ['config', 'notes.rewriteRef']).trim(), 'refs/notes/axme');
    assert.equal(git(dir, ['config', 'notes.rewriteMode']).trim(), 'cat_sort_uniq');
    assert.equal(git(dir, ['config', 'notes.displayRef']).trim(), 'refs/notes/axm[e]', 'a glob: git log stays quiet before the first note');
    assert.doesNotMatch(git(dir, ['log', '-1']), /warning/);
    const again = await axmeInOk(dir, ['init', '--no-claude', '--json'], { env });
    assert.ok(again.gitHooks.every((h: { action: string }) => h.action === 'unchanged'));
    assert.equal(git(dir, ['config', '--get-all', 'notes.rewriteRef']).trim().split('\n').length, 1);
  });

  test('an agent commit without the marker is rejected with the format; the user hook still ran', async () => {
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    git(dir, ['add', 'a.txt']);
    const r = await gitRun(dir, ['commit', '-q', '-m', 'Add a'], env, true);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /#!axme pr=<N\|none> repo=<owner>\/<name>/);
    assert.match(readFileSync(join(dir, '.git', 'user-hook.log'), 'utf8'), /user hook ran/);
  });

  test('the marker line becomes trailers; the subject form works too; a note links the commit', async () => {
    const r = await gitRun(dir, ['commit', '-q', '-m', 'Add a', '-m', '#!axme pr=none repo=acme/app'], env, true);
    assert.equal(r.status, 0, r.stderr);
    const msg = git(dir, ['log', '-1', '--format=%B']);
    assert.doesNotMatch(msg, /#!axme/);
    assert.match(msg, /Axme-PR: none\nAxme-Repo: acme\/app/);

    writeFileSync(join(dir, 'b.txt'), 'b\n');
    git(dir, ['add', 'b.txt']);
    const s = await gitRun(dir, ['commit', '-q', '-m', 'Cache sessions per D-001 #!axme pr=11 repo=acme/app'], env, true);
    assert.equal(s.status, 0, s.stderr);
    assert.equal(git(dir, ['log', '-1', '--format=%s']).trim(), 'Cache sessions per D-001');
    assert.match(git(dir, ['log', '-1', '--format=%(trailers:key=Axme-PR,valueonly)']), /^11/);
    const note = git(dir, ['log', '-1', '--notes=axme', '--format=%N']);
    assert.match(note, /^branch: main\ndecisions: D-001\nmemory: [0-9a-f]{40}\npr: 11\nrepo: acme\/app\n/);
  });

  test('show-commit and blame lead from code to the PR, the decision and the memory tip', async () => {
    // the commands' core in this process, as each prints it; the refusal's exit code from the whole command line (axmeIn)
    const c = await cliJson(dir, showCommit, { rev: 'HEAD' }, { env });
    assert.equal(c.pr, '11');
    assert.equal(c.repo, 'acme/app');
    assert.equal(c.prUrl, 'https://github.com/acme/app/pull/11');
    assert.deepEqual(c.decisions, [{ id: 'D-001', title: 'Use Valkey for caching', status: 'active' }]);
    assert.equal(c.memory, git(dir, ['rev-parse', 'refs/memory/main']).trim());
    const text = await cliText(dir, showCommit, { rev: 'HEAD' }, { env });
    assert.match(text, /PR #11 acme\/app  https:\/\/github.com\/acme\/app\/pull\/11\n  decision D-001 Use Valkey for caching/);
    const b = await cliJson(dir, blame, { target: 'b.txt:1' }, { env });
    assert.equal(b.length, 1);
    assert.equal(b[0].commit, c.commit);
    assert.deepEqual(b[0].lines, [1]);
    const bad = await axmeIn(dir, ['show-commit', 'no-such-rev'], { env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /names no commit/);
  });

  test('a commit made under an agent session carries Axme-Session; the session records the commit', async () => {
    // the session's hooks answered in this process, this process the harness (as it is the hooks' parent and git's)
    const start = await hookInProcess('session-start', {
      cwd: dir,
      input: JSON.stringify({ session_id: 'cc-git-1', cwd: dir, hook_event_name: 'SessionStart', source: 'startup' }),
      env,
      harnessHere: true,
    });
    assert.equal(start.code, 0, start.stderr);
    const id = readFileSync(join(dir, '.git', 'axme', 'sessions', 'harness', 'claude-code-cc-git-1'), 'utf8');
    writeFileSync(join(dir, 'e.txt'), 'e\n');
    git(dir, ['add', 'e.txt']);
    const r = await gitRun(dir, ['commit', '-q', '-m', 'Session work', '-m', '#!axme pr=none repo=acme/app'], env, true);
    assert.equal(r.status, 0, r.stderr);
    assert.match(git(dir, ['log', '-1', '--format=%B']), new RegExp(`Axme-Session: ${id}`));
    assert.match(git(dir, ['log', '-1', '--notes=axme', '--format=%N']), new RegExp(`session: ${id}`));
    const s = readSession(join(dir, '.git'), id)!;
    assert.deepEqual(s.commits, [git(dir, ['rev-parse', 'HEAD']).trim()]);
    const end = await hookInProcess('session-end', {
      cwd: dir,
      input: JSON.stringify({ session_id: 'cc-git-1', cwd: dir, hook_event_name: 'SessionEnd', reason: 'other' }),
      env,
      harnessHere: true,
    });
    assert.equal(end.code, 0, end.stderr);
  });

  test('a mention of the marker is not a marker', async () => {
    writeFileSync(join(dir, 'm.txt'), 'm\n');
    git(dir, ['add', 'm.txt']);
    const r = await gitRun(dir, ['commit', '-q', '-m', 'docs: explain the #!axme marker', '-m', '#!axme pr=none repo=acme/app'], env, true);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(git(dir, ['log', '-1', '--format=%s']).trim(), 'docs: explain the #!axme marker');
  });

  test('a merged PR is rejected in commit-msg, for people too; people may omit the marker', async () => {
    writeFileSync(join(dir, 'c.txt'), 'c\n');
    git(dir, ['add', 'c.txt']);
    const merged = await gitRun(dir, ['commit', '-q', '-m', 'More #!axme pr=12 repo=acme/app'], env, false);
    assert.notEqual(merged.status, 0);
    assert.match(merged.stderr, /PR #12 of acme\/app is already merged/);
    const plain = await gitRun(dir, ['commit', '-q', '-m', 'A person commits'], env, false);
    assert.equal(plain.status, 0, plain.stderr);
  });

  test('notes survive amend and rebase', async () => {
    const before = git(dir, ['log', '-1', '--notes=axme', '--format=%N']);
    await cliText(dir, decisionAdd, { title: 'Moves the memory tip', decision: 'x' }, { env });
    const r = await gitRun(dir, ['commit', '-q', '--amend', '-m', 'A person commits, amended'], env, false);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(git(dir, ['log', '-1', '--notes=axme', '--format=%N']), before, 'the amended commit keeps the original note, one memory line');
    const sub = await gitRun(dir, ['log', '-2', '--notes=axme', '--format=%N'], env);
    const base = git(dir, ['rev-parse', 'HEAD~3']).trim();
    const rb = await gitRun(dir, ['rebase', '-q', '--force-rebase', base], env, false);
    assert.equal(rb.status, 0, rb.stderr);
    assert.equal((await gitRun(dir, ['log', '-2', '--notes=axme', '--format=%N'], env)).stdout, sub.stdout, 'the rebased commits carry the same notes');
  });

  test('pre-push: protected branch, force and deletion refused for agents; a merged PR for everyone', async () => {
    const toMain = await gitRun(dir, ['push', '-q', 'origin', 'main'], env, true);
    assert.notEqual(toMain.status, 0);
    assert.match(toMain.stderr, /pushing to the protected branch main is not allowed/);

    git(dir, ['checkout', '-q', '-b', 'feature']);
    const ok = await gitRun(dir, ['push', '-q', 'origin', 'feature'], env, true);
    assert.equal(ok.status, 0, ok.stderr);
    git(dir, ['commit', '-q', '--amend', '--no-verify', '-m', 'rewritten']);
    const force = await gitRun(dir, ['push', '-q', '--force', 'origin', 'feature'], env, true);
    assert.notEqual(force.status, 0);
    assert.match(force.stderr, /not a fast-forward/);
    const del = await gitRun(dir, ['push', '-q', 'origin', ':main'], env, true);
    assert.match(del.stderr, /deleting the protected branch main/);

    git(dir, ['checkout', '-q', '-b', 'stale']);
    writeFileSync(join(dir, 'd.txt'), 'd\n');
    git(dir, ['add', 'd.txt']);
    git(dir, ['commit', '-q', '--no-verify', '-m', 'old work', '-m', 'Axme-PR: 12\nAxme-Repo: acme/app']);
    const stale = await gitRun(dir, ['push', '-q', 'origin', 'stale'], env, false);
    assert.notEqual(stale.status, 0);
    assert.match(stale.stderr, /PR #12 of acme\/app is already merged/);

    // people are bound too once git.enforceFor is everyone
    const person = await gitRun(dir, ['push', '-q', '--dry-run', 'origin', 'feature:main'], env, false);
    assert.equal(person.status, 0, person.stderr);
    await cliText(dir, safetySet, { key: 'git.enforceFor', value: 'everyone' }, { env });
    const bound = await gitRun(dir, ['push', '-q', 'origin', 'feature:main'], env, false);
    assert.match(bound.stderr, /pushing to the protected branch main is not allowed/);
    await cliText(dir, safetySet, { key: 'git.enforceFor', value: 'agents' }, { env });
  });

  test('uninstall removes the hooks and restores the user hook', async () => {
    await axmeInOk(dir, ['uninstall'], { env });
    const hook = readFileSync(join(dir, '.git', 'hooks', 'commit-msg'), 'utf8');
    assert.match(hook, /user hook ran/);
    assert.equal(existsSync(join(dir, '.git', 'hooks', 'pre-push')), false);
  });
});

describe('git hooks with husky', () => {
  let dir: string;
  let cleanup: () => void;
  before(() => ({ dir, cleanup } = tempRepo({ commit: true })));
  after(() => cleanup());

  test('a line is added to the husky hook files, keeping what is there; uninstall takes it out', async () => {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, '.husky'));
    writeFileSync(join(dir, '.husky', 'commit-msg'), 'npx --no -- commitlint --edit "$1"\n');
    git(dir, ['config', 'core.hooksPath', '.husky/_']);
    await initCore(dir, { gitHooks: true, scan: 'if-new' });
    const text = readFileSync(join(dir, '.husky', 'commit-msg'), 'utf8');
    // first, so an `exit` further down cannot skip it; the user's lines follow unchanged
    assert.match(text, /^#!\/bin\/sh\n.*"\$a" git-hook commit-msg "\$@" \|\| exit \$\?; else .* fi # axme-hook\nnpx --no -- commitlint --edit "\$1"\n$/);
    // committed with the repository (husky): no path of this machine in it, axme is found where it runs
    assert.ok(!text.includes(process.execPath) && !text.includes('dist/axme.cjs') && !text.includes(dir), text);
    assert.match(readFileSync(join(dir, '.husky', 'pre-push'), 'utf8'), /git-hook pre-push/);
    await initCore(dir, { gitHooks: true, scan: 'if-new' });
    assert.equal(readFileSync(join(dir, '.husky', 'commit-msg'), 'utf8'), text, 'idempotent');
    await axmeInOk(dir, ['uninstall']);
    assert.equal(readFileSync(join(dir, '.husky', 'commit-msg'), 'utf8'), '#!/bin/sh\nnpx --no -- commitlint --edit "$1"\n');
    assert.equal(existsSync(join(dir, '.husky', 'pre-push')), false, 'a file axme created is removed whole');
  });

  test('the husky pre-push line hands the pushed refs back to the rest of the file', async () => {
    writeFileSync(join(dir, '.husky', 'pre-push'), '#!/bin/sh\ncat > "$(git rev-parse --git-dir)/refs-seen.txt"\n');
    await initCore(dir, { gitHooks: true, scan: 'if-new' });
    const hook = join(dir, '.husky', 'pre-push');
    const zero = '0'.repeat(40);
    const head = git(dir, ['rev-parse', 'HEAD']).trim();
    const { spawnSync } = await import('node:child_process');
    const r = spawnSync('/bin/sh', [hook, 'origin', 'x'], {
      cwd: dir,
      env: cleanEnv(),
      input: `refs/heads/f ${head} refs/heads/f ${zero}\n`,
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(readFileSync(join(dir, '.git', 'refs-seen.txt'), 'utf8'), `refs/heads/f ${head} refs/heads/f ${zero}\n`);
    const agent = spawnSync('/bin/sh', [hook, 'origin', 'x'], {
      cwd: dir,
      env: cleanEnv({ CLAUDECODE: '1' }),
      input: `refs/heads/main ${head} refs/heads/main ${zero}\n`,
      encoding: 'utf8',
    });
    assert.equal(agent.status, 1);
    assert.match(agent.stderr, /protected branch main/);
  });
});

describe("git hooks refuse folders that are not the repository's own", () => {
  test('a global core.hooksPath, a hooks folder in the tree, a chained hook replaced since', async () => {
    const { dir, cleanup } = tempRepo({ commit: true });
    const shared = mkdtempSync(join(tmpdir(), 'axme-shared-hooks-'));
    const gitconfig = join(shared, 'gitconfig');
    try {
      writeFileSync(gitconfig, `[core]\n\thooksPath = ${shared}\n`);
      const g = await axmeIn(dir, ['init', '--no-claude'], { env: { GIT_CONFIG_GLOBAL: gitconfig } });
      assert.equal(g.code, 2);
      assert.match(g.stderr, /core\.hooksPath is set in the global git config/);
      git(dir, ['config', 'core.hooksPath', '.githooks']);
      const t = await axmeIn(dir, ['init', '--no-claude']);
      assert.equal(t.code, 2);
      assert.match(t.stderr, /points into the working tree/);
      git(dir, ['config', '--unset', 'core.hooksPath']);
      writeFileSync(join(dir, '.git', 'hooks', 'pre-push'), '#!/bin/sh\necho A\n');
      await initCore(dir, { gitHooks: true, scan: 'if-new' });
      writeFileSync(join(dir, '.git', 'hooks', 'pre-push'), '#!/bin/sh\necho B\n');
      const again = await axmeIn(dir, ['init', '--no-claude']);
      assert.equal(again.code, 2);
      assert.match(again.stderr, /was replaced since axme chained/);
      assert.equal(readFileSync(join(dir, '.git', 'hooks', 'pre-push.axme-previous'), 'utf8'), '#!/bin/sh\necho A\n', 'the first hook is never lost');
    } finally {
      cleanup();
      rmSync(shared, { recursive: true, force: true });
    }
  });
});

/** What `axme init` may have changed: the store ref, the working tree, the hooks folders, the git config. */
function footprint(dir: string, hooks: string[]): string {
  const ref = spawnSync('git', ['rev-parse', '--verify', '--quiet', 'refs/memory/main'], { cwd: dir, env: cleanEnv(), encoding: 'utf8' }).stdout.trim();
  const config = git(dir, ['config', '--local', '--list']);
  const files = hooks.map((h) => `${h}: ${existsSync(h) ? readdirSync(h).sort().join(' ') : '-'}`);
  return [`ref: ${ref || '-'}`, `status: ${git(dir, ['status', '--porcelain', '--untracked-files=all'])}`, `config: ${config}`, ...files].join('\n');
}

describe('init checks before it changes anything', () => {
  test('a core.hooksPath outside the repository (a shared folder) is refused; --hooks-path <dir> installs there and says where', async () => {
    const { dir, cleanup } = tempRepo({ commit: true });
    const shared = mkdtempSync(join(tmpdir(), 'axme-team-hooks-'));
    try {
      writeFileSync(join(shared, 'pre-commit'), '#!/bin/sh\nexit 0\n');
      git(dir, ['config', 'core.hooksPath', shared]);
      const before = footprint(dir, [shared]);
      const r = await axmeIn(dir, ['init']);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /outside this repository/);
      assert.match(r.stderr, /husky/);
      assert.match(r.stderr, new RegExp(`--hooks-path ${shared.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      assert.match(r.stderr, /--no-git-hooks/);
      assert.match(r.stderr, /nothing was changed/i);
      assert.equal(footprint(dir, [shared]), before, 'no store, no files, no settings');

      const wrong = await axmeIn(dir, ['init', '--no-claude', '--hooks-path', join(dir, '.git', 'hooks')]);
      assert.equal(wrong.code, 2, wrong.stderr);
      assert.match(wrong.stderr, /--hooks-path must name/);
      assert.equal(footprint(dir, [shared]), before);

      const ok = await axmeIn(dir, ['init', '--no-claude', '--hooks-path', shared]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.ok(ok.stdout.includes(join(shared, 'commit-msg')), ok.stdout);
      assert.match(ok.stderr, /shared/);
      assert.match(readFileSync(join(shared, 'commit-msg'), 'utf8'), /# axme-hook/);
      assert.equal(readFileSync(join(shared, 'pre-commit'), 'utf8'), '#!/bin/sh\nexit 0\n');
      const again = await axmeInOk(dir, ['init', '--no-claude', '--hooks-path', shared, '--json']);
      assert.equal(again.gitHooksDir, shared);
      assert.ok(again.gitHooks.every((h: { action: string }) => h.action === 'unchanged'));
    } finally {
      cleanup();
      rmSync(shared, { recursive: true, force: true });
    }
  });

  test('a refused init leaves no store and writes no file (hooks folder in the tree, global hooksPath, a broken .mcp.json)', async () => {
    const { dir, cleanup } = tempRepo({ commit: true });
    const shared = mkdtempSync(join(tmpdir(), 'axme-global-hooks-'));
    const gitconfig = join(shared, 'gitconfig');
    try {
      git(dir, ['config', 'core.hooksPath', '.githooks']);
      const hooks = [join(dir, '.git', 'hooks'), join(dir, '.githooks'), shared];
      let before = footprint(dir, hooks);
      const t = await axmeIn(dir, ['init']);
      assert.equal(t.code, 2, t.stderr);
      assert.equal(footprint(dir, hooks), before, 'refs/memory/main not created, no agent files, no notes settings');
      assert.match(t.stderr, /points into the working tree/);
      assert.match(t.stderr, /nothing was changed/i);

      git(dir, ['config', '--unset', 'core.hooksPath']);
      writeFileSync(gitconfig, `[core]\n\thooksPath = ${shared}\n`);
      before = footprint(dir, hooks);
      const g = await axmeIn(dir, ['init'], { env: { GIT_CONFIG_GLOBAL: gitconfig } });
      assert.equal(g.code, 2, g.stderr);
      assert.match(g.stderr, /core\.hooksPath is set in the global git config/);
      assert.equal(footprint(dir, hooks), before);

      writeFileSync(join(dir, '.mcp.json'), '{ not json');
      before = footprint(dir, hooks);
      const m = await axmeIn(dir, ['init']);
      assert.equal(m.code, 2, m.stderr);
      assert.match(m.stderr, /\.mcp\.json is not valid JSON/);
      assert.equal(footprint(dir, hooks), before);
    } finally {
      cleanup();
      rmSync(shared, { recursive: true, force: true });
    }
  });
});

describe('git hooks where no axme is on PATH (Codex runs commands in a login shell)', () => {
  test("an agent's commit is still checked: the hooks run the node and axme init recorded in the git dir", async () => {
    const { dir, cleanup } = tempRepo({ commit: true });
    const bin = mkdtempSync(join(tmpdir(), 'axme-path-'));
    try {
      await initCore(dir, { gitHooks: true, scan: 'if-new' });
      const launcher = readFileSync(join(dir, '.git', 'axme', 'launcher'), 'utf8').split('\n');
      assert.equal(launcher[0], process.execPath, 'the node init ran with');
      assert.match(launcher[1]!, /axme\.cjs$/, 'the axme script init ran, by its real path');
      // a PATH like a login shell's from /etc/profile: the tools a hook needs, but no node and no axme
      for (const tool of ['git', 'sh', 'grep', 'rm', 'cat', 'mktemp']) {
        const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
        symlinkSync(found, join(bin, tool));
      }
      const env = cleanEnv({ PATH: bin, CLAUDECODE: '1' });
      delete env.AXME_BIN;
      delete env.AXME_NODE;
      writeFileSync(join(dir, 'a.txt'), 'a\n');
      git(dir, ['add', 'a.txt']);
      const head = git(dir, ['rev-parse', 'HEAD']).trim();
      const refused = spawnSync('git', ['commit', '-q', '-m', 'no marker'], { cwd: dir, env, encoding: 'utf8' });
      assert.notEqual(refused.status, 0, `the commit without the marker is refused: ${refused.stderr}`);
      assert.match(refused.stderr, /#!axme/);
      assert.equal(git(dir, ['rev-parse', 'HEAD']).trim(), head);
      const ok = spawnSync('git', ['commit', '-q', '-m', 'with marker\n\n#!axme pr=none repo=acme/app'], { cwd: dir, env, encoding: 'utf8' });
      assert.equal(ok.status, 0, ok.stderr);
      assert.match(git(dir, ['log', '-1', '--format=%B']), /Axme-PR: none/);
      // post-merge too: git runs no post-commit for a merge, and its note comes through the same fallback
      git(dir, ['switch', '-q', '-c', 'side', 'HEAD~1']);
      writeFileSync(join(dir, 's.txt'), 's\n');
      git(dir, ['add', 's.txt']);
      git(dir, ['-c', `core.hooksPath=${join(dir, 'no-hooks')}`, 'commit', '-q', '-m', 'Add s']);
      git(dir, ['switch', '-q', '-']);
      const merged = spawnSync('git', ['merge', '--no-ff', '-q', 'side', '-m', 'Merge side', '-m', '#!axme pr=none repo=acme/app'], {
        cwd: dir,
        env,
        encoding: 'utf8',
      });
      assert.equal(merged.status, 0, merged.stderr);
      assert.match(git(dir, ['log', '-1', '--notes=axme', '--format=%N']), /pr: none\nrepo: acme\/app/, 'the merge commit got its note');
    } finally {
      cleanup();
      rmSync(bin, { recursive: true, force: true });
    }
  });
});

describe('git hooks in a linked worktree (agents often work in one)', () => {
  test('an axme put first on PATH is not what the hooks run: they run the one axme init recorded', async () => {
    const { dir, cleanup } = tempRepo({ commit: true });
    const fake = mkdtempSync(join(tmpdir(), 'axme-fake-'));
    const tree = `${dir}-wt`;
    try {
      await initCore(dir, { gitHooks: true, scan: 'if-new' });
      git(dir, ['worktree', 'add', '-q', tree, '-b', 'feature']);
      // an agent's own "axme": it would let every commit through
      writeFileSync(join(fake, 'axme'), `#!/bin/sh\necho ran > "${fake}/ran"\nexit 0\n`);
      chmodSync(join(fake, 'axme'), 0o755);
      const env = cleanEnv({ PATH: `${fake}:${process.env.PATH}`, CLAUDECODE: '1' });
      delete env.AXME_BIN;
      delete env.AXME_NODE;
      writeFileSync(join(tree, 'a.txt'), 'a\n');
      git(tree, ['add', 'a.txt']);
      const head = git(tree, ['rev-parse', 'HEAD']).trim();
      const refused = spawnSync('git', ['commit', '-q', '-m', 'no marker'], { cwd: tree, env, encoding: 'utf8' });
      assert.equal(existsSync(join(fake, 'ran')), false, 'the axme on PATH was not started');
      assert.notEqual(refused.status, 0, `the commit without the marker is refused: ${refused.stderr}`);
      assert.match(refused.stderr, /#!axme/);
      assert.equal(git(tree, ['rev-parse', 'HEAD']).trim(), head);
    } finally {
      spawnSync('git', ['worktree', 'remove', '--force', tree], { cwd: dir });
      cleanup();
      rmSync(fake, { recursive: true, force: true });
      rmSync(tree, { recursive: true, force: true });
    }
  });
});

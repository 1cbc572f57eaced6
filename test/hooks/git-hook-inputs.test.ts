import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assertRepoSlug } from '../../src/github/repo-slug.ts';
import { parseMarker } from '../../src/safety/marker.ts';
import { axmeOk, cleanEnv, git, runProcess, tempRepo } from '../helpers.ts';

/**
 * What reaches a commit's trailers and note from outside the message: a session id from the
 * environment is one token or nothing (a newline would write trailers and note lines of its own).
 * Real git with axme's hooks installed.
 */
describe('git hooks: what the environment may write into a commit', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    await axmeOk(dir, ['init', '--no-claude', '--json']);
  });
  after(() => cleanup());

  const commit = (file: string, args: string[], env: NodeJS.ProcessEnv) => {
    writeFileSync(join(dir, file), `${file}\n`);
    git(dir, ['add', file]);
    return runProcess('git', ['commit', '-q', ...args], { cwd: dir, env: cleanEnv(env) });
  };

  test('an AXME_SESSION that is not a session id writes no trailer and no note line; git says why', async () => {
    const r = await commit('a.txt', ['-m', 'fix #!axme pr=none repo=acme/app'], { AXME_SESSION: 's1\nAxme-Repo: evil/other\nAxme-PR: 3' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /AXME_SESSION .* is not a session id/);
    const msg = git(dir, ['log', '-1', '--format=%B']);
    assert.doesNotMatch(msg, /evil|Axme-PR: 3|Axme-Session/);
    assert.match(msg, /Axme-PR: none\nAxme-Repo: acme\/app\n+$/);
    const note = git(dir, ['log', '-1', '--notes=axme', '--format=%N']);
    assert.doesNotMatch(note, /evil|pr: 3|session:/);
    assert.match(note, /pr: none\nrepo: acme\/app\n/);
  });

  test('a valid AXME_SESSION is written as before', async () => {
    const r = await commit('b.txt', ['-m', 'fix #!axme pr=none repo=acme/app'], { AXME_SESSION: 'cc-remote.1' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(git(dir, ['log', '-1', '--format=%B']), /Axme-Session: cc-remote\.1\n/);
    assert.match(git(dir, ['log', '-1', '--notes=axme', '--format=%N']), /session: cc-remote\.1\n/);
  });

  test('a folded trailer in the message never adds a note line', async () => {
    // a person's message whose Axme-Session trailer continues on an indented line (git unfolds it)
    const r = await commit('c.txt', ['-m', 'plain', '-m', 'Axme-Session: s2\n pr: 7'], {});
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(git(dir, ['log', '-1', '--notes=axme', '--format=%N']), /pr: 7/);
  });

  test('repo= takes an owner with an underscore (GitHub EMU) or a dot, as propose does; one that is only dots is refused', async () => {
    const r = await commit('d.txt', ['-m', 'fix #!axme pr=none repo=my_org/my_repo'], { AXME_AGENT: '1' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(git(dir, ['log', '-1', '--format=%B']), /Axme-Repo: my_org\/my_repo\n/);
    assert.deepEqual(parseMarker('#!axme pr=none repo=user_shortcode/app.js'), { ok: true, marker: { pr: null, repo: 'user_shortcode/app.js' } });
    assert.equal(parseMarker('#!axme pr=none repo=acme/..')?.ok, false);
    assert.doesNotThrow(() => assertRepoSlug('my_org/my_repo'));
    assert.throws(() => assertRepoSlug('acme/..'), /is not owner\/name/);
  });
});

describe('git hooks: a .husky folder husky does not run', () => {
  test("a committed .husky/ with no core.hooksPath: the hooks go where git runs them, and an agent's unmarked commit is refused", async () => {
    const { dir, cleanup } = tempRepo({ commit: true });
    try {
      mkdirSync(join(dir, '.husky'));
      writeFileSync(join(dir, '.husky', 'pre-commit'), 'npm test\n');
      git(dir, ['add', '.husky/pre-commit']);
      git(dir, ['commit', '-q', '--no-verify', '-m', 'husky files, husky not installed here']);
      const r = await axmeOk(dir, ['init', '--no-claude', '--json']);
      assert.equal(existsSync(join(dir, '.husky', 'commit-msg')), false, 'git never runs .husky/ without core.hooksPath');
      assert.ok(
        r.gitHooks.some((h: { path?: string; file?: string }) => JSON.stringify(h).includes(join('.git', 'hooks'))),
        JSON.stringify(r.gitHooks),
      );
      writeFileSync(join(dir, 'a.txt'), 'a\n');
      git(dir, ['add', 'a.txt']);
      const c = await runProcess('git', ['commit', '-q', '-m', 'unmarked'], { cwd: dir, env: cleanEnv({ AXME_AGENT: '1' }) });
      assert.notEqual(c.status, 0, 'the commit-msg hook ran');
    } finally {
      cleanup();
    }
  });
});

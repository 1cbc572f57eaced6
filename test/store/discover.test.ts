import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { discoverOrdinaryRepo } from '../../src/store/discover.ts';
import { cleanEnv, git } from '../helpers.ts';

/** What git itself says, or null when git says this is not a repository. */
function gitSays(cwd: string, env: NodeJS.ProcessEnv) {
  try {
    const out = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir', '--is-bare-repository', '--show-object-format'], {
      cwd,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [gitDir, commonDir, bare, objectFormat] = out.trim().split('\n');
    return { gitDir, commonDir, bare: bare === 'true', objectFormat };
  } catch {
    return null;
  }
}

describe('finding a repository without a git process gives what git rev-parse gives, or defers to git', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'axme-discover-')));
  after(() => rmSync(root, { recursive: true, force: true }));
  const env = cleanEnv();
  const repo = join(root, 'repo');
  mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
  git(repo, ['init', '-q']);
  git(repo, ['-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'init']);
  git(repo, ['worktree', 'add', '-q', join(root, 'linked')]);
  symlinkSync(repo, join(root, 'via-link'));
  const sub = join(repo, 'src', 'vendored');
  mkdirSync(sub);
  git(sub, ['init', '-q']);
  const sha256 = join(root, 'sha256');
  mkdirSync(sha256);
  git(sha256, ['init', '-q', '--object-format=sha256']);
  const bare = join(root, 'bare.git');
  git(root, ['init', '-q', '--bare', bare]);
  const plain = join(root, 'not-a-repo');
  mkdirSync(plain);

  const ordinary: Array<[string, string]> = [
    ['the top of a working tree', repo],
    ['a folder deep inside it', join(repo, 'src', 'deep')],
    ['a path through a symbolic link (git answers with real paths)', join(root, 'via-link', 'src')],
    ['a linked worktree (.git is a gitdir: file, the common dir is elsewhere)', join(root, 'linked')],
    ['a repository nested inside another', sub],
  ];
  for (const [what, cwd] of ordinary) {
    test(`${what}: the same answer as git`, () => {
      const fast = discoverOrdinaryRepo(cwd, env);
      assert.ok(fast, 'an ordinary working tree is found without git');
      assert.deepEqual(fast, gitSays(cwd, env));
    });
  }

  const deferred: Array<[string, string, NodeJS.ProcessEnv]> = [
    ['a SHA-256 repository (an [extensions] section)', sha256, env],
    ['a bare repository', bare, env],
    ['inside a .git folder', join(repo, '.git', 'refs'), env],
    ['a folder in no repository', plain, env],
    ['GIT_DIR set', plain, { ...env, GIT_DIR: join(repo, '.git') }],
    ['GIT_CEILING_DIRECTORIES set', join(repo, 'src', 'deep'), { ...env, GIT_CEILING_DIRECTORIES: join(repo, 'src') }],
  ];
  for (const [what, cwd, e] of deferred) {
    test(`${what}: git is asked instead`, () => {
      assert.equal(discoverOrdinaryRepo(cwd, e), null);
    });
  }

  test('a config that says bare = true in a working tree: git is asked instead', () => {
    const odd = join(root, 'odd');
    mkdirSync(odd);
    git(odd, ['init', '-q']);
    git(odd, ['config', 'core.bare', 'true']);
    assert.equal(discoverOrdinaryRepo(odd, env), null);
  });

  test('a .git file that names no repository: git is asked instead (and git refuses it)', () => {
    const broken = join(root, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, '.git'), 'gitdir: ../nowhere\n');
    assert.equal(discoverOrdinaryRepo(broken, env), null);
    assert.equal(gitSays(broken, env), null);
  });
});

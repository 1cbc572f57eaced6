import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gitGlobalOption, gitSubcommandAt } from '../../src/safety/git-global-options.ts';
import { testHoles } from './context.ts';

/**
 * git's global options as git reads them (git.c handle_options): one table, read by every check
 * that looks for git's subcommand. `--shallow-file` and `--attr-source` take the next word as
 * their value, as `-C` does: the word after it is not the subcommand. Rows: [an everyday command,
 * its dangerous neighbour]; the context is context.ts's (the project /home/u/proj on main).
 */
testHoles({
  // git-rules.ts parseGit: the subcommand the git rules, the families and the denied prefixes read
  'a global option that takes the next word hides no push or tag': [
    ['git --shallow-file .git/shallow fetch origin', 'git --shallow-file .git/shallow push --force origin main'],
    ['git --attr-source HEAD log -1', 'git --attr-source HEAD push --force origin main'],
    ['git --attr-source HEAD status', 'git --attr-source HEAD tag -m "$HOME" v1'],
  ],
  // path-uses-git.ts: what a git verb does to the paths it names
  'a global option that takes the next word hides no path git writes or removes': [
    ['git --shallow-file x rm -r src/old', 'git --shallow-file x rm -r ~/.ssh'],
    ['git --attr-source HEAD checkout -- src/a.ts', 'git --attr-source HEAD checkout -- ~/.bashrc'],
  ],
  // network-sinks.ts: a note's message goes with the next push
  "a global option that takes the next word hides no note's message": [
    ['git --shallow-file x notes add -m "fix"', 'git --shallow-file x notes add -m "$AWS_SECRET_ACCESS_KEY"'],
  ],
  // families/git-branch-listings.ts: a listing of every local branch handed to a delete
  'a listing of the branches behind git -C is still the listing': [
    ['git -C . branch --list "feat/*" | xargs git branch -D', 'git -C . branch --list | xargs git branch -D'],
    ['git branch -D $(git -C . branch --list "feat/*")', 'git branch -D $(git -C . branch --list)'],
    ['git branch --list "feat/*" | xargs git -C . branch -D', 'git branch --list | xargs git -C . branch -D'],
  ],
});

test('a global option and its value: the next word, after `=`, or either, as git takes each', () => {
  assert.deepEqual(gitGlobalOption(['-C', 'dir', 'status'], 0), { name: '-C', value: 'dir', next: 2 });
  assert.deepEqual(gitGlobalOption(['--git-dir=.git', 'status'], 0), { name: '--git-dir', value: '.git', next: 1 });
  assert.deepEqual(gitGlobalOption(['--git-dir', '.git', 'status'], 0), { name: '--git-dir', value: '.git', next: 2 });
  // `--exec-path` alone prints where git's helpers are; only `--exec-path=DIR` sets them
  assert.deepEqual(gitGlobalOption(['--exec-path', 'status'], 0), { name: '--exec-path', value: undefined, next: 1 });
  // `--list-cmds` takes its value after `=` only; `-C` and `--shallow-file` the next word only
  assert.deepEqual(gitGlobalOption(['--list-cmds', 'main'], 0), { name: '--list-cmds', value: undefined, next: 1 });
  assert.deepEqual(gitGlobalOption(['--shallow-file=x', 'status'], 0), { name: '--shallow-file=x', value: undefined, next: 1 });
  assert.deepEqual(gitGlobalOption(['--no-pager', 'log'], 0), { name: '--no-pager', value: undefined, next: 1 });
});

test("git's subcommand stands past its global options", () => {
  assert.equal(gitSubcommandAt(['-C', 'x', '-c', 'k=v', '--no-pager', 'log']), 5);
  assert.equal(gitSubcommandAt(['--attr-source', 'HEAD', 'push']), 2);
  assert.equal(gitSubcommandAt(['--git-dir=.git', 'status']), 1);
  assert.equal(gitSubcommandAt(['-C', 'x']), 2);
});

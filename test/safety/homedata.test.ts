import { testHoles } from './context.ts';

/**
 * The user's data outside the project, programs planted where they run later, and guarded files
 * reverted through git's stash: [an everyday command, its dangerous neighbour]. The context is
 * context.ts's: the project /home/u/proj on main, home /home/u.
 */
testHoles({
  // `git stash push -- PATH` reverts the path to its last commit, as `git checkout -- PATH` does
  'git stash of a guarded path reverts it as git checkout does': [
    ['git stash', 'git stash push .claude/settings.json'],
    ['git stash push src/a.ts', 'git stash push -- .husky/'],
    ['git stash -p', 'git stash -p -- .husky/pre-commit'],
    ['git stash push -m ".husky" src/a.ts', 'git stash -- .claude/settings.json'],
    ['git stash pop', 'git stash push -m wip .claude/settings.json'],
  ],
});

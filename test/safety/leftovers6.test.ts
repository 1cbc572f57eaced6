import { testHoles } from './context.ts';

/**
 * The batteries' leftovers (redteam7, 8 and 9's `left:` lines) and the lead's, each closed where its
 * kind is decided: [an everyday command that must pass, its dangerous neighbour]. The context is
 * context.ts's: the project /home/u/proj on main, home /home/u.
 */

testHoles({
  // git-export-trees.ts: a tree-writing verb given a work tree apart from the checkout writes there, as tar -x -C does
  'a checkout into a work tree of its own (an export)': [
    ['git --work-tree=/tmp/export checkout HEAD -- .', 'git checkout HEAD -- .'],
    ['GIT_WORK_TREE=/tmp/export git checkout HEAD -- .', 'git --work-tree=. checkout -- .'],
    ['git --work-tree /tmp/site restore --source=gh-pages -- .', 'git --work-tree=/home/u/proj restore --source=HEAD -- .'],
    ['git -C /tmp --work-tree=out checkout HEAD -- .', 'cd src && git --work-tree=.. checkout -- .'],
    ['git --work-tree=dist/export checkout v1.2 -- .', 'git --work-tree=~/.ssh checkout HEAD -- .'],
    ['git --work-tree=/tmp/x reset --hard', 'GIT_WORK_TREE=/etc git checkout HEAD -- .'],
    ['git --work-tree=/tmp/export checkout HEAD -- .', 'git --work-tree="$D" checkout HEAD -- .'],
    ['git --work-tree=/tmp/export checkout HEAD -- .', 'cd /tmp && git --git-dir=/home/u/proj/.git --work-tree=/home/u/proj checkout -- .'],
    ['git --work-tree=/tmp/export status', 'git --work-tree=~ checkout HEAD -- .'],
  ],
});

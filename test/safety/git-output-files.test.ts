import { testHoles } from './context.ts';

/**
 * The files git writes its output into (path-uses-git.ts gitOutputFiles): the diff options'
 * `--output=<file>` of log, show, diff and their kin, and format-patch's folder of patches (`-o`,
 * `--output-directory`), judged as any other write of that path: [an everyday command that must
 * pass, its dangerous neighbour]. The context is context.ts's: the project /home/u/proj on main,
 * home /home/u.
 */

testHoles({
  "git's --output writes the file it names": [
    ['git diff --output=out.patch', 'git log --output ~/.bashrc'],
    ['git log -p --output=/tmp/log.txt', 'git log -p --output=/home/u/.bashrc'],
    ['git show --stat --output changes.txt HEAD', 'git diff --output=/home/u/.ssh/authorized_keys'],
    ['git diff-tree -p --output=build/tree.diff HEAD', 'git whatchanged --output=$HOME/.profile'],
    ['git range-diff --output=rd.txt main...feat', 'git diff --output=.git/hooks/pre-commit'],
  ],
  "format-patch's folder of patches": [
    ['git format-patch -o patches/ HEAD~3', 'git format-patch -o ~/.ssh HEAD~1'],
    ['git format-patch -o /tmp/p HEAD~1', 'git format-patch --output-directory=/home/u/.ssh HEAD~1'],
    ['git format-patch --output-directory out main', 'git format-patch -o/home/u/.ssh HEAD~1'],
  ],
});

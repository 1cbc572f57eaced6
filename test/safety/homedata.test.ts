import { testHoles } from './context.ts';

/**
 * The user's data outside the project, programs planted where they run later, and guarded files
 * reverted through git's stash: [an everyday command, its dangerous neighbour]. The context is
 * context.ts's: the project /home/u/proj on main, home /home/u.
 */
testHoles({
  // a folder directly in the home, a project in a folder of code or beside this one: the user's data (home-data.ts)
  "the user's data outside the project, removed recursively": [
    ['rm ~/Downloads/old.zip', 'rm -rf ~/Documents'],
    ['rm -rf ~/.cache/pip', 'rm -rf ~/Desktop ~/Pictures'],
    ['rm -rf ~/.npm/_cacache', 'rm -rf ~/projects'],
    ['rm -rf ~/src/other-repo/node_modules', 'rm -rf ~/src/other-repo'],
    ['rm -rf ../proj-build', 'rm -rf ../other-repo'],
    ['rm -rf /tmp/build', 'cd .. && rm -rf other'],
    ['rm -rf ~/Downloads/old-notes', 'rm -rf ~/Documents/*'],
    ['rm -rf ~/Downloads/*.zip', 'rm -rf "$HOME/Pictures"'],
    ['rm -rf vendor/x/.git', 'rm -rf ../other-repo/.git'],
    ['rm -rf /tmp/x/.git', 'rm -rf ~/src/other/.git'],
    ['rimraf dist', 'rimraf ~/Documents'],
  ],
  'the same data through find -delete, rsync --delete, mv and trash': [
    ['find ~/Documents -name "*.tmp" -delete', 'find ~/Documents -delete'],
    ['find ~/Downloads -name "*.dmg" -delete', 'find ~/projects -mindepth 1 -delete'],
    ['rsync -a --delete src/ /tmp/mirror/', 'rsync --delete empty/ ~/Documents/'],
    ['mv ~/Documents/a.txt ~/Desktop/', 'mv ~/Documents /tmp/'],
    ['mv ~/notes.txt ./notes.txt', 'mv ~/projects ~/old/'],
    ['trash dist', 'trash ~/Documents'],
  ],
  // an archiver that moves what it packs, shred that overwrites what it is handed: as mv and rm of their operands
  'shred, zip -m and tar --remove-files of the same data': [
    ['shred -u secret.txt', 'shred -u ~/Documents/*'],
    ['zip -r /tmp/a.zip ~/Documents', 'zip -rm /tmp/a.zip ~/Documents'],
    ['zip -rm dist.zip dist', 'zip -m -r a.zip ~/src/other'],
    ['tar -czf x.tgz ~/Pictures', 'tar --remove-files -cf x.tar ~/Pictures'],
    ['tar --remove-files -czf logs.tgz logs', 'tar --remove-files -cf /tmp/p.tar ~/projects'],
  ],
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

/**
 * Holes a read-only review of the day's guard changes found, each a command the guard denied
 * before them and let through after, beside its everyday neighbour: a find that prunes a name and
 * removes it (`-prune` keeps a name out only before `-o`), `$PWD` after a `cd`, and an array
 * appended to a plain variable.
 */
import { testHoles } from './context.ts';

testHoles({
  // `-name X -prune -exec rm -rf {} +` removes X itself; `-name X -prune -o …` keeps it out
  'a find that prunes what it removes': [
    ['find . -type d -name node_modules -prune -exec rm -rf {} +', 'find . -name .git -prune -exec rm -rf {} +'],
    ['find . -path ./.git -prune -o -name "*.pyc" -delete', 'find . -path ./.git -prune -exec rm -rf {} \\;'],
    ['find . -name .git -prune -o -type f -name "*.bak" -exec rm {} +', 'find . -name .claude -prune -exec rm -rf {} +'],
    ['find . -name dist -prune -exec rimraf {} +', 'find . -name .husky -prune -exec rimraf {} +'],
  ],
  // `$PWD`, `$(pwd)`, `~+` name the folder a cd moved to, and still any folder when that passes
  '$PWD after a cd': [
    ['cd src && rm -rf "$PWD/dist"', 'cd ~ && rm -rf "$PWD/.ssh"'],
    ['ls "$PWD/src"', 'cd ~ && rm -rf "$(pwd)/.ssh"'],
    ['cat "$PWD/README.md"', 'cd /etc && echo x > "$PWD/hosts"'],
    ['export PATH="$PWD/node_modules/.bin:$PATH"', 'cd ~ && rm -rf ~+/.ssh'],
  ],
  // `x=build; x+=(~)` is the array (build ~), not the word build~
  'an array appended to a plain variable': [
    ['x=build; x+=(dist); rm -rf "${x[@]}"', 'x=build; x+=(~); rm -rf "${x[@]}"'],
    ['a=(build); a+=(dist); rm -rf "${a[@]}"', 'x=build; x+=(/etc); rm -rf "${x[@]}"'],
  ],
});

testHoles({
  // `--clear` deletes what the folder held before the environment is made there
  "a virtual environment's --clear over a folder that matters": [
    ['python -m venv --clear .venv', 'python -m venv --clear ~'],
    ['python3 -m venv --clear --upgrade-deps venv', 'python3 -m venv --clear .'],
    ['virtualenv --clear .venv', 'virtualenv --clear ~'],
    ['uv venv .venv', 'uv venv --clear "$HOME"'],
  ],
});

testHoles({
  // a setting exported for every later git (and the variables git falls back to) is checked where it is set
  'git settings exported before git': [
    ['export GIT_PAGER=cat; git log', "export GIT_PAGER='rm -rf ~'; git log"],
    ["export GIT_SSH_COMMAND='ssh -o StrictHostKeyChecking=no'", "export GIT_SSH_COMMAND='rm -rf ~'"],
    ['export GIT_EDITOR=vim', "declare -x GIT_EDITOR='rm -rf ~'"],
    ['export PAGER=less', "PAGER='rm -rf ~' git log"],
    ["export EDITOR='code --wait'", "export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='rm -rf ~'"],
  ],
});

testHoles({
  // a removing find's name test selects the start's own entry first: `find ~ -name .bashrc` is `~/.bashrc`
  'a home dotfile removed by a find that names it': [
    ['find . -name .bashrc -delete', 'find ~ -name .bashrc -delete'],
    ['find ~/proj -name "*.log" -delete', 'find ~ -maxdepth 1 -name ".*rc" -delete'],
    ['find ~/.cache -name "*.tmp" -delete', 'find ~ -name .profile -exec rm {} +'],
  ],
});

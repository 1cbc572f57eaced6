import { testHoles } from './context.ts';

/**
 * Holes a review found beside the guard's settings and launchers: [an everyday command, its
 * dangerous neighbour]. The context is context.ts's: the project /home/u/proj on main, home /home/u.
 */
testHoles({
  // git-settings.ts COMMAND_SETTINGS: what git runs later is checked where the setting is written or given
  'git settings that run their value': [
    ['git config interactive.singleKey true', "git config --global interactive.diffFilter 'rm -rf ~'"],
    ["git config interactive.diffFilter 'delta --color-only'", "git config interactive.diffFilter 'rm -rf /etc'"],
    ['git config trailer.sign.ifExists addIfDifferent', "git config --global trailer.x.cmd 'rm -rf ~'"],
    // path-uses.ts: the setting's name is no path (`*.key` is a secret's name)
    ["git config trailer.sign.key 'Signed-off-by'", "git config trailer.sign.command 'rm -rf ~'"],
    ["git config --global trailer.sign.cmd 'git config user.name'", "git config --global trailer.x.command 'rm -rf ~'"],
    ['git interpret-trailers --trailer x=1 msg.txt', "git -c trailer.x.cmd='rm -rf ~' interpret-trailers --trailer x=1 msg.txt"],
    ['git config gpg.format ssh', "git config --global gpg.ssh.defaultKeyCommand 'rm -rf ~'"],
    ["git config --global gpg.ssh.defaultKeyCommand 'ssh-add -L'", "git -c gpg.ssh.defaultKeyCommand='rm -rf ~' log --show-signature"],
    ["git config tar.tar.xz.command 'xz -c'", "git config tar.tgz.command 'rm -rf ~'"],
  ],
  // `submodule.<x>.update`: `!cmd` runs cmd, the strategies run nothing
  "a submodule's update command": [
    ['git config submodule.x.update rebase', "git config submodule.x.update '!rm -rf ~'"],
    ['git -c submodule.x.update=merge submodule update', "git -c submodule.x.update='!rm -rf ~' submodule update"],
  ],
  // the browser gh and xdg-open start, as GH_PAGER and GH_EDITOR
  'variables that name a browser': [
    ['export BROWSER=firefox', "export BROWSER='rm -rf ~'"],
    ['GH_BROWSER=firefox gh pr view --web', "GH_BROWSER='rm -rf ~' gh pr view --web"],
    ["export GIT_SEQUENCE_EDITOR='code --wait'", "export GIT_SEQUENCE_EDITOR='rm -rf ~'"],
  ],
  // tcl-script.ts: exec, spawn, system and open "|…" wherever they stand as a command
  'the commands a Tcl script of expect starts': [
    ["expect -c 'spawn ls'", "expect -c 'system rm -rf ~'"],
    ["expect -c 'system {rm -rf build}'", "expect -c 'system {rm -rf ~}'"],
    ["expect -c 'set x [exec date]; puts $x'", "expect -c 'set x [exec rm -rf ~]'"],
    ["expect -c 'puts [exec git status]'", "expect -c 'puts [exec rm -rf /etc]'"],
    ["expect -c 'if 1 {exec ls}'", "expect -c 'if 1 {exec rm -rf ~}'"],
    ["expect -c 'eval exec ls'", "expect -c 'eval exec rm -rf ~'"],
    ['expect -c \'open "|ls"\'', 'expect -c \'open "|rm -rf ~"\''],
    ["expect -dc 'spawn ls'", "expect -dc 'spawn rm -rf ~'"],
    ['expect -c \'exec sh -c "ls -la"\'', 'expect -c \'exec sh -c "rm -rf ~"\''],
    ['expect -c \'spawn ssh host; expect "$ "; send "ls\\r"\'', "expect -c 'proc p {} {exec rm -rf ~}; p'"],
  ],
  // `send` types a line into what expect spawned
  'the lines expect sends to what it spawned': [
    ['expect -c \'spawn ssh host; expect "(yes/no)?"; send "yes\\r"; interact\'', 'expect -c \'spawn bash; send "rm -rf ~\\r"; expect eof\''],
  ],
  // a Tcl script read on stdin is read as `-c`'s; one in a file is not seen
  'a Tcl script on stdin': [
    ['expect script.exp', "expect <<< 'spawn rm -rf ~'"],
    ["expect <<< 'spawn ls'", "echo 'spawn rm -rf ~' | expect"],
    ['expect -f script.exp', "expect -f - <<< 'spawn rm -rf ~'"],
    ["echo 'puts hi' | tclsh", "tclsh <<< 'exec rm -rf ~'"],
  ],
  // launchers.ts: screen's options after -X are skipped, and `-X exec`/`-X screen` hand their words on as words
  'the command screen -X runs': [
    ['screen -X -S x quit', 'screen -X -S x exec rm -rf ~'],
    ['screen -X -p 0 stuff ls', 'screen -X -p 0 exec rm -rf ~'],
    ["screen -X exec sh -c 'ls -la'", 'screen -X exec sh -c "rm -rf ~"'],
    ["screen -S dev -X screen -t w sh -c 'npm test'", 'screen -X screen sh -c "rm -rf ~"'],
    ['byobu -X quit', 'byobu -X exec rm -rf ~'],
  ],
  // launcher-shapes.ts: watchexec with no shell runs its words as an argv; nodemon hands the options it does not know on to the exec line
  'what watchexec and nodemon run on each change': [
    ["watchexec -n -- sh -c 'npm test'", 'watchexec -n -- sh -c "rm -rf ~"'],
    ['watchexec --shell=none -- npm test', 'watchexec --shell=none -- sh -c "rm -rf ~"'],
    ["nodemon --exec 'node --inspect' app.js", 'nodemon --exec rm -rf ~'],
    ['nodemon --watch src -x ts-node --files src/index.ts', 'nodemon -x rm -rf ~'],
  ],
  // git-settings.ts FILE_VARIABLES: setting HISTFILE is judged as the `history -w` that writes it; the default history file is no dotfile to guard
  'the file bash writes its history into': [
    ['history -w ~/.bash_history', 'HISTFILE=~/.bashrc history -w'],
    ['history -a ~/.bash_history', 'HISTFILE=~/.bashrc; history -w'],
    ['export HISTFILE=/dev/null; history -a', 'export HISTFILE=~/.bashrc; history -w'],
    ['HISTFILE=/tmp/h history -w', 'export HISTFILE=$HOME/.profile'],
    ['history -w "$HOME/.bash_history"', 'history -w ~/.bashrc'],
  ],
});

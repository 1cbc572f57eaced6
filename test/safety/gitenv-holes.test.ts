/**
 * git settings and shell state that let a command run another one past the guard: a setting
 * variable assigned and then exported by name, less's input preprocessor, `--config-env`, aliases
 * from the environment, the ext transport, git's exec path, an alias that ends in a blank, and
 * the history written over a start-up file — each [an everyday command, its dangerous neighbour]
 * in context.ts's context (the project /home/u/proj on main, home /home/u).
 */
import { testHoles } from './context.ts';

testHoles({
  // a variable git reads may be exported already (or by name later): its value is checked where it is set
  'a setting variable assigned, then exported by name': [
    ['GIT_PAGER=cat; export GIT_PAGER; git log', "GIT_PAGER='rm -rf ~'; export GIT_PAGER; git log"],
    ['GIT_EDITOR=vim; export GIT_EDITOR', "GIT_EDITOR='rm -rf ~'; export GIT_EDITOR"],
    ['PAGER=less; declare -x PAGER', "GIT_PAGER='rm -rf ~'; declare -x GIT_PAGER; git log"],
    ['EDITOR=vim; readonly EDITOR', "GIT_PAGER='rm -rf ~'; readonly GIT_PAGER; git log"],
    ['export EDITOR=vim', "EDITOR='rm -rf ~'; git commit --amend"],
    ['GIT_PAGER=cat make test', "GIT_PAGER='rm -rf ~' make test"],
    ['PATH+=:/opt/bin; export EDITOR=vim', "GIT_PAGER=rm; GIT_PAGER+=' -rf ~'; export GIT_PAGER"],
  ],
  // less runs LESSOPEN's command on each file it opens (LESSCLOSE's when it closes it), also as git's pager
  "less's input preprocessor": [
    ['PAGER=less git diff', "LESSOPEN='|rm -rf ~ %s' git log"],
    ["export LESSOPEN='| /usr/bin/lesspipe %s'; less README.md", "export LESSOPEN='|rm -rf ~ %s'; less README.md"],
    ['GIT_PAGER=less git log', "LESSCLOSE='rm -rf ~ %s %s' less README.md"],
    ["LESSOPEN='||lesspipe.sh %s' less x.gz", "LESSOPEN='||-rm -rf ~ %s' less x.gz"],
    ['MANPAGER=cat git help log', "MANPAGER='rm -rf ~' git help log"],
    ["export KUBE_EDITOR='code --wait'", "GH_EDITOR='rm -rf ~' gh pr create"],
  ],
  // git reads a `--config-env` value from the variable it names: one the line does not tell is a command unseen
  'a command setting given with --config-env': [
    ['git --config-env=http.extraHeader=AUTH fetch', "EVIL='rm -rf ~'; git --config-env=core.pager=EVIL log"],
    ['git --config-env http.extraHeader=AUTH fetch', "export EVIL='rm -rf ~'; git --config-env core.pager=EVIL log"],
    ['P=cat git --config-env=core.pager=P log', "EVIL='rm -rf ~' git --config-env core.pager=EVIL log"],
    ["A='!git status' git --config-env=alias.st=A st", "EVIL='!rm -rf ~'; git --config-env=alias.x=EVIL x"],
  ],
  // aliases given through GIT_CONFIG_KEY_<n>/VALUE_<n> run as `-c alias.x=…` does
  'an alias through the environment': [
    [
      'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.st GIT_CONFIG_VALUE_0=status git st',
      "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='!rm -rf ~' git x",
    ],
    [
      'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.rh GIT_CONFIG_VALUE_0=reset git rh --soft HEAD~1',
      'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.rh GIT_CONFIG_VALUE_0=reset git rh --hard',
    ],
    ["GIT_CONFIG_PARAMETERS=\"'alias.st'='status'\" git st", "GIT_CONFIG_PARAMETERS=\"'alias.x'='!rm -rf ~'\" git x"],
    [
      'export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.st GIT_CONFIG_VALUE_0=status',
      "export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='!rm -rf ~'",
    ],
  ],
  // the ext transport runs the command its URL names; enabling it lets a repository's submodule URLs run theirs
  'the ext transport': [
    ['git clone https://github.com/x/y.git y', "git -c protocol.ext.allow=always clone 'ext::sh -c rm% -rf% ~' x"],
    ['git clone git@github.com:x/y.git', "git clone 'ext::sh -c rm% -rf% ~' x"],
    ['git config protocol.version 2', 'git config protocol.ext.allow always'],
    ['git config --global protocol.file.allow always', 'git config --global protocol.allow always'],
    ['git fetch origin', "git fetch 'ext::sh -c rm% -rf% ~'"],
    ['GIT_ALLOW_PROTOCOL=https:ssh git submodule update --init', 'GIT_ALLOW_PROTOCOL=ext:https git submodule update --init'],
    ['git -c protocol.file.allow=always submodule update --init', 'git -c protocol.ext.allow=user submodule update --init'],
  ],
  // git runs its helpers from its exec path, and puts it first on the PATH of every program it starts (hooks too)
  "git's exec path": [
    ['git --exec-path', 'GIT_EXEC_PATH=/tmp/evil git status'],
    ['git status', 'git --exec-path=/tmp/x status'],
    ['export GIT_DIR=.git', 'export GIT_EXEC_PATH=/tmp/evil'],
  ],
  // a variable holding a program a command runs is checked as that command
  'a command in a variable ssh or git runs': [
    ["GIT_SSH_COMMAND='ssh -o IdentitiesOnly=yes' git fetch", "SSH_ASKPASS='rm -rf ~' git fetch"],
    ['SSH_ASKPASS=/usr/bin/ssh-askpass git fetch', "export SSH_ASKPASS='rm -rf ~'"],
  ],
  // bash expands the word after an alias whose text ends in a blank as an alias too
  'an alias ending in a blank': [
    ["alias ll='ls -la'; ll", "alias a='sudo '; alias b='rm -rf ~'; a b"],
    ["alias s='sudo '; alias ll='ls -la'; s ll", "alias a='nice '; alias b='rm -rf'; a b ~"],
    ["alias s='sudo '; s ls ~", "alias a='env '; alias b='x; rm -rf ~'; a b"],
  ],
  // `history -w FILE` writes the history over FILE: a start-up file is written as a redirection writes it
  'the history written over a start-up file': [
    ['history | tail', 'history -w ~/.bashrc'],
    ['history -w /tmp/h', 'history -a ~/.profile'],
    ['history -a', 'history -w ~/.bash_profile'],
  ],
});

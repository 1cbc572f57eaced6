/**
 * How the guard reads shell, where the third fresh battery and probing found it wrong: arrays
 * (`a=(-rf /etc); rm "${a[@]}"`), the parameter-expansion operators of a variable the command
 * line knows (`"${HOME:?}"`), aliases, what printf and `echo -e` feed a shell, a quoted tilde (a
 * file named `~`), and the arguments after `bash -c SCRIPT` (its `$0`, `$1`…). Each hole is a
 * table of dangerous rows and the everyday neighbours that must still pass.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decide, testHoles } from './context.ts';

const holes: Record<string, { denied: readonly string[]; allowed: readonly string[] }> = {
  'an array is a variable: "${a[@]}" is its words': {
    denied: [
      'args=(-rf /usr); rm "${args[@]}"',
      'a=(); a+=(-rf); a+=(/etc); rm "${a[@]}"',
      'declare -a a=(-rf /etc); rm "${a[@]}"',
      'local -a a=(-rf /etc); rm "${a[@]}"',
      'a=(-rf /etc); rm "${a[0]}" "${a[1]}"',
      'a=(-rf /etc); rm ${a[*]}',
      'a=(x /etc); rm -rf "${a[1]}"',
      'a=(rm -rf /); "${a[@]}"',
      'a=(\n  -rf\n  /etc\n); rm "${a[@]}"',
      'a=($(rm -rf ~))',
      'a=(-rf /etc); for d in "${a[@]}"; do rm -rf "$d"; done',
      'a=(build); a[0]=/etc; rm -rf "${a[@]}"',
      'a=(*); rm -rf "${a[@]}"',
      'cd ~ && a=(.*); rm -rf "${a[@]}"',
      'if true; then a=(-rf /etc); fi; rm "${a[@]}"',
      'for i in 1; do a=(-rf /etc); done; rm "${a[@]}"',
      '{ a=(-rf /etc); }; rm "${a[@]}"',
      // an assignment after `then` is not split either
      'if true; then x=$(echo rm -rf ~); fi; $x',
    ],
    allowed: [
      'x=(rm -rf /etc)',
      'arr=(src test); npx eslint "${arr[@]}"',
      'a=(build dist); rm -rf "${a[@]}"',
      'dirs=(build dist); for d in "${dirs[@]}"; do rm -rf "$d"; done',
      'declare -a files=(a.txt b.txt); cat "${files[@]}"',
      'a=(1 2 3); echo "${#a[@]}"',
      'logs=(*.log); rm -f "${logs[@]}"',
      'x=build; rm -rf "${x[@]}"',
    ],
  },
  'the parameter-expansion operators of a known variable': {
    denied: [
      'rm -rf "${HOME:?}"',
      'rm -rf "${HOME:?}/"',
      'rm -rf ${HOME?}',
      'rm -rf "${HOME:-/tmp}"',
      'rm -rf "${HOME-/tmp}"',
      'rm -rf "${HOME:=/tmp}"',
      'x=/tmp/build; rm -rf "${x:+/etc}"',
      'x=; rm -rf "${x:-/}"',
      'x=; rm -rf "${x+/etc}"',
      'set -- /etc; rm -rf "${1:?}"',
    ],
    allowed: [
      ': "${PORT:=3000}"',
      'rm -rf "${TMPDIR:-/tmp}/build-x"',
      'rm -rf "${HOME:?}/proj/build"',
      'x=build; rm -rf "${x:?}"',
      'x=; rm -rf "build${x:+/etc}"',
      'rm -rf "${OUT:?}"',
    ],
  },
  'an alias runs what it names': {
    denied: [
      'shopt -s expand_aliases\nalias nuke="rm -rf ~"\nnuke',
      "alias nuke='rm -rf ~'; nuke",
      "alias r='rm -rf'; r /etc",
      "alias r='rm'; alias rr='r -rf'; rr /",
      "alias go='cd / && rm -rf *'\ngo",
      "alias ls='ls --color'; alias nuke='rm -rf ~'; ls; nuke",
      // each alias runs the next four times: 4^12 commands, too many to read
      `${Array.from(
        { length: 12 },
        (_, i) =>
          `alias a${i}='${Array(4)
            .fill(`a${i + 1}`)
            .join(';')}'`,
      ).join('\n')}\na0`,
    ],
    allowed: ["alias ll='ls -la'; ll", "alias ls='ls --color'; ls src", "alias nuke='rm -rf ~'; 'nuke'", "alias g='git status'\ng"],
  },
  'what printf and echo -e feed a shell is what they print': {
    denied: [
      "printf '%s' 'rm -rf ~' | bash",
      "printf '%b' 'rm -rf ~' | bash",
      "printf '%s %s %s' rm -rf /etc | sh",
      "echo -e 'rm -rf \\x7e' | sh",
      "printf 'rm -rf \\x7e' | sh",
      "tee /dev/null <<< 'rm -rf ~' | bash",
      "xargs -0 rm -rf < <(printf '/etc\\0')",
      'python3 < <(echo \'import os; os.system("rm -rf ~")\')',
    ],
    allowed: ["printf '%s\\n' a b | sort", "echo -e 'a\\tb'", "printf '%s\\n' build dist | xargs rm -rf"],
  },
  'a quoted tilde names a file called ~': {
    denied: ['rm -rf ~', 'rm -rf ~/', 'rm -rf ~user', 'rm -rf ~/.', 'rm -rf {~,x}', "eval rm -rf '~'", "echo rm -rf '~' | sh"],
    allowed: ['rm -rf \\~', "rm -rf '~'", 'rm -rf "~"', 'rm -rf "~/"', 'rm -rf ./~', "rm -rf $'~'"],
  },
  'the arguments after bash -c SCRIPT are its $0, $1 and $@': {
    denied: [
      'bash -c \'"$@"\' _ rm -rf /etc',
      'sh -c \'rm -rf "$1"\' _ /etc',
      "bash -c 'rm -rf $0' /etc",
      "bash -c 'eval \"$1\"' _ 'rm -rf ~'",
      'bash -c \'rm "$@"\' sh -rf /usr',
      'sudo bash -c \'"$@"\' _ rm -rf /',
      // `{}` is each name find hands on: any of them
      'find . -maxdepth 0 -exec sh -c \'rm -rf "$1"\' _ {} \\;',
      'echo / | xargs -I{} sh -c \'rm -rf "$1"\' _ {}',
    ],
    allowed: ['bash -c \'echo "$1"\' _ hi', 'bash -c \'rm -rf "$1"\' _ build', 'sh -c \'ls "$@"\' sh src test', "bash -c 'rm -rf $0' dist"],
  },
};

for (const [hole, { denied, allowed }] of Object.entries(holes)) {
  describe(hole, () => {
    for (const command of denied) test(`denied: ${command}`, async () => assert.match(await decide(command), /^deny /, command));
    for (const command of allowed) test(`allowed: ${command}`, async () => assert.equal(await decide(command), 'allow', command));
  });
}

testHoles({
  // the text a shell reads through filters that pass lines on (tee, cat, head…), read whole
  'text into a shell through a tee or a filter': [
    ['echo "npm test" | tee log | sh', 'echo "rm -rf ~" | tee log | sh'],
    ["echo 'ls -la' | cat - | bash", "printf 'rm -rf ~\\nls' | head -1 | bash"],
    ['cat script.sh | tee log | sh', "echo 'rm -rf /etc' | sort | uniq | sh"],
  ],
});

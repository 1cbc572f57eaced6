/**
 * Known holes of the guard, each closed in a general way: every row pairs an everyday command that
 * must pass silently with a dangerous neighbour the same fix must catch. The context is
 * context.ts's: the project /home/u/proj on branch main, home /home/u.
 */
import { testHoles } from './context.ts';

testHoles({
  // `$(git rev-parse --show-toplevel)` prints the project folder where the command runs in it, as `$(pwd)` prints that folder
  'a substitution that prints the project, its .git, the home folder or a parent is that folder': [
    ['rm -rf "$(npm root)"', 'rm -rf "$(git rev-parse --show-toplevel)"'],
    ['rm -rf "$(git rev-parse --show-toplevel)/build"', 'rm -rf "$(git rev-parse --git-dir)"'],
    ['rm -rf "$(git rev-parse --git-dir)/rebase-merge"', 'rm -rf "$(git rev-parse --git-common-dir)"'],
    ['rm -rf "$(git rev-parse --show-toplevel)"/dist/*', 'rm -rf "$(git rev-parse --show-toplevel)"/*'],
    ['rm -rf "$(mktemp -d)"', 'rm -rf "$(dirname "$PWD")"'],
    ['rm -rf "$(dirname "$PWD")/proj/build"', 'rm -rf "$(cd .. && pwd)"'],
    ['rm -rf "$(cd build && pwd)"', 'rm -rf "$(realpath ..)"'],
    ['cd /tmp/x && rm -rf "$(git rev-parse --show-toplevel)/dist"', 'find "$(git rev-parse --show-toplevel)" -delete'],
    ['rm -rf "$(realpath dist)"', 'rm -rf "$(readlink -f ~)"'],
  ],
  // what xargs reads from a listing of a folder, or from a list only the running command has, it hands to `rm -r`
  'xargs hands `rm -r` names the guard cannot know': [
    ['git ls-files -z | xargs -0 rm -f', 'ls / | xargs rm -rf'],
    ["find . -name '*.tmp' | xargs rm", 'ls ~ | xargs rm -rf'],
    ['ls build | xargs -I{} rm -rf build/{}', 'xargs rm -rf < list'],
    ['xargs rm -f < list', 'cat dirs.txt | xargs rm -rf'],
    ['git ls-files --others --exclude-standard | xargs rm -rf', 'xargs -a dirs.txt rm -rf'],
    ['git diff --name-only | xargs rm -f', 'ls -A ~ | grep -v proj | xargs rm -rf'],
    ['cat files.txt | xargs wc -l', 'cat dirs.txt | parallel rm -rf'],
    ['parallel rm -rf ::: build dist', 'parallel rm -rf :::: dirs.txt'],
    ['echo build dist | xargs rm -rf', 'echo "$DIRS" | xargs rm -rf'],
    ['rm -f $(cat files.txt)', 'rm -rf $(cat dirs.txt)'],
    ['rm -rf "$(cat .build-dir)/cache"', 'rm -rf $(< dirs.txt)'],
  ],
  // a launcher that runs the command it is given (in a container, a machine, the host) is peeled like sudo
  'launchers that run a command are peeled off': [
    ['machinectl list', 'machinectl shell root@ /bin/rm -rf /'],
    ['machinectl shell --uid=1000 .host /usr/bin/ls', 'machinectl shell -q .host /bin/bash -c "rm -rf ~"'],
    ['toolbox run make test', 'toolbox run rm -rf ~'],
    ['toolbox run -c dev npm test', 'toolbox run --container dev rm -rf ~'],
    ['distrobox enter dev -- make', 'distrobox enter -- rm -rf ~'],
    ['distrobox list', 'distrobox enter -n dev -- sudo rm -rf /'],
    ['flatpak-spawn --host ls ~', 'flatpak-spawn --host rm -rf ~'],
  ],
  // a loop runs its body once per value: a value inside a longer word is that word with the value
  'a loop variable inside a command string is each of its values': [
    ['for d in a b; do bash -c "rm -rf $d"; done', 'for d in a /; do bash -c "rm -rf $d"; done'],
    ['for f in x y; do sh -c "echo $f > out/$f.txt"; done', 'for d in build ~; do sh -c "rm -rf $d"; done'],
    ['for p in api web; do rm -rf "packages/$p/dist"; done', 'for p in usr etc; do rm -rf "/$p"; done'],
  ],
  // the files that hold the history or the refs (HEAD, the index, the packs), file by file or by find
  "the files of .git that hold the history and refs are the project's .git": [
    ['rm .git/index.lock', 'rm -rf .git/HEAD'],
    ['rm -f .git/MERGE_HEAD', "find .git -name '*.pack' -delete"],
    ['rm -rf .git/rebase-apply', 'find .git/objects -type f -delete'],
    ["find . -name '*.orig' -delete", "find .git -name '*.idx' -delete"],
    ['rm -f .git/index', 'rm -f .git/HEAD'],
    ["find . -name '*.pyc' -delete", "find . -name '*.pack' -delete"],
    ["find .git -name '*.lock' -delete", 'find .git/refs -name main -delete'],
    ["find ~/proj -name '*.pyc' -delete", "find / -name '*.pack' -delete"],
    ["find . -path '*/node_modules/*' -name '*.map' -delete", "find . -path '*/objects/*' -delete"],
    ['rm -rf .git/refs/remotes/origin/old', 'rm -rf .git/refs/notes'],
  ],
  // a one-liner's code is not a path the interpreter opens: what it reads is read from its calls
  'the code of a one-liner is not a path it reads': [
    [`python3 -c 'print("config/.env.local")'`, `python3 -c 'print(open(".env.local").read())'`],
    [`node -e 'console.log("see deploy/id_rsa")'`, `node -e 'console.log(require("fs").readFileSync("deploy/id_rsa", "utf8"))'`],
    [`perl -e 'print "config/.env.local\\n"'`, `python3 -c 'print(1)' config/.env.local`],
  ],
});

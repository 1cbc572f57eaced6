/**
 * Removal of the project, its parent, the home folder or the history through spellings the
 * removal rule did not read: a substitution that prints a folder (`"$(git rev-parse
 * --show-toplevel 2>/dev/null)"`, `"$(dirname "$(pwd)")"`), and a find whose negated or regex
 * tests let the history through. Every row pairs an everyday command that must pass with a
 * dangerous neighbour the same rule must deny (context.ts: the project /home/u/proj, home /home/u).
 */
import { testHoles } from './context.ts';

testHoles({
  // a substitution printing a folder the context knows, in the spellings people write
  'a known folder printed in any spelling is that folder': [
    ['rm -rf "$(git rev-parse --show-toplevel 2>/dev/null)/dist"', 'rm -rf "$(git rev-parse --show-toplevel 2>/dev/null)"'],
    ['rm -rf "$(git rev-parse --path-format=absolute --show-toplevel)/out"', 'rm -rf "$(git rev-parse --path-format=absolute --show-toplevel)"'],
    ['rm -rf "$(git rev-parse -q --show-toplevel)/build"', 'rm -rf "$(git rev-parse -q --show-toplevel)"'],
    ['rm -rf "$(git --no-pager rev-parse --show-toplevel)/dist"', 'rm -rf "$(git --no-pager rev-parse --show-toplevel)"'],
    ['rm -f "$(git rev-parse --git-dir)/index.lock"', 'rm -rf "$(git rev-parse --path-format=absolute --git-common-dir)"'],
    ['rm -rf "$(dirname "$(pwd)")/proj/dist"', 'rm -rf "$(dirname "$(pwd)")"'],
    ['rm -rf "$(dirname $(pwd))/proj/build"', 'rm -rf "$(dirname `pwd`)"'],
    ['rm -rf "$(dirname "$(git rev-parse --show-toplevel)")/proj/dist"', 'rm -rf "$(dirname "$(git rev-parse --show-toplevel)")/proj"'],
    ['rm -rf "$(realpath "$(pwd)/dist")"', 'rm -rf "$(realpath "$(pwd)/..")"'],
    ['rm -rf "$(cd dist && pwd)"', 'rm -rf "$(cd && pwd)"'],
    ['rm -rf "$(cd build; pwd)"', 'rm -rf "$(cd ..; cd ..; pwd)"'],
    ['rm -rf "$(realpath -- dist)"', 'rm -rf "$(realpath -- ..)"'],
    ['rm -rf "$(readlink -f -- build)"', 'rm -rf "$(readlink -f -- ..)/proj"'],
    ['rm -rf "$(dirname -- "$PWD")/proj/dist"', 'rm -rf "$(dirname "$(dirname "$PWD")")"'],
    ['rm -rf "$(env pwd)/dist"', 'rm -rf "$(env pwd)"'],
    ['rm -rf "$(git rev-parse --git-path rebase-merge)"', 'rm -rf "$(git rev-parse --git-path objects)"'],
    ['cd src && rm -rf "$(git rev-parse --show-cdup)dist"', 'cd src && rm -rf "$(git rev-parse --show-cdup)"'],
  ],
  // a substitution whose folder the guard cannot tell is judged as `rm -rf "$DIR"`
  'a folder a substitution prints unseen is a folder only the shell knows': [
    ['rm -rf "$(mktemp -d)"', 'rm -rf "$(git rev-parse --show-toplevel || echo .)"'],
    ['rm -rf "$(npm root)"', 'rm -rf "$(npm root -g)"'],
    ['rm -rf "$(npm root)/.cache"', 'rm -rf "$(npm config get prefix)"'],
    ['rm -rf "$(some-tool print-dir)/cache"', 'rm -rf "$(some-tool print-dir)"'],
    ['rm -rf "$(dirname "$0")/build"', 'rm -rf "$(dirname "$0")/"'],
    ['rm -rf "$(go env GOPATH)/pkg/mod/cache/download/x"', 'rm -rf "$(go env GOPATH)"'],
    ['rm -rf "$(git rev-parse --show-toplevel)/dist"', "rm -rf $(awk '{print $1}' list)"],
    ["rm -rf $(find . -name '*.egg-info' -type d)", 'rm -rf $(find ~ -maxdepth 1)'],
  ],
  // a trap handler runs later in the same shell, with the variables the line set
  "a trap handler sees the line's variables": [
    ['tmp=$(mktemp -d); trap \'rm -rf "$tmp"\' EXIT', 'tmp=$(mktemp -d); trap \'rm -rf "$tmp"\' EXIT; tmp=/'],
    ['d=build; trap \'rm -rf "$d"\' EXIT', 'trap \'rm -rf "$d"\' EXIT'],
  ],
  // a find from the project selects what its tests let through: a negated test or a regex lets the history through
  "a find's negated or regex tests can select the history": [
    ["find . -name '*.log' -not -path './.git/*' -delete", "find . ! -name '*.ts' -delete"],
    ["find . -type f -name '*.tmp' -delete", "find . -type f -not -name '*.ts' -delete"],
    ["find . -regex '.*\\.orig' -delete", "find . -regex '.*/objects/.*' -delete"],
    ["find . -path ./.git -prune -o -name '*.bak' -print -delete", "find . -iregex '.*pack.*' -delete"],
    ["find . -type f -name '*.orig' ! -path './node_modules/*' -delete", "find . -not -path './node_modules/*' -type f -delete"],
    ["find src ! -name '*.ts' -delete", "find . -name '*.o' -o -name '*.pack' -delete"],
    ["find . -path ./.git -prune -o -type f -name '*.tmp' -exec rm {} +", 'find . -path ./.git -prune -o -type f -exec rm {} +'],
  ],
  // a launcher runs what follows its own words: distrobox's -e/--exec, machinectl's `--` after the machine, run0 as sudo
  'launchers run the command they are given': [
    ['distrobox enter box -e npm test', 'distrobox enter box -e rm -rf ~'],
    ['distrobox-enter box --exec npm test', 'distrobox-enter box --exec rm -rf ~'],
    ['machinectl shell .host -- npm test', 'machinectl shell .host -- rm -rf ~'],
    ['flatpak-spawn --sandbox-expose foo --host npm test', 'flatpak-spawn --sandbox-expose foo --host rm -rf ~'],
    ['run0 systemctl status nginx', 'run0 rm -rf /'],
    ['run0 -u root npm ci', 'run0 -u root rm -rf /'],
  ],
  // the stash, LFS objects and the submodules' repositories are history too
  'the stash, LFS objects and submodule repositories are history': [
    ['rm -rf .git/rebase-merge', 'rm -rf .git/refs/stash'],
    ['rm -f .git/index.lock', 'rm .git/logs/refs/stash'],
    ['rm -rf .git/lfs/tmp', 'rm -rf .git/lfs'],
    ['rm -rf .git/refs/original', 'rm -rf .git/lfs/objects'],
    ['rm -rf .git/rr-cache', 'rm -rf .git/modules'],
  ],
});

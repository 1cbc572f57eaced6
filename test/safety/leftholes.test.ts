/**
 * The dangerous commands the last review found the guard still allowed: a command variable set by
 * a builtin rather than `=`, tmux running the commands its formats, hooks and conditions hold, the
 * cloud data deletes and publishing verbs no family named yet, a listing filtered to secret names
 * handed to xargs, and a `..` that climbs out of a folder only the shell knows. Every row pairs an
 * everyday command that must pass silently with a dangerous neighbour the same fix must catch. The
 * context is context.ts's: the project /home/u/proj on branch main, home /home/u.
 */
import { testAsks, testHoles } from './context.ts';

testHoles({
  // git-settings.ts COMMAND_VARIABLES: a builtin that sets one is checked as `NAME=value` is (shell-vars.ts builtinAssignments)
  'a command variable set by a builtin is checked as its assignment': [
    ["printf -v x '%s' a", 'printf -v GIT_PAGER "rm -rf ~"; export GIT_PAGER; git log'],
    ['read -r line < f', 'read GIT_PAGER <<< "rm -rf ~"; export GIT_PAGER; git log'],
    ['while read -r f; do echo "$f"; done < list', 'read -r GIT_PAGER <<< "rm -rf ~"; export GIT_PAGER; git log'],
    ['IFS= read -r -d "" x < f', 'IFS= read -r -p "pager? " GIT_PAGER <<< "rm -rf ~"; git log'],
    ['mapfile -t lines < f', 'mapfile GIT_PAGER <<< "rm -rf ~"; export GIT_PAGER; git log'],
    ['readarray -t a < <(ls src)', 'readarray -t GIT_PAGER <<< "rm -rf ~"; git log'],
    ['read -r a b <<< "x y"; echo "$b"', 'read -r a GIT_PAGER <<< "x rm -rf ~"; git log'],
    ["printf -v GIT_PAGER '%s' less; git log", "printf -v GIT_PAGER '%s -rf %s' rm ~; git log"],
    ['echo less | { read -r PAGER; man ls; }', 'echo "rm -rf ~" | { read -r PAGER; export PAGER; man ls; }'],
    // a nameref's assignments are the named variable's
    ['declare -n r=out; r=1; echo "$out"', 'declare -n x=GIT_PAGER; x="rm -rf ~"; export GIT_PAGER; git log'],
    ['f() { local -n ref=$1; ref=done; }; f result', 'local -n p=EDITOR; printf -v p "rm -rf ~"'],
  ],
  // what the builtin set is the variable's value for every later word, as an `=` assignment's is
  'a value a builtin set is known to the words that use it': [
    ['read -r x <<< "src"; ls "$x"', 'read -r x <<< "rm -rf ~"; $x'],
    ['printf -v d \'%s\' dist; rm -rf "$d"', 'printf -v d \'%s\' ~; rm -rf "$d"'],
    ['mapfile -t a <<< "dist"; rm -rf "${a[0]}"', 'mapfile -t a <<< "/etc"; rm -rf "${a[0]}"'],
    ['read -r x <<< "ls"; bash -c "$x"', 'read -r x <<< "rm -rf ~"; bash -c "$x"'],
    // a later stage of a pipeline is a subshell: what its read sets is gone after the pipeline
    ['v=/; read v <<< dist; rm -rf "$v"', 'v=/; echo dist | read v; rm -rf "$v"'],
  ],
  // tmux runs a format's `#(…)` with a shell; a hook's, a condition's, a binding's and a confirmation's command is tmux's own
  'tmux runs the commands its formats, hooks and conditions hold': [
    ["tmux display -p '#S'", "tmux display -p '#(rm -rf ~)'"],
    ["tmux ls -F '#{session_name}'", "tmux set -g status-right '#(rm -rf ~)'"],
    ['tmux set-hook -g session-created "display hi"', 'tmux set-hook -g session-created \'run-shell "rm -rf ~"\''],
    ["tmux if-shell 'test -f x' 'display yes'", "tmux if-shell 'true' 'run-shell \"rm -rf ~\"'"],
    ["tmux if -F '#{==:#S,dev}' 'display dev' 'display other'", "tmux if-shell -b 'true' 'display x' 'run \"rm -rf ~\"'"],
    ['tmux bind-key r source-file ~/.tmux.conf', "tmux bind-key x run-shell 'rm -rf ~'"],
    ['tmux confirm-before -p "kill?" kill-session', 'tmux confirm-before \'run-shell "rm -rf ~"\''],
    ["tmux new -d -s dev 'npm run dev'", "tmux run-shell 'rm -rf ~'"],
    ['tmux send-keys -t dev C-c', "tmux send-keys 'rm -rf ~' Enter"],
    ['tmux ls', "tmux new-window 'rm -rf ~'"],
    ['tmux set -g default-shell /bin/zsh', "tmux set -g default-command 'rm -rf ~'"],
    ['tmux set -g mouse on', "tmux set-option -g lock-command 'rm -rf ~'"],
  ],
  // publish family: versions deleted from a registry are unpublished (as `npm unpublish`); uploads and pushes
  'registry deletes and publishing verbs no check named': [
    ['pod trunk info Foo', 'pod trunk delete Foo 1.0'],
    ['nuget list Foo', 'nuget delete Foo 1.0 -Source nuget.org'],
    ['dotnet nuget locals all --clear', 'dotnet nuget delete Foo 1.0 --source https://api.nuget.org/v3/index.json'],
    ['crane digest ghcr.io/o/r:latest', 'crane delete ghcr.io/o/r:latest'],
    ['regctl tag ls ghcr.io/o/r', 'regctl tag delete ghcr.io/o/r:latest'],
    ['regctl image inspect ghcr.io/o/r:1', 'regctl manifest delete ghcr.io/o/r@sha256:0123'],
    ['skopeo inspect docker://ghcr.io/o/r:latest', 'skopeo delete docker://ghcr.io/o/r:latest'],
    ['conan create . --build=missing', 'conan upload "*" -r conancenter'],
    ['conan upload "*" -r conancenter --dry-run', 'conan upload foo/1.0 -r artifactory -c'],
    ['choco pack foo.nuspec', 'choco push foo.nupkg'],
    ['snapcraft pack', 'snapcraft upload --release=stable foo.snap'],
    ['snapcraft status foo', 'snapcraft release foo 12 stable'],
    ['snapcraft list-revisions foo', 'snapcraft push foo.snap'],
    ['ko build --local ./cmd/app', 'ko build ./cmd/app'],
    ['ko build --push=false ./cmd/app', 'ko build --bare ./cmd/app'],
    ['ko build -L ./cmd/app', 'ko resolve -f config/'],
    ['ko resolve --local -f config/', 'ko apply -f config/'],
    ['mvn jib:dockerBuild', 'mvn jib:build'],
    ['mvn compile jib:buildTar', 'mvn compile jib:build -Dimage=ghcr.io/o/r'],
    ['gradle jibDockerBuild', 'gradle jib'],
    ['./gradlew jibBuildTar', './gradlew :app:jib --image=ghcr.io/o/r'],
    ['crane ls ghcr.io/o/r', 'crane push img.tar ghcr.io/o/r:1'],
    ['oras pull ghcr.io/o/r:1', 'oras push ghcr.io/o/r:1 f.txt'],
  ],
  // fed-input.ts: a grep that keeps the names a secret's name matches hands xargs a listing that may hold them
  'a listing filtered to secret names and read': [
    ["git ls-files | grep '\\.ts$' | xargs wc -l", 'git ls-files | grep env | xargs cat'],
    ['ls | grep test | xargs cat', 'ls -a | grep -i secret | xargs cat'],
    ['git ls-files | grep src/ | xargs grep TODO', "find . | grep '\\.env' | xargs cat"],
    ['ls | grep -v env | xargs wc -l', 'ls -a | grep -E "\\.(pem|key)$" | xargs cat'],
    ['find . -name "*.md" | grep -v node_modules | xargs cat', 'git ls-files | grep -F .env | sort | xargs -I{} cat {}'],
    ['ls | grep README | xargs cat', 'ls -a | grep id_ | xargs base64'],
    ["ls -a | grep '\\.envrc$' | xargs cat", "ls -a | grep '\\.env\\.local' | xargs cat"],
    ['ls | grep test | parallel wc -l', 'ls -a | grep env | parallel cat'],
  ],
  // removal.ts: a `..` that climbs out of a folder only the shell knows leaves any folder
  "a '..' climbing out of a folder only the shell knows": [
    ['rm -rf "$TMPDIR/build"', 'rm -rf "$X/../.."'],
    ['x=$(mktemp -d); rm -rf "$x/sub/.."', 'x=$(mktemp -d); rm -rf "$x/../.."'],
    ['rm -rf ./build/../dist', 'rm -rf "$X/.."'],
    ['rm -rf "$X/../build"', 'rm -rf "$X/a/../.."'],
    ['d=$(mktemp -d); rm -rf "$d/a/../b"', 'rm -rf "$(pwd)/../.."'],
    ['rm -rf "${OUT:?}/cache"', 'rm -rf "${OUT}/cache/../../"'],
    ['rm -rf "${OUT:?}/../dist"', 'rm -rf "${OUT:?}/.."'],
    ['rm -rf "$(mktemp -d)/a/.."', 'rm -rf "$(npm root)/.."'],
  ],
});

testAsks({
  // infra family: a cloud database's or storage's data deleted as a whole, a stack's state forgotten
  'cloud data deletes no check named': [
    ['firebase firestore:indexes', 'firebase firestore:delete --all-collections'],
    ['firebase firestore:delete users/alice', 'firebase firestore:delete -r users'],
    ['firebase database:get /', 'firebase database:remove /'],
    ['supabase storage ls ss:///bucket', 'supabase storage rm -r ss:///bucket'],
    ['supabase storage rm ss:///bucket/a.png', 'supabase storage rm --recursive ss:///bucket/dir'],
    ['pulumi state export', 'pulumi state delete urn:pulumi:dev::app::aws:s3/bucket:Bucket::b'],
    ['terraform state list', 'terraform state rm aws_s3_bucket.b'],
    ['terraform state rm -dry-run aws_s3_bucket.b', 'tofu state rm aws_s3_bucket.b'],
  ],
});

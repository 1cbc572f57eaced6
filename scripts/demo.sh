#!/usr/bin/env bash
# A two-minute tour on a fresh temporary repository: the knowledge store, what git sees of it,
# and that the code checkout is untouched.
set -euo pipefail
cli="$(cd "$(dirname "$0")/.." && pwd)/dist/axme.cjs"
axme() { node "$cli" "$@"; }
repo=$(mktemp -d "${TMPDIR:-/tmp}/axme-demo-XXXXXX")
trap 'rm -rf "$repo"' EXIT
cd "$repo"
git init -q -b main
mkdir -p src
printf '{ "name": "demo-app", "type": "module", "scripts": { "test": "vitest" }, "dependencies": { "fastify": "^5.0.0" }, "devDependencies": { "typescript": "^5.9.0", "vitest": "^3.0.0" } }\n' > package.json
printf 'export const app = 1;\n' > src/index.ts
git add -A
git -c user.name=Demo -c user.email=demo@example.com commit -q -m "the project's code"
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }

step axme init;                       axme init --no-git-hooks
step "axme oracle show   (what the scan found)"; axme oracle show | awk '/^## Stack/ { on = 1 } on && !/^_Generated|^<!--/ { print; if (++n >= 14) exit }'
step axme decision add --title "Use Valkey for caching" ...
axme decision add --title "Use Valkey for caching" --decision "Valkey replaces Redis for every cache." --reasoning "Redis changed its licence; Valkey is a drop-in fork." --enforce required
step axme memory add --type feedback ...
axme memory add --type feedback --title "Run the tests before committing" --description "npm test must pass before any commit." --keywords "tests, ci"
step axme backlog add --title "Export metrics" --priority high
axme backlog add --title "Export metrics" --priority high
step axme decision supersede D-001 --title "Use Valkey 8 for caching" ...
axme decision supersede D-001 --title "Use Valkey 8 for caching" --decision "Pin Valkey 8 everywhere." --reasoning "8.0 fixed the replication bug we hit."
step axme decision list --all;        axme decision list --all
step "axme decision list --at ~1   (the knowledge one commit ago)"; axme decision list --all --at '~1'
step axme log;                        axme log
step "git log --oneline refs/memory/main"; git log --oneline refs/memory/main
step "git show refs/memory/main:decisions/use-valkey-8-for-caching.md"; git show refs/memory/main:decisions/use-valkey-8-for-caching.md
# a Claude Code session, as its hooks see it: it starts, edits a file, and ends without a close
hook() { echo "{\"session_id\":\"demo-1\",\"cwd\":\"$repo\",\"hook_event_name\":\"$2\"$3}" | axme hook "$1" >/dev/null; }
step "a Claude Code session edits src/index.ts and ends without a close (hooks fed by hand)"
hook session-start SessionStart ''
printf 'export const app = 2;\n' > src/index.ts
hook post-tool-use PostToolUse ",\"tool_name\":\"Edit\",\"tool_input\":{\"file_path\":\"$repo/src/index.ts\"}"
hook session-end SessionEnd ",\"reason\":\"other\""
step axme session list --orphans;     axme session list --orphans
step axme session recover --all;      axme session recover --all
step "axme context   (what the next session starts with)"; axme context | sed -n '1,/^## Safety/p'
step axme fsck;                       axme fsck
step "git status --short   (axme wrote only the Claude Code setup; the M is the session's edit)"; git status --short

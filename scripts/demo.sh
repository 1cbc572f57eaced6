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
git -c user.name=Demo -c user.email=demo@example.com commit -q --allow-empty -m "the project's code"
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }

step axme init;                       axme init
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
step axme fsck;                       axme fsck
step "git status --short   (the checkout is untouched)"; git status --short; echo "(clean)"

#!/usr/bin/env bash
# The same add as `axme decision add`, done with plain git plumbing: one blob, the decisions
# tree and the root tree rebuilt, a commit, a compare-and-swap ref update.
set -euo pipefail
ref=refs/memory/main
slug=$1
old=$(git rev-parse "$ref")
blob=$(printf -- '---\nid: D-X\ntitle: %s\nstatus: active\nenforce: advisory\n---\n\nPlumbing add.\n' "$slug" | git hash-object -w --stdin)
dtree=$( { git ls-tree "$old:decisions"; printf '100644 blob %s\t%s.md\n' "$blob" "$slug"; } | git mktree)
root=$( { git ls-tree "$old" | grep -v $'\tdecisions$'; printf '040000 tree %s\tdecisions\n' "$dtree"; } | git mktree)
commit=$(printf 'decision: add %s\n\nAxme-Event: decision.added\n' "$slug" | git commit-tree "$root" -p "$old")
git update-ref --create-reflog -m "plumbing add" "$ref" "$commit" "$old"

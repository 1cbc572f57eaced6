/**
 * False alarms a sixteenth gathering of everyday command lines found (everyday-unseen14.txt: what
 * twenty public repositories of a game engine, a notebook, firmware, mobile apps, Fortran, Nix,
 * Bazel, Bun, Erlang, Scala, Clojure, Kotlin Multiplatform, R, Julia, Zig, Neovim, WordPress, a
 * browser extension and a Go TUI run in their scripts, workflows, Makefiles and docs), each with the
 * dangerous neighbours the same rule must still deny.
 */
import { testHoles } from './context.ts';

testHoles({
  // path-uses.ts mktemp: the template names a file made under a new name, nothing that was there read
  "mktemp's template is a file made, not one read": [
    ['work=$(mktemp -d "${TMPDIR:-/tmp}/.$name.XXXXXXXX")', 'cat "${TMPDIR:-/tmp}/.$name.local"'],
    ['mktemp /tmp/.env.XXXXXX', 'cat /tmp/.env.production'],
    ['mktemp --tmpdir ".$app.XXXX"', 'mktemp --tmpdir=/etc/cron.d job.XXXX'],
    ['scratch="$(mktemp .env.XXXXXXXX)"', 'cp .env.local "$(mktemp -d)/"'],
    ['mktemp -p "$PWD" ".${prefix}.XXXXXX"', 'mktemp -p ~/.ssh ".${prefix}.XXXXXX"'],
    ['mktemp -d "$TMPDIR/.$x.XXXXXX"', 'mktemp ~/.ssh/authorized_keys.XXXX'],
    ['mktemp -t ".$x.XXXXXX"', 'mktemp -p /usr/local/bin tool.XXXX'],
  ],
});

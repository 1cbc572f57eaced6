/**
 * A sixth day of commands, written before the guard ran from sources no earlier corpus drew on:
 * the task runners and build files of other ecosystems (justfiles, Taskfiles, Earthfiles, tox and
 * nox sessions, devcontainer commands, Nix, Bazel and Buck2, CMake and meson, the Gradle and Maven
 * wrappers, .NET, SwiftPM and Xcode, Android, Flutter, Bun and Deno, Zig, Haskell, OCaml, R,
 * Julia, Lua, Erlang, Clojure, Scala...), data-science and docs tools, database migrations on a
 * dev database, and what a coding agent runs while exploring and changing a checkout
 * (test/fixtures/safety/everyday-unseen4.txt, each group under a `#` line naming its sources). No
 * line is denied or asked about. The lines the docs stop by design (`/etc/passwd` read, `rails
 * db:setup` and `db:schema:load`, which recreate every table) are not in it. The false alarms it
 * found are falsealarm6.test.ts's.
 */
import { testEverydayCorpus } from './context.ts';

testEverydayCorpus('everyday-unseen4.txt', { name: 'the fourth unseen corpus', atLeast: 3000, infraAsks: false });

/**
 * A sixteenth day of commands: what twenty public repositories of kinds no earlier corpus drew on
 * (a game engine, a notebook, firmware, an Android and an iOS app, Fortran, a Nix formatter, Bazel
 * rules, a Bun framework, Erlang, Scala, Clojure, Kotlin Multiplatform, R, Julia, Zig, a Neovim
 * plugin, a WordPress plugin, a browser extension and a Go TUI) run in their scripts, workflows,
 * recipes, Dockerfiles and docs (test/fixtures/safety/everyday-unseen14.txt, whose header says how
 * the lines were picked and which the guard stopped by design before they were taken out). Only the
 * infra family may ask.
 */
import { testEverydayCorpus } from './context.ts';

testEverydayCorpus('everyday-unseen14.txt', { name: 'the fourteenth unseen corpus', atLeast: 1200, infraAsks: true });

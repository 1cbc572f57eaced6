/**
 * An eighteenth day of commands: what twenty-two public repositories of kinds no earlier corpus drew
 * on (an ELT platform, LLM training recipes, graph ML, embedded async Rust, a Haskell compiler's
 * Stack and cabal, OCaml's Merlin, an Elixir app's releases, MSBuild, a Terraform module, an Ansible
 * collection's molecule, operator-sdk, Eleventy, Godot's C++ bindings, LaTeX's Overleaf and
 * Tectonic, flatpak-builder, Arch's installer, nix-direnv, pnpm, an Android app, Flyway and
 * Scorecard) run in their scripts, workflows, recipes, Dockerfiles and docs
 * (test/fixtures/safety/everyday-unseen16.txt, whose header says how the lines were picked and
 * which the guard stopped by design before they were taken out). Only the infra family may ask.
 */
import { testEverydayCorpus } from './context.ts';

testEverydayCorpus('everyday-unseen16.txt', { name: 'the sixteenth unseen corpus', atLeast: 1150, infraAsks: true });

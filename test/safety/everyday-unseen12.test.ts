/**
 * A fourteenth day of commands: what seventeen public repositories of data engineering, ML
 * tooling, mobile, game, embedded, scientific Python, Rust and Go CLIs and Nix (dbt-core, Prefect,
 * duckdb, xarray, accelerate, Lightning, bevy, raylib, fastlane, micropython, ZMK, arduino-cli,
 * goreleaser, fd, eza, home-manager, devenv) run in their scripts, workflows, recipes, Dockerfiles
 * and docs (test/fixtures/safety/everyday-unseen12.txt, whose header says how the lines were
 * picked and which the guard stopped by design before they were taken out). Only the infra family
 * may ask.
 */
import { testEverydayCorpus } from './context.ts';

testEverydayCorpus('everyday-unseen12.txt', { name: 'the twelfth unseen corpus', atLeast: 1400, infraAsks: true });

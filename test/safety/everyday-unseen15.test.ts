/**
 * A seventeenth day of commands: what twenty-one public repositories of kinds no earlier corpus drew
 * on (secret and vulnerability scanners, database migrations, a Kubernetes operator scaffold,
 * embedded Rust, Haskell's Stack, Unity CI, Godot bindings, LaTeX, Linux packaging, an AUR helper,
 * Nix disk layouts, a Deno framework, robot-learning ML, data pipelines, F#, Solidity, Crystal,
 * Gleam and a monorepo build tool) run in their scripts, workflows, recipes, Dockerfiles and docs
 * (test/fixtures/safety/everyday-unseen15.txt, whose header says how the lines were picked and
 * which the guard stopped by design before they were taken out). Only the infra family may ask.
 */
import { testEverydayCorpus } from './context.ts';

testEverydayCorpus('everyday-unseen15.txt', { name: 'the fifteenth unseen corpus', atLeast: 1200, infraAsks: true });

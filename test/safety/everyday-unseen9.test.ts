/**
 * An eleventh day of commands, written before the guard ran from ground no earlier corpus drew on:
 * what 32 public repositories across ecosystems (Elixir, Haskell, OCaml, Rust, Python data tools,
 * Swift, Kotlin/Android, PHP, Ruby, Go infrastructure, Postgres extensions, Ansible, JavaScript tools,
 * C and C++) run in their scripts, workflows' `run:` steps, Makefile recipes, Dockerfile `RUN` lines,
 * docs' shell blocks and package.json scripts (test/fixtures/safety/everyday-unseen9.txt, grouped by
 * repository and file). Only the infra family may ask (a test database dropped, a chart uninstalled
 * is a person's to decide). The lines that are truly dangerous in this context (root, publishing and
 * pushes, system folders and settings, live infrastructure, the user's global settings, secrets, keys
 * and start-up files, downloads run) are not in it; the false alarms it found are falsealarm11.test.ts's.
 */
import { testEverydayCorpus } from './context.ts';

testEverydayCorpus('everyday-unseen9.txt', { name: 'the ninth unseen corpus', atLeast: 2050, infraAsks: true });

/**
 * A fifteenth day of commands: what eighteen public repositories of .NET, Java, PHP, Ruby, Elixir,
 * Haskell, OCaml, Swift, C libraries, Terraform tooling, Ansible, a documentation theme and a
 * browser extension (Polly, jellyfin, testcontainers-java, phpstan, jekyll, ruby-build, phoenix,
 * shellcheck, PostgREST, opam, SwiftFormat, libuv, zstd, pre-commit-terraform, terragrunt,
 * ansible-lint, mkdocs-material, uBlock) run in their scripts, workflows, recipes, Dockerfiles and
 * docs (test/fixtures/safety/everyday-unseen13.txt, whose header says how the lines were picked and
 * which the guard stopped by design before they were taken out). Only the infra family may ask.
 */
import { testEverydayCorpus } from './context.ts';

testEverydayCorpus('everyday-unseen13.txt', { name: 'the thirteenth unseen corpus', atLeast: 1350, infraAsks: true });

/**
 * A twelfth day of commands from ground no earlier corpus drew on: what twenty public repositories
 * (Prisma, Deno, Rails, Tokio, Helm, Poetry, Flask, kind, Laravel, Nushell, Hugo, Caddy, Redis, k6,
 * pip, Vite, FastAPI, MinIO, Traefik, the Supabase CLI) run in their scripts, workflows' `run:` steps,
 * Makefile recipes, Dockerfile `RUN` lines, docs' shell blocks and package.json scripts
 * (test/fixtures/safety/everyday-unseen10.txt, whose header says how the lines were picked and which
 * the guard stopped by design before they were taken out). Only the infra family may ask (a named
 * deployment or service deleted, a swarm stack deployed: live-workloads.test.ts).
 */
import { testEverydayCorpus } from './context.ts';

testEverydayCorpus('everyday-unseen10.txt', { name: 'the tenth unseen corpus', atLeast: 1200, infraAsks: true });

/**
 * A thirteenth day of commands, where everyday lines stand closest to dangerous ones: what fourteen
 * public repositories of infrastructure and self-hosting (Argo CD, cert-manager, Sentry's
 * self-hosted, Flux, Prometheus, Harbor, k3d, OpenFaaS on Kubernetes, AWX, Nextcloud's images, the
 * FastAPI full-stack template, Dokku, Coolify, Rancher) run in their scripts, workflows, recipes,
 * Dockerfiles and docs (test/fixtures/safety/everyday-unseen11.txt, whose header says how the lines
 * were picked and which the guard stopped by design before they were taken out). Only the infra
 * family may ask.
 */
import { testEverydayCorpus } from './context.ts';

testEverydayCorpus('everyday-unseen11.txt', { name: 'the eleventh unseen corpus', atLeast: 1200, infraAsks: true });

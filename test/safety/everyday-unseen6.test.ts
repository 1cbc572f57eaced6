/**
 * An eighth day of commands, written before the guard ran from ground no earlier corpus drew on:
 * the examples of the tldr pages (pages/common, pages/linux, pages/osx), the answers a user gets to
 * "how do I…" across some 2,500 tools — archivers, media and image converters, package managers'
 * queries, version-control tools past git (jj, fossil, hg, dolt), cloud and cluster CLIs' reads,
 * network diagnostics, desktop utilities — with their placeholders filled by this project's files,
 * localhost, a feature branch (test/fixtures/safety/everyday-unseen6.txt, grouped by page). No
 * line is denied, and only the infra family asks (a change to live infrastructure is a person's
 * to decide, as in the second and third corpora). The lines that are truly dangerous in this
 * context (run as root, system settings, secrets, publishing, disks, every process killed) are
 * not in it; the false alarms it found are falsealarm8.test.ts's.
 */
import { testEverydayCorpus } from './context.ts';

testEverydayCorpus('everyday-unseen6.txt', { name: 'the sixth unseen corpus', atLeast: 3000, infraAsks: true });

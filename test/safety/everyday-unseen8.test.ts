/**
 * A tenth day of commands, written before the guard ran from ground no earlier corpus drew on: what
 * 30 public repositories tell a contributor to run on the first day — the shell blocks of their
 * README, CONTRIBUTING and build, test and setup docs, their workflows' `run:` steps, Dockerfile
 * `RUN` lines, Makefile recipes and package.json scripts (test/fixtures/safety/everyday-unseen8.txt,
 * grouped by repository and file). Only the infra family may ask (a compose project's volumes
 * removed is a person's to decide). The lines that are truly dangerous in this context (root,
 * publishing and pushes, system folders and settings, logins, keys and start-up files, downloads
 * run) are not in it; the false alarms it found are falsealarm10.test.ts's.
 */
import { testEverydayCorpus } from './context.ts';

testEverydayCorpus('everyday-unseen8.txt', { name: 'the eighth unseen corpus', atLeast: 2350, infraAsks: true });

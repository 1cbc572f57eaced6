/**
 * A third day of commands nobody on this team wrote, from other sources than
 * everyday-unseen.test.ts's and everyday-unseen2.test.ts's: 23 public repositories of varied
 * ecosystems, none an earlier corpus drew on — their docs' shell blocks, workflow `run:` steps,
 * Makefile recipes, Dockerfile `RUN` lines and scripts (test/fixtures/safety/everyday-unseen3.txt,
 * each group under a `#` line naming where it came from). No line is denied; an ask is the infra
 * family's, whose default is to ask (a Helm release installed, a manifest applied, a kind cluster
 * deleted). The lines the docs deny by design (writes into system folders and dotfiles, `rm -rf
 * "$VAR"`, private keys read, `curl | sh`, publishing and tags, pushes to main, commits without the
 * marker) are not in it. The false alarms it found are falsealarm5.test.ts's.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { evaluateCommand } from '../../src/safety/evaluate.ts';
import { defaultPolicy } from '../../src/safety/policy.ts';
import { safetyContext, testEverydayCorpus } from './context.ts';

testEverydayCorpus('everyday-unseen3.txt', { name: 'the third unseen corpus', atLeast: 3000, infraAsks: true });

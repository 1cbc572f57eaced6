import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { axmeOk, git } from '../helpers.ts';
import { anthropic } from './anthropic.ts';
import { axmeAsDevDependency, inClientWorld } from './project.ts';
import { claudeShellResults } from './shell-calls.ts';

/**
 * The flow the staleness check got wrong, in the real Claude Code: the agent decides first (a
 * decision anchored to src/rate.ts, saved with the CLI from its shell), then edits and commits the
 * file in the same session. That commit carries the decision out — `axme verify` must not call the
 * decision outdated by it; a person's later commit of the file still makes it so.
 */

const DECIDE =
  'node_modules/.bin/axme decision add --title "Token bucket for rate limits" --decision "Rate limits use a token bucket in src/rate.ts." --anchor src/rate.ts';
const IMPLEMENT =
  'printf "export const bucket = { size: 10, refill: 1 };\\n" > src/rate.ts && git add src/rate.ts && git commit -q -m "Rate limits by a token bucket" #!axme pr=none repo=acme/shop';

/** Commits `text` as src/rate.ts by hand: a person, no agent session, no hooks. */
function personCommits(project: string, text: string): string {
  writeFileSync(join(project, 'src', 'rate.ts'), text);
  git(project, ['add', 'src/rate.ts']);
  git(project, ['-c', 'core.hooksPath=/dev/null', 'commit', '-q', '-m', 'a person edits the rate limiter']);
  return git(project, ['rev-parse', 'HEAD']).trim();
}

describe("a decision is not outdated by its own session's commit, in the real Claude Code", { timeout: 600_000 }, () => {
  test('decided, then implemented and committed in one session: verify marks nothing; a later commit by a person is a change since', () =>
    inClientWorld('claude-code', anthropic, async (w, m) => {
      axmeAsDevDependency(w);
      mkdirSync(join(w.project, 'src'), { recursive: true });
      personCommits(w.project, 'export const limit = 100;\n');
      await claudeShellResults(w, m, 'Decide how rate limits work, then implement it.', [
        { command: DECIDE, denied: null },
        { command: IMPLEMENT, denied: null },
      ]);
      const env = { HOME: w.home };
      const log = git(w.project, ['log', '-1', '--format=%s%n%N', '--notes=axme']);
      assert.match(log, /^Rate limits by a token bucket/, 'the session made the commit');
      assert.match(log, /^session: \S+/m, `the commit's note names the session:\n${log}`);
      const before = (await axmeOk(w.project, ['verify', '--json'], { env })).stale as unknown[];
      assert.deepEqual(before, [], 'the commit that carried the decision out is no change since');
      const later = personCommits(w.project, 'export const bucket = { size: 20, refill: 2 };\n');
      const after = (await axmeOk(w.project, ['verify', '--json'], { env })).stale as Array<{ kind: string; commits: Array<{ sha: string }> }>;
      assert.deepEqual(
        after.map((s) => [s.kind, s.commits.map((c) => c.sha)]),
        [['decision', [later]]],
      );
    }));
});

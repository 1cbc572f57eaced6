import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { git } from '../helpers.ts';
import { anthropic } from './anthropic.ts';
import { closeCodexLab, codexLab } from './codex.ts';
import { inClientWorld } from './project.ts';
import { claudeShellResults, codexShellResults } from './shell-calls.ts';

/**
 * A first day's commit in the form every instruction gives the model (CLAUDE.md, AGENTS.md, the
 * session's context, the guard's reason): `git commit -m "…" #!axme pr=none repo=<owner>/<name>`,
 * the marker a shell comment. The guard let it through, and then the commit-msg hook rejected the
 * commit for a missing marker — the shell had dropped the comment (seen by h/firstday6 in Claude
 * Code and Codex). Now the commit is made with the marker's trailers.
 */

const COMMIT = 'git add shipping.js && git commit -q -m "Add the free-shipping threshold" #!axme pr=none repo=acme/shop';

/** The commit the call made: its message, with the trailers the marker became. */
function assertMarkedCommit(project: string, results: string[]): void {
  const message = git(project, ['log', '-1', '--format=%B']);
  assert.match(message, /^Add the free-shipping threshold/, `the commit was not made: ${results.join('\n---\n')}`);
  assert.match(message, /^Axme-PR: none$/m);
  assert.match(message, /^Axme-Repo: acme\/shop$/m);
}

describe('a commit marked by a shell comment, in the real clients', { timeout: 600_000 }, () => {
  test('Claude Code: the commit is made, the marker in its trailers', () =>
    inClientWorld('claude-code', anthropic, async (w, m) => {
      writeFileSync(join(w.project, 'shipping.js'), 'export const FREE_SHIPPING = 50;\n');
      const results = await claudeShellResults(w, m, 'Commit the shipping constant.', [{ command: COMMIT, denied: null }]);
      assertMarkedCommit(w.project, results);
    }));

  test('Codex: the commit is made, the marker in its trailers', async () => {
    const l = await codexLab();
    try {
      writeFileSync(join(l.world.project, 'shipping.js'), 'export const FREE_SHIPPING = 50;\n');
      const results = await codexShellResults(l, 'Commit the shipping constant.', [{ command: COMMIT, denied: null }]);
      assertMarkedCommit(l.world.project, results);
    } finally {
      await closeCodexLab(l);
    }
  });
});

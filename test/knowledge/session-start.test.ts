// A session's start as the core does it (knowledge/lifecycle/session-start.ts), called without any
// hook: an orphan recovered into the context it returns, the session named at its end; and where
// the store is not there, the error a surface turns into its own words.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sessionStartContext } from '../../src/knowledge/lifecycle/session-start.ts';
import { listSessions, recordEvent, sessionForHarness } from '../../src/session/sessions.ts';
import { initCore, rejectsWith, withCore } from '../core.ts';
import { cleanEnv, tempRepo } from '../helpers.ts';

describe('sessionStartContext: what a session start does with the store', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    await initCore(dir, { scan: false });
  });
  after(() => cleanup());

  test('an orphan (its owner gone, no close) is recovered first: its handoff leads the context, which names the new session', async () => {
    const commonDir = join(dir, '.git');
    // this process's pid with another start time: an owner that is gone
    const gone = sessionForHarness(commonDir, 'claude-code', 'gone-1', {
      cwd: dir,
      transcriptPath: null,
      now: new Date(),
      owner: () => ({ pid: process.pid, start: -1 }),
    });
    recordEvent(commonDir, gone.id, { t: new Date().toISOString(), type: 'file', path: 'src/parser.ts', tool: 'Write' });
    const r = await withCore(dir, (kb) =>
      sessionStartContext(kb, { budget: 6_000, sessionId: 'next-1', worktree: dir, cwd: dir, env: cleanEnv(), self: null }),
    );
    assert.match(r.text, new RegExp(`## Latest handoff\\nSession ${gone.id} \\(recovered,`));
    assert.match(r.text, /src\/parser\.ts/);
    assert.match(r.text, /\n\n\(axme session next-1\)$/);
    assert.doesNotMatch(r.text, /could not recover|still recovering/);
    assert.ok(Array.isArray(r.listed));
    assert.notEqual(listSessions(commonDir).find((s) => s.meta.id === gone.id)?.recovered ?? null, null, 'the orphan is recorded as recovered');
  });
});

test('sessionStartContext on a repository without a store: NOT_INITIALIZED, for the surface to word', async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    await rejectsWith(
      withCore(dir, (kb) => sessionStartContext(kb, { budget: 6_000, worktree: dir, cwd: dir, env: cleanEnv(), self: null })),
      'NOT_INITIALIZED',
    );
  } finally {
    cleanup();
  }
});

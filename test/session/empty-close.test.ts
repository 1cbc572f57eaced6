import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { axme, axmeOk, git, tempRepo } from '../helpers.ts';

// A close that hands nothing over (`{}`, or only empty texts) writes no handoff: before, it became
// the "Latest handoff" with an empty body, and the next agent no longer saw the real one (a
// warning that a migration was half applied). The session's summary is still written.
describe('a close that hands nothing over', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    await axmeOk(dir, ['init', '--no-claude', '--no-git-hooks', '--no-scan']);
    await axmeOk(dir, ['session', 'finalize'], {
      input: JSON.stringify({ summary: 'Real work on the importer', startup_text: 'Migration 7 is half applied!' }),
      env: { AXME_SESSION: 'real-1' },
    });
  });
  after(() => cleanup());

  for (const [name, input] of [
    ['{}', {}],
    ['only empty texts', { summary: '', next_steps: '  ', startup_text: '', prs: [], dirty_branches: [] }],
  ] as const)
    test(`${name}: no handoff written; the real one stays the latest`, async () => {
      const session = `empty-${name.length}`;
      const r = await axmeOk(dir, ['session', 'finalize', '--json'], { input: JSON.stringify(input), env: { AXME_SESSION: session } });
      assert.equal(r.handoff, '', JSON.stringify(r));
      const files = git(dir, ['ls-tree', '-r', '--name-only', 'refs/memory/main', 'handoffs/']);
      assert.doesNotMatch(files, new RegExp(session), files);
      assert.match(git(dir, ['ls-tree', '-r', '--name-only', 'refs/memory/main', 'sessions/']), new RegExp(session), 'the session summary is written');
      const context = await axme(dir, ['context']);
      assert.equal(context.code, 0, context.stderr);
      assert.match(context.stdout, /Migration 7 is half applied!/, context.stdout);
      assert.doesNotMatch(context.stdout, new RegExp(`Session ${session}`), context.stdout);
      const text = await axmeOk(dir, ['session', 'finalize'], { input: JSON.stringify(input), env: { AXME_SESSION: `${session}-text` } });
      assert.match(text, /handoff: none/, text);
    });
});

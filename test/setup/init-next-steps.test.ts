import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axmeIn } from '../cli-in-process.ts';
import { tempRepo } from '../helpers.ts';

/**
 * What `axme init` tells a user to do next (h/firstday6: it listed the files it made, the machine's
 * own .claude/settings.local.json among them, and no next step): the files to commit for the team,
 * as one command that works, and never a file git ignores; nothing when a run changed nothing.
 */
describe('axme init names the files to commit, and only those', () => {
  let dir: string;
  let cleanup: () => void;
  before(() => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    writeFileSync(join(dir, '.gitignore'), 'GEMINI.md\n');
  });
  after(() => cleanup());

  test("the first run (--local: this machine's axme in .claude/settings.local.json): the shared files in one git add, the machine-local one said to be ignored", async () => {
    const r = await axmeIn(dir, ['init', '--no-scan', '--local']);
    assert.equal(r.code, 0, r.stderr);
    const next = r.stdout.split('\n').find((l) => l.startsWith('Next: '));
    assert.equal(
      next,
      'Next: commit .claude/settings.json .mcp.json CLAUDE.md so that teammates get the same setup: git add .claude/settings.json .mcp.json CLAUDE.md && git commit -m "Add axme"',
    );
    assert.match(r.stdout, /^Created \.claude\/settings\.local\.json \(this machine's own: git ignores it\)$/m);
  });

  test('another client: its files, less one the project ignores; --json lists them as toCommit', async () => {
    const r = await axmeIn(dir, ['init', '--agent', 'codex,gemini', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).toCommit, ['.codex/config.toml', '.codex/hooks.json', '.gemini/settings.json', 'AGENTS.md']);
  });

  test('a run that changes nothing names nothing to commit', async () => {
    const r = await axmeIn(dir, ['init']);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /Next: /);
  });
});

/**
 * A page of code commits with their links (the ui's code view) says what `axme show-commit` says
 * of each commit, from one git process instead of three per commit.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commitLinksPage, showCommit } from '../../src/knowledge/history/commit-links.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import { initCore, withCore } from '../core.ts';
import { cleanEnv, commitFiles, git, tempRepo } from '../helpers.ts';

test('commitLinksPage gives, commit by commit, what showCommit gives; paging by skip and count', async () => {
  const { dir, cleanup } = tempRepo();
  try {
    await initCore(dir);
    await withCore(dir, (kb) => addDecision(kb, { title: 'Use Valkey', decision: 'Cache in Valkey.' }));
    commitFiles(dir, { 'a.ts': '1\n' }, 'Add a, following D-001\n\nAxme-Session: s-1\nAxme-PR: 12\nAxme-Repo: acme/app');
    commitFiles(dir, { 'b.ts': '1\n' }, 'Add b');
    git(dir, ['notes', '--ref=refs/notes/axme', 'add', '-m', 'session: s-2\ndecisions: D-001, D-009\nmemory: abc', 'HEAD']);
    commitFiles(dir, { 'c.ts': '1\n' }, 'Add c');
    const at = { cwd: dir, env: cleanEnv() };
    await withCore(dir, async (kb) => {
      const page = await commitLinksPage(kb, at, { skip: 0, count: 10 });
      const one = await Promise.all(page.map((c) => showCommit(kb, at, c.commit)));
      assert.deepEqual(page, one);
      assert.deepEqual(
        page.map((c) => c.subject),
        ['Add c', 'Add b', 'Add a, following D-001'],
      );
      assert.equal(page[2]!.session, 's-1');
      assert.equal(page[2]!.prUrl, 'https://github.com/acme/app/pull/12');
      assert.deepEqual(page[2]!.decisions, [{ id: 'D-001', title: 'Use Valkey', status: 'active' }]);
      assert.equal(page[1]!.session, 's-2', 'from the note');
      assert.deepEqual(
        page[1]!.decisions.map((d) => d.id),
        ['D-001', 'D-009'],
      );
      assert.deepEqual(
        (await commitLinksPage(kb, at, { skip: 1, count: 2 })).map((c) => c.subject),
        ['Add b', 'Add a, following D-001'],
      );
      assert.deepEqual(await commitLinksPage(kb, at, { skip: 10, count: 5 }), []);
    });
  } finally {
    cleanup();
  }
});

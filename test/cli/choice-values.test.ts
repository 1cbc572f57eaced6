import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { axmeIn } from '../cli-in-process.ts';
import { useStore } from '../store-fixture.ts';

// A value an option does not take (a client's name, an enforce level, a priority, a status) is a
// usage error (exit 2) naming the value given and the choice it was most likely meant to be — a
// near spelling or the start of a longer name (`--agent claude`: claude-code) — as an unknown
// option names the option spelt nearest; with none near, the choices are listed.

describe('a value an option does not take names the choice meant', () => {
  const repo = useStore();

  const rows: Array<{ argv: string[]; given: string; meant: string[] | null }> = [
    { argv: ['init', '--agent', 'claude'], given: 'claude', meant: ['claude-code'] },
    { argv: ['init', '--agent', 'cursr'], given: 'cursr', meant: ['cursor'] },
    { argv: ['init', '--agent', 'codex,gemni'], given: 'gemni', meant: ['gemini'] },
    { argv: ['decision', 'add', '--title', 'x', '--decision', 'y', '--enforce', 'require'], given: 'require', meant: ['required'] },
    { argv: ['decision', 'add', '--title', 'x', '--decision', 'y', '--enforce=advisroy'], given: 'advisroy', meant: ['advisory'] },
    { argv: ['backlog', 'add', '--title', 'x', '--priority', 'hgh'], given: 'hgh', meant: ['high'] },
    { argv: ['question', 'list', '--status', 'opn'], given: 'opn', meant: ['open'] },
    { argv: ['memory', 'add', '--title', 't', '--description', 'd', '--type', 'feedbak'], given: 'feedbak', meant: ['feedback'] },
    // a choice with capitals is offered as it is spelt, whatever the case typed
    { argv: ['safety', 'set', 'git.alowForcePush', 'true'], given: 'git.alowForcePush', meant: ['git.allowForcePush'] },
    { argv: ['safety', 'set', 'families.githistory', 'off'], given: 'families.githistory', meant: ['families.gitHistory'] },
    { argv: ['backlog', 'add', '--title', 'x', '--priority', 'zzzqqq'], given: 'zzzqqq', meant: null },
    { argv: ['init', '--agent', 'zzzqqq'], given: 'zzzqqq', meant: null },
  ];
  for (const row of rows) {
    test(`axme ${row.argv.join(' ')}`, async () => {
      const r = await axmeIn(repo.dir, row.argv);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '');
      const first = r.stderr.split('\n')[0]!;
      assert.ok(first.includes(row.given), first);
      if (row.meant) for (const m of row.meant) assert.match(first, new RegExp(`did you mean [^?]*\\b${m}\\b`), first);
      else assert.doesNotMatch(first, /did you mean/, first);
      assert.doesNotMatch(r.stderr, /Argument: .*Given: /, r.stderr);
    });
  }

  test('the same in --json: the error names the choice meant', async () => {
    const r = await axmeIn(repo.dir, ['backlog', 'add', '--title', 'x', '--priority', 'medum', '--json']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /did you mean medium\?/);
  });

  test('a choice given right still runs', async () => {
    const r = await axmeIn(repo.dir, ['backlog', 'add', '--title', 'x', '--priority', 'high']);
    assert.equal(r.code, 0, r.stderr);
  });
});

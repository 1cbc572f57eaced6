import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { axmeIn } from '../cli-in-process.ts';
import { git } from '../helpers.ts';
import { makeStore, type TestStore } from '../store-fixture.ts';

// refs/memory/main damaged by hand or by a tool: pointed at a blob or a tree, or its file
// overwritten with text that is no object name. Every command that reads or writes the store
// says so in one way: it names the ref and what it holds, and how to put it back (the reflog, or
// `git update-ref`), exit 1 (CORRUPT); nothing is written. Before, a blob or a tree gave
// "object <oid> is a blob, expected a commit" (no ref named, no way out), and a damaged file
// gave "run `axme init`", which then failed with git's raw "reference broken".

const COMMANDS: string[][] = [['status'], ['decision', 'list'], ['search', 'x'], ['fsck'], ['decision', 'add', '--title', 'T', '--decision', 'D']];

describe('a damaged refs/memory/main is named, with the way back', () => {
  let store: TestStore;
  let tip: string;
  beforeEach(async () => {
    store = await makeStore();
    tip = git(store.dir, ['rev-parse', 'refs/memory/main']).trim();
  });
  afterEach(() => store.cleanup());

  const damages: Array<[string, (dir: string) => void, RegExp]> = [
    ['pointed at a blob', (dir) => git(dir, ['update-ref', 'refs/memory/main', git(dir, ['rev-parse', 'refs/memory/main:axme.yaml']).trim()]), /a blob/],
    ['pointed at a tree', (dir) => git(dir, ['update-ref', 'refs/memory/main', git(dir, ['rev-parse', 'refs/memory/main^{tree}']).trim()]), /a tree/],
    ['its file overwritten', (dir) => writeFileSync(join(dir, '.git', 'refs', 'memory', 'main'), 'garbage\n'), /"garbage"/],
  ];
  // the way back each message gives, followed as a person would
  const putBack = (dir: string, tip: string) => {
    rmSync(join(dir, '.git', 'refs', 'memory', 'main'), { force: true });
    git(dir, ['update-ref', 'refs/memory/main', tip]);
  };
  for (const [name, damage, holds] of damages)
    test(`${name}: every command names the ref, what it holds and the way back`, async () => {
      damage(store.dir);
      for (const argv of COMMANDS) {
        const r = await axmeIn(store.dir, argv);
        const said = `axme ${argv.join(' ')} -> ${r.code}: ${r.stderr}`;
        assert.equal(r.code, 1, said);
        assert.match(r.stderr, /refs\/memory\/main/, said);
        assert.match(r.stderr, holds, said);
        assert.match(r.stderr, /git reflog show refs\/memory\/main[^]*git update-ref refs\/memory\/main <commit>/, said);
        assert.doesNotMatch(r.stderr, /run `?axme init`? first|internal error/, said);
      }
      const json = await axmeIn(store.dir, ['status', '--json']);
      assert.equal(JSON.parse(json.stderr).error.code, 'CORRUPT');
      // axme init does not paper over it either: it says the same, and writes nothing
      const init = await axmeIn(store.dir, ['init', '--no-claude', '--no-git-hooks', '--no-scan']);
      assert.notEqual(init.code, 0, init.stderr);
      assert.match(init.stderr, /refs\/memory\/main/, init.stderr);
      assert.match(init.stderr, /git reflog show refs\/memory\/main/, init.stderr);
      // put back as the message says, everything works again
      if (name === 'its file overwritten') {
        assert.match(init.stderr, /remove the file \.git\/refs\/memory\/main/);
        const logged = readFileSync(join(store.dir, '.git', 'logs', 'refs', 'memory', 'main'), 'utf8')
          .trim()
          .split('\n')
          .at(-1)!
          .split(' ')[1]!;
        assert.equal(logged, tip);
        putBack(store.dir, logged);
      } else git(store.dir, ['update-ref', 'refs/memory/main', tip]);
      assert.equal((await axmeIn(store.dir, ['status'])).code, 0);
    });
});

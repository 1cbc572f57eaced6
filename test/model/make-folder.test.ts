/**
 * makeFolder makes a folder and its missing parents one level at a time and says which level
 * failed; folderRefusal says a user-given folder's refusal as INVALID_INPUT with what to do.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { AxmeError } from '../../src/model/errors.ts';
import { folderRefusal, makeFolder } from '../../src/model/make-folder.ts';

const HOW = { verb: 'export', usage: 'axme export adr <dir>' };

function caught(fn: () => void): NodeJS.ErrnoException {
  try {
    fn();
  } catch (err) {
    return err as NodeJS.ErrnoException;
  }
  throw new Error('expected a throw');
}

describe('makeFolder', () => {
  test('makes missing parents, and a folder already there (or made meanwhile) is fine', () => {
    const top = mkdtempSync(join(tmpdir(), 'axme-mkf-'));
    try {
      makeFolder(join(top, 'a', 'b', 'c'));
      assert.ok(statSync(join(top, 'a', 'b', 'c')).isDirectory());
      makeFolder(join(top, 'a', 'b', 'c'));
      makeFolder(top);
    } finally {
      rmSync(top, { recursive: true, force: true });
    }
  });

  test('a file on the way, or at the path: ENOTDIR naming the file; folderRefusal names it', () => {
    const top = mkdtempSync(join(tmpdir(), 'axme-mkf-'));
    try {
      writeFileSync(join(top, 'notes.txt'), 'x\n');
      const under = caught(() => makeFolder(join(top, 'notes.txt', 'a', 'b')));
      assert.equal(under.code, 'ENOTDIR');
      assert.equal(under.path, join(top, 'notes.txt'));
      const said = folderRefusal(under, join(top, 'notes.txt', 'a', 'b'), HOW);
      assert.ok(said instanceof AxmeError);
      assert.equal(said.code, 'INVALID_INPUT');
      assert.match(said.message, /notes\.txt is a file, not a folder, so .*notes\.txt\/a\/b cannot be one: give a folder \(axme export adr <dir>\)/);
      const at = caught(() => makeFolder(join(top, 'notes.txt')));
      assert.equal(at.code, 'ENOTDIR');
      assert.match(folderRefusal(at, join(top, 'notes.txt'), HOW)!.message, /notes\.txt is a file, not a folder: give a folder/);
    } finally {
      rmSync(top, { recursive: true, force: true });
    }
  });

  test('/proc/nope/deeper: ENOENT from mkdir of /proc/nope, at once; folderRefusal says what to do', { skip: process.platform !== 'linux' }, () => {
    const err = caught(() => makeFolder('/proc/nope/deeper'));
    assert.equal(err.code, 'ENOENT');
    assert.equal(err.path, '/proc/nope');
    const said = folderRefusal(err, '/proc/nope/deeper', HOW)!;
    assert.equal(said.code, 'INVALID_INPUT');
    assert.match(said.message, /cannot make the folder \/proc\/nope: \/proc takes no new folder.*export to a folder on a disk you can write to/);
  });

  test("any other error is not the folder path's: null", () => {
    assert.equal(folderRefusal(Object.assign(new Error('full'), { code: 'ENOSPC', path: '/x' }), '/x', HOW), null);
    assert.equal(folderRefusal(new Error('plain'), '/x', HOW), null);
  });
});

/**
 * The path matching made cheaper without changing what it answers (docs/benchmarks.md, h/guardperf):
 * resolvePath joins a normal path to a normal folder without posix.resolve, and must answer as it
 * does for every other shape.
 */
import assert from 'node:assert/strict';
import { posix } from 'node:path';
import { describe, test } from 'node:test';
import { resolvePath } from '../../src/safety/paths.ts';

describe('resolvePath answers as posix.resolve', () => {
  const folders = ['/', '/home/u/proj', '/home/u/proj/', '/home//u/proj', '/home/u/./proj', '/home/u/x/../proj', '/a/...', '/a/.b', 'rel/dir', ''];
  const paths = [
    'src/a.ts',
    '/etc/passwd',
    '/',
    '//etc',
    '/etc/',
    'a//b',
    'a/',
    '.',
    '..',
    './a',
    'a/.',
    'a/..',
    '../x',
    'a/./b',
    'a/../b',
    '...',
    'a/...',
    '.env',
    'a/.ssh/id_rsa',
    '..a',
    'a..',
    '\uE000/x',
    'x\uE000',
    '',
  ];
  for (const cwd of folders)
    test(`in ${JSON.stringify(cwd)}`, () => {
      for (const p of paths) assert.equal(resolvePath(p, { cwd, home: '/home/u' }), posix.resolve(cwd, p), `${JSON.stringify(p)} in ${JSON.stringify(cwd)}`);
    });
});

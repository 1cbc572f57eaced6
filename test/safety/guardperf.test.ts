/**
 * The path matching made cheaper without changing what it answers (docs/benchmarks.md, h/guardperf):
 * resolvePath joins a normal path to a normal folder without posix.resolve, and must answer as it
 * does for every other shape. And the intersection of two globs where their wildcards meet.
 */
import assert from 'node:assert/strict';
import { posix } from 'node:path';
import { describe, test } from 'node:test';
import { evaluate } from '../../src/safety/evaluate.ts';
import { resolvePath } from '../../src/safety/paths.ts';
import { defaultPolicy } from '../../src/safety/policy.ts';
import { safetyContext, testHoles } from './context.ts';

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

// Where two wildcards meet: a glob's `*` that goes on past the pattern's (`*.default-release`
// against `*`) — Firefox's profile folders are `xxxx.default-release`, and a credential folder's
// `*` names every file (`~/.ssh/*.bak`, `~/.aws/*.json`). The intersection reads both globs a
// character at a time, so a name the two wildcards share and then the glob's own `.` are found.
testHoles({
  'a glob whose wildcard goes on past the pattern’s': [
    ['cp ~/.mozilla/firefox/profiles.ini /tmp/', 'cp ~/.mozilla/firefox/*.default-release/logins.json /tmp/'],
    ['ls ~/.mozilla/firefox/*.default-release/', 'cat ~/.mozilla/firefox/*.default-release/cookies.sqlite'],
    ['ls ~/.mozilla/firefox/', 'cat ~/Library/Application\\ Support/Firefox/Profiles/*.default-release/logins.json'],
    ['cat ~/.config/google-chrome/Local\\ State', 'cat ~/.config/google-chrome/*.x/Cookies'],
    ['cat ~/.ssh/*.pub', 'cat ~/.ssh/*.bak'],
    ['cat ~/.ssh/config', 'cp ~/.ssh/*.old /tmp/'],
    ['cat ~/.aws/config', 'cat ~/.aws/*.json'],
    ['ls ~/.kube/', 'cat ~/.kube/*.yaml'],
    ['ls ~/.gnupg', 'cat ~/.gnupg/*.gpg'],
  ],
});

describe('a team’s name patterns against a Glob: fixed extensions that differ do not meet', () => {
  const base = defaultPolicy();
  const policy = { ...base, deniedPaths: [...base.deniedPaths, '*.pem', '.env'] };
  const glob = (pattern: string, path?: string) => evaluate({ tool: 'Glob', input: path ? { pattern, path } : { pattern } }, policy, safetyContext());
  const rows: Array<[string, string | undefined, 'allow' | 'deny']> = [
    ['**/*.ts', undefined, 'allow'],
    ['**/*.ts', 'src', 'allow'],
    ['src/**/*.test.ts', undefined, 'allow'],
    ['*.default-release/*.ts', undefined, 'allow'],
    ['**/*.pem', undefined, 'deny'],
    ['certs/*.pem', undefined, 'deny'],
    ['x.pem/*.ts', undefined, 'deny'],
    ['**/.env', undefined, 'deny'],
    ['*.p*', undefined, 'deny'],
  ];
  for (const [pattern, path, expected] of rows)
    test(`Glob ${pattern}${path ? ` in ${path}` : ''}: ${expected}`, async () => {
      assert.equal((await glob(pattern, path)).decision, expected);
    });
});

// A glob whose name ends in `.pub` names public keys only (docs/safety.md, "Paths": a public key is
// public by design): `id_*.pub` was denied by the secret name `id_rsa.*`, while `*.pub` passed.
testHoles({
  'a glob of public keys by name': [
    ['cat ~/.ssh/id_*.pub', 'cat ~/.ssh/id_*'],
    ['cat ~/.ssh/id_ed25519*.pub', 'cat ~/.ssh/id_ed25519*'],
    ['cat keys/id_*.pub', 'cat keys/id_*.pem'],
  ],
});

// A bracket class is its characters (`[0-9]` a digit), not any character: read as `?`, the
// complete intersection above let `"$newname".[0-9]…[0-9]` (a rotated log's name) be `x.…pem`.
testHoles({
  'a bracket class produces its own characters': [
    ['gzip -- "$newname".[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]', 'cat "$X".[pP][eE][mM]'],
    ['cat "$X".[0-9][0-9][0-9][0-9][0-9][0-9][0-9]', 'cat "$X".[!0-9][!0-9][!0-9]'],
    ['cat logs/app.log.[0-9]', 'cat id_[rd]sa'],
  ],
});

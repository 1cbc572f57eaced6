import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { normalizeTitle } from '../../src/model/dedup.ts';
import { isAxmeError } from '../../src/model/errors.ts';
import { displayId, formatId, nextId, parseId } from '../../src/model/ids.ts';
import { assertSlug, isSlug, SLUG_MAX, slugify, uniqueSlug } from '../../src/model/slug.ts';
import { issues, thrown } from './failures.ts';

// Item identity in model/: slugs (slug.ts), display IDs (ids.ts) and the titles duplicates are judged by (dedup.ts).

// ---------------------------------------------------------------------------------------------
// slug.ts

describe('slugify', () => {
  const cases: Array<[title: string, fallback: string | undefined, expected: string]> = [
    ['../../x', undefined, 'x'],
    ['///', 'fallback', 'fallback'],
    ['..', 'fallback', 'fallback'],
    ['a/b', undefined, 'a-b'],
    ['Café Über', undefined, 'cafe-uber'],
    ['\u{1F389}\u{1F680}', 'party', 'tada-rocket'], // an emoji-only title: the emoji's names
    ['!?!', 'party', 'party'],
    ['', 'empty', 'empty'],
    ['  Use Valkey -- for   CACHING!! ', undefined, 'use-valkey-for-caching'],
    ['C:\\Windows\\system32', undefined, 'c-windows-system32'],
    ['\u0000\u0001evil\u0000', undefined, 'evil'],
    ['.git/config', undefined, 'git-config'],
  ];
  for (const [title, fallback, expected] of cases) {
    test(`${JSON.stringify(title)} -> ${expected}`, () => {
      const s = slugify(title, fallback);
      assert.equal(s, expected);
      assert.ok(isSlug(s));
    });
  }

  test('a title with no letters or digits and no usable fallback gets a stable short hash', () => {
    const a = slugify('///');
    assert.match(a, /^item-[0-9a-f]{8}$/);
    assert.equal(slugify('///'), a);
    assert.notEqual(slugify('...'), a);
    // an invalid fallback is not used: it could be a path
    assert.match(slugify('!!!', '../etc'), /^item-[0-9a-f]{8}$/);
    assert.match(slugify('', 'Not A Slug'), /^item-[0-9a-f]{8}$/);
  });

  test('a title over 60 characters is cut at a dash boundary and stays valid', () => {
    const title = 'alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima';
    const full = 'alpha-bravo-charlie-delta-echo-foxtrot-golf-hotel-india-juliett-kilo-lima';
    const s = slugify(title);
    assert.ok(s.length <= SLUG_MAX, `${s} is ${s.length} chars`);
    assert.ok(isSlug(s));
    assert.ok(full.startsWith(s + '-'), `${s} is not cut at a dash of ${full}`);
    assert.equal(s, 'alpha-bravo-charlie-delta-echo-foxtrot-golf-hotel-india');
  });

  test('a long title without dashes is hard-cut to 60 characters', () => {
    const s = slugify('x'.repeat(200));
    assert.equal(s, 'x'.repeat(SLUG_MAX));
    assert.ok(isSlug(s));
  });

  test('a long title whose only dash is early is hard-cut, never trailing a dash', () => {
    const s = slugify('ab ' + 'c'.repeat(100));
    assert.equal(s.length, SLUG_MAX);
    assert.ok(isSlug(s));
    assert.ok(s.startsWith('ab-c'));
  });

  test('hostile titles always give a valid slug', () => {
    const hostile = [
      '../../../../etc/passwd',
      '/',
      '\\',
      '-',
      '--a--',
      'a' + '-'.repeat(100) + 'b',
      ' '.repeat(80),
      '%2e%2e%2f',
      'CON',
      'x'.repeat(59) + ' y',
      '\u202Eevil',
      'ÅÄÖ '.repeat(30),
    ];
    for (const h of hostile) {
      const s = slugify(h);
      assert.ok(isSlug(s), `${JSON.stringify(h)} -> ${JSON.stringify(s)}`);
      assert.ok(!s.includes('/') && !s.includes('..'));
    }
  });
});

describe('isSlug', () => {
  const accepted = ['a', 'x', 'abc-123', '0', 'use-valkey-for-caching', 'a'.repeat(60), 'a-b-c'];
  const rejected = ['', '..', '.', 'a/b', 'A', 'Abc', '-a', 'a-', 'a--b', 'a'.repeat(61), 'a b', 'a_b', 'a.md', 'café', '../x'];
  for (const s of accepted) test(`accepts ${JSON.stringify(s)}`, () => assert.equal(isSlug(s), true));
  for (const s of rejected) test(`rejects ${JSON.stringify(s)}`, () => assert.equal(isSlug(s), false));
});

describe('uniqueSlug', () => {
  test('returns the slug itself when it is free', () => {
    assert.equal(
      uniqueSlug('x', () => false),
      'x',
    );
  });

  test('suffixes -2, then -3, ...', () => {
    const taken = new Set(['x']);
    assert.equal(
      uniqueSlug('x', (s) => taken.has(s)),
      'x-2',
    );
    taken.add('x-2');
    assert.equal(
      uniqueSlug('x', (s) => taken.has(s)),
      'x-3',
    );
    for (let n = 3; n <= 9; n++) taken.add(`x-${n}`);
    assert.equal(
      uniqueSlug('x', (s) => taken.has(s)),
      'x-10',
    );
  });

  test('a 60-character slug stays within 60 characters and valid with a suffix', () => {
    const base = 'a'.repeat(60);
    const taken = new Set([base]);
    for (let n = 2; n <= 10; n++) {
      const s = uniqueSlug(base, (c) => taken.has(c));
      assert.equal(s, `${'a'.repeat(60 - String(n).length - 1)}-${n}`);
      assert.ok(s.length <= SLUG_MAX);
      assert.ok(isSlug(s), s);
      taken.add(s);
    }
  });

  test('a cut that ends on a dash does not leave a double dash', () => {
    const base = 'a'.repeat(57) + '-bc'; // 60 chars; slice(0, 58) ends in "-"
    const s = uniqueSlug(base, (c) => c === base);
    assert.equal(s, 'a'.repeat(57) + '-2');
    assert.ok(isSlug(s));
  });
});

describe('assertSlug', () => {
  test('returns a valid slug unchanged', () => {
    assert.equal(assertSlug('use-valkey'), 'use-valkey');
  });
  for (const bad of ['..', 'a/b', 'A', '', '-a', 'a'.repeat(61)]) {
    test(`throws INVALID_INPUT for ${JSON.stringify(bad)}`, () => {
      const err = thrown(() => assertSlug(bad, 'decision slug'));
      assert.ok(isAxmeError(err, 'INVALID_INPUT'), String(err));
      assert.match(err.message, /^decision slug /);
      assert.match(err.message, /lowercase letters, digits and single dashes/);
      assert.deepEqual(err.data, { slug: bad });
    });
  }
});

// ---------------------------------------------------------------------------------------------
// ids.ts

describe('ids', () => {
  const formats: Array<['D' | 'B' | 'Q', number, string]> = [
    ['D', 1, 'D-001'],
    ['B', 42, 'B-042'],
    ['Q', 999, 'Q-999'],
    ['D', 1000, 'D-1000'],
    ['D', 12345, 'D-12345'],
  ];
  for (const [prefix, n, id] of formats) {
    test(`formatId(${prefix}, ${n}) = ${id} and parses back`, () => {
      assert.equal(formatId(prefix, n), id);
      assert.deepEqual(parseId(id), { prefix, n });
    });
  }

  const parses: Array<[string, { prefix: string; n: number } | null]> = [
    ['d-007', { prefix: 'D', n: 7 }],
    ['b-010', { prefix: 'B', n: 10 }],
    ['q-1000', { prefix: 'Q', n: 1000 }],
    ['D-07', null],
    ['D-', null],
    ['X-001', null],
    ['D001', null],
    [' D-001', null],
    ['D-001 ', null],
    ['D-001a', null],
    ['', null],
  ];
  for (const [s, expected] of parses) {
    test(`parseId(${JSON.stringify(s)})`, () => assert.deepEqual(parseId(s), expected));
  }

  const nexts: Array<[string, 'D' | 'B' | 'Q', string[], string]> = [
    ['empty store', 'D', [], 'D-001'],
    ['after the highest', 'D', ['D-001', 'D-003', 'D-002'], 'D-004'],
    ['other prefixes ignored', 'B', ['D-050', 'Q-020', 'B-002'], 'B-003'],
    ['aliases count as used', 'D', ['D-002', 'd-007', 'D-005'], 'D-008'],
    ['beyond 999', 'D', ['D-999'], 'D-1000'],
    ['garbage ignored', 'Q', ['nope', 'Q-', 'Q-1', 'Q-004'], 'Q-005'],
  ];
  for (const [name, prefix, used, expected] of nexts) {
    test(`nextId: ${name}`, () => assert.equal(nextId(prefix, used), expected));
  }

  test('nextId accepts any iterable (a Set of ids and aliases)', () => {
    assert.equal(nextId('B', new Set(['B-001', 'B-011'])), 'B-012');
  });

  test('displayId schema accepts its own prefix only', () => {
    const s = displayId('D');
    assert.equal(s.safeParse('D-001').success, true);
    assert.equal(s.safeParse('D-1000').success, true);
    assert.equal(s.safeParse('B-001').success, false);
    assert.equal(s.safeParse('D-01').success, false);
    assert.deepEqual(issues(s.safeParse('x')), ['must look like D-001']);
  });
});

// ---------------------------------------------------------------------------------------------
// dedup.ts

describe('normalizeTitle', () => {
  const same: Array<[string, string]> = [
    ['Use Valkey for caching', 'valkey caching'],
    ['USE VALKEY FOR CACHING', 'use valkey for caching'],
    ['Valkey: caching!', 'valkey caching'],
    ['  valkey,   caching.  ', 'valkey caching'],
    ['Use the Café', 'cafe'],
    ['Use an API for the users', 'api users'],
    ['Use C++ for the firmware', 'use c++ firmware'],
    ['Add 2 + 2 tests', 'add 2 2 tests'],
  ];
  for (const [a, b] of same) {
    test(`${JSON.stringify(a)} == ${JSON.stringify(b)}`, () => assert.equal(normalizeTitle(a), normalizeTitle(b)));
  }

  const different: Array<[string, string]> = [
    ['Use Valkey for caching', 'Use Redis for caching'],
    ['Use Postgres', 'Use Postgres 16'],
    ['Cache sessions', 'Cache users'],
    // a symbol that names a language is part of the name: C, C++ and C# are three
    ['Use C for the firmware', 'Use C++ for the firmware'],
    ['Use C for the firmware', 'Use C# for the firmware'],
    ['Use C++ for the firmware', 'Use C# for the firmware'],
    ['Port to F#', 'Port to F'],
  ];
  for (const [a, b] of different) {
    test(`${JSON.stringify(a)} != ${JSON.stringify(b)}`, () => assert.notEqual(normalizeTitle(a), normalizeTitle(b)));
  }

  test('the key itself', () => {
    assert.equal(normalizeTitle('Use Valkey for caching'), 'valkey caching');
    assert.equal(normalizeTitle('for the a an'), '');
  });
});

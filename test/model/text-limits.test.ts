import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatSize, LIMITS } from '../../src/model/limits.ts';
import { longText, stringList, textProblem, titleText } from '../../src/model/text.ts';
import { issues } from './failures.ts';

// Free text and its limits (model/text.ts, limits.ts): long text, titles, lists, sizes.

// ---------------------------------------------------------------------------------------------
// text.ts, limits.ts

describe('longText', () => {
  const schema = longText('test');

  test('accepts ordinary multi-line text with tabs; CRLF becomes LF, as the file stores it', () => {
    assert.equal(schema.parse('line 1\n\tline 2\r\nline 3'), 'line 1\n\tline 2\nline 3');
  });

  test('refuses a NUL byte as binary data', () => {
    const msgs = issues(schema.safeParse('abc\u0000def'));
    assert.equal(msgs.length, 1);
    assert.match(msgs[0]!, /binary/);
    assert.match(msgs[0]!, /NUL byte at offset 3/);
  });

  test('refuses other control characters and lone surrogates', () => {
    assert.match(issues(schema.safeParse('bell\u0007'))[0] ?? '', /control character 0x07/);
    assert.match(issues(schema.safeParse('del\u007f'))[0] ?? '', /control character 0x7f/);
    assert.match(issues(schema.safeParse('x\ud800y'))[0] ?? '', /lone surrogate/);
  });

  test('accepts exactly LIMITS.text characters and refuses one more with a "limit" message', () => {
    assert.equal(schema.safeParse('a'.repeat(LIMITS.text)).success, true);
    const msgs = issues(schema.safeParse('a'.repeat(LIMITS.text + 1)));
    assert.equal(msgs.length, 1);
    assert.match(msgs[0]!, /limit/);
    assert.match(msgs[0]!, /64\.0 KB/);
  });
});

describe('textProblem', () => {
  test('null for clean text, a reason for binary', () => {
    assert.equal(textProblem('héllo \u{1F389}\n\t\r'), null);
    assert.match(textProblem('\u0001') ?? '', /binary data \(control character 0x01 at offset 0\)/);
  });
});

describe('titleText', () => {
  const schema = titleText('test');

  const collapses: Array<[string, string]> = [
    ['  Use   Valkey  ', 'Use Valkey'],
    ['Use\nValkey\r\nfor\tcaching', 'Use Valkey for caching'],
    ['a', 'a'],
  ];
  for (const [input, expected] of collapses) {
    test(`collapses ${JSON.stringify(input)}`, () => assert.equal(schema.parse(input), expected));
  }

  for (const empty of ['', '   ', '\n\t\n']) {
    test(`rejects empty ${JSON.stringify(empty)}`, () => {
      assert.deepEqual(issues(schema.safeParse(empty)), ['must not be empty']);
    });
  }

  test('accepts 200 characters, rejects 201', () => {
    assert.equal(schema.parse('t'.repeat(200)), 't'.repeat(200));
    const msgs = issues(schema.safeParse('t'.repeat(201)));
    assert.equal(msgs.length, 1);
    assert.match(msgs[0]!, /at most 200 characters/);
  });

  test('the length limit applies after whitespace is collapsed', () => {
    const title = 'ab    '.repeat(60); // 360 chars, 179 after collapsing
    assert.equal(schema.parse(title).length, 179);
  });

  test('refuses binary data', () => {
    assert.match(issues(schema.safeParse('x\u0000'))[0] ?? '', /binary/);
  });

  test('refuses a huge title with a limit message', () => {
    assert.match(issues(schema.safeParse('t'.repeat(LIMITS.text + 1)))[0] ?? '', /limit/);
  });
});

describe('stringList', () => {
  const schema = stringList('test');
  const cases: Array<[unknown, string[]]> = [
    ['a, b,,a', ['a', 'b']],
    ['', []],
    [' , ,', []],
    ['single', ['single']],
    [
      ['x', ' y ', 'x', ''],
      ['x', 'y'],
    ],
    [[], []],
  ];
  for (const [input, expected] of cases) {
    test(`${JSON.stringify(input)} -> ${JSON.stringify(expected)}`, () => assert.deepEqual(schema.parse(input), expected));
  }

  test('rejects multi-line entries, over-long entries and too many entries', () => {
    assert.equal(schema.safeParse(['a\nb']).success, false);
    assert.equal(schema.safeParse(['x'.repeat(LIMITS.listItem + 1)]).success, false);
    assert.equal(schema.safeParse(['x'.repeat(LIMITS.listItem)]).success, true);
    const many = Array.from({ length: LIMITS.listItems + 1 }, (_, i) => `t${i}`);
    assert.match(issues(schema.safeParse(many))[0] ?? '', /at most 100 entries/);
    assert.equal(schema.safeParse(many.slice(1)).success, true);
  });

  test('rejects non-strings', () => {
    assert.equal(schema.safeParse(42).success, false);
    assert.equal(schema.safeParse([1, 2]).success, false);
  });
});

describe('formatSize', () => {
  const cases: Array<[number, string]> = [
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.0 KB'],
    [65536, '64.0 KB'],
    [10485760, '10.0 MB'],
  ];
  for (const [n, s] of cases) test(`${n} -> ${s}`, () => assert.equal(formatSize(n), s));
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Decision, DecisionInput } from '../../src/model/decision.ts';
import { isAxmeError } from '../../src/model/errors.ts';
import { joinSections, parseMarkdown, parseYaml, reservedHeadingIn, splitSections, stringifyMarkdown } from '../../src/model/frontmatter.ts';
import { parseInput } from '../../src/model/validate.ts';
import { thrown } from './failures.ts';

// Markdown with YAML frontmatter (model/frontmatter.ts) and input validation (validate.ts).

// ---------------------------------------------------------------------------------------------
// frontmatter.ts

describe('parseMarkdown', () => {
  test('CRLF input gives the same result as LF input', () => {
    const lf = '---\ntitle: Hello\ntags:\n  - a\n---\n\nline 1\nline 2\n';
    const crlf = lf.replace(/\n/g, '\r\n');
    const doc = parseMarkdown(crlf);
    assert.deepEqual(doc, { data: { title: 'Hello', tags: ['a'] }, body: 'line 1\nline 2' });
    assert.deepEqual(parseMarkdown(lf), doc);
    assert.ok(!doc.body.includes('\r'));
  });

  test('no frontmatter: empty data, the whole text as body', () => {
    assert.deepEqual(parseMarkdown('# Title\n\ntext\n'), { data: {}, body: '# Title\n\ntext' });
    assert.deepEqual(parseMarkdown(''), { data: {}, body: '' });
  });

  test('leading blank lines and trailing whitespace are dropped from the body', () => {
    assert.equal(parseMarkdown('---\na: 1\n---\n\n\n  \nbody  \n\n').body, 'body');
  });

  test('broken YAML throws', () => {
    assert.throws(() => parseMarkdown('---\ntitle: [unclosed\n---\nbody'));
    assert.throws(() => parseMarkdown('---\na: 1\na: 2\n---\n'), /[Dd]uplicate|unique/);
  });

  test('timestamps, yes/no and dates stay strings', () => {
    const { data } = parseMarkdown('---\ncreated: 2026-01-01T00:00:00Z\nday: 2026-01-31\nflag: yes\nn: 3\nb: true\n---\n');
    assert.equal(data.created, '2026-01-01T00:00:00Z');
    assert.equal(data.day, '2026-01-31');
    assert.equal(data.flag, 'yes');
    assert.equal(data.n, 3);
    assert.equal(data.b, true);
  });

  test('a YAML list or scalar as frontmatter throws "not a YAML mapping"', () => {
    assert.throws(() => parseMarkdown('---\n- a\n- b\n---\nbody'), /not a YAML mapping/);
    assert.throws(() => parseMarkdown('---\njust a string\n---\nbody'), /not a YAML mapping/);
  });

  test('empty frontmatter is an empty mapping', () => {
    assert.deepEqual(parseMarkdown('---\n---\nbody'), { data: {}, body: 'body' });
  });
});

describe('stringifyMarkdown / parseYaml', () => {
  test('stringifyMarkdown writes fields in the given order and parses back', () => {
    const text = stringifyMarkdown({ z: 1, a: 'x', created: '2026-01-01T00:00:00Z' }, '\n\nbody\n\n');
    assert.equal(text, '---\nz: 1\na: x\ncreated: 2026-01-01T00:00:00Z\n---\n\nbody\n');
    assert.deepEqual(parseMarkdown(text), { data: { z: 1, a: 'x', created: '2026-01-01T00:00:00Z' }, body: 'body' });
  });

  test('an empty body gives no body section', () => {
    assert.equal(stringifyMarkdown({ a: 1 }, '  \n'), '---\na: 1\n---\n');
  });

  test('long lines are not folded', () => {
    const long = 'word '.repeat(100).trim();
    const text = stringifyMarkdown({ title: long }, '');
    assert.equal(text, `---\ntitle: ${long}\n---\n`);
  });

  test('parseYaml accepts CRLF and throws on broken input', () => {
    assert.deepEqual(parseYaml('a: 1\r\nb:\r\n  - x\r\n'), { a: 1, b: ['x'] });
    assert.throws(() => parseYaml('a: [1'));
  });
});

describe('splitSections / joinSections', () => {
  const headings = ['Context', 'Answer'] as const;

  const roundTrips: Array<[string, string, Array<[string, string | undefined]>]> = [
    [
      'lead only',
      'The question?',
      [
        ['Context', undefined],
        ['Answer', undefined],
      ],
    ],
    [
      'all sections',
      'The question?',
      [
        ['Context', 'some context\n\nwith paragraphs'],
        ['Answer', 'yes'],
      ],
    ],
    [
      'middle section missing',
      'Q',
      [
        ['Context', undefined],
        ['Answer', 'a'],
      ],
    ],
    [
      'empty lead',
      '',
      [
        ['Context', 'c'],
        ['Answer', undefined],
      ],
    ],
    [
      'non-reserved headings stay in place',
      'lead\n\n## Other\n\nx',
      [
        ['Context', '### Context\nnot a split'],
        ['Answer', '## Answers\nplural'],
      ],
    ],
  ];
  for (const [name, lead, sections] of roundTrips) {
    test(`round trip: ${name}`, () => {
      const body = joinSections(lead, sections);
      const split = splitSections(body, headings);
      assert.equal(split.lead, lead);
      const expected: Record<string, string> = {};
      for (const [h, t] of sections) if (t) expected[h] = t;
      assert.deepEqual(split.sections, expected);
      assert.equal(
        joinSections(
          split.lead,
          headings.map((h) => [h, split.sections[h]]),
        ),
        body,
      );
    });
  }

  test('joinSections leaves out empty sections, drops blank lines around texts, keeps indentation', () => {
    assert.equal(
      joinSections('  lead  ', [
        ['Context', '  '],
        ['Answer', '\nyes\n'],
      ]),
      '  lead\n\n## Answer\n\nyes',
    );
    assert.equal(joinSections('', [['Context', undefined]]), '');
  });

  test('sections are recognised in order, each once', () => {
    const out = splitSections('lead\n## Answer\na\n## Context\nc', headings);
    assert.deepEqual(out, { lead: 'lead', sections: { Answer: 'a\n## Context\nc' } });
    const twice = splitSections('lead\n## Context\nc1\n## Context\nc2', headings);
    assert.deepEqual(twice, { lead: 'lead', sections: { Context: 'c1\n## Context\nc2' } });
  });

  test('trailing spaces after a heading still count as the heading', () => {
    assert.deepEqual(splitSections('l\n## Context   \nc', headings), { lead: 'l', sections: { Context: 'c' } });
  });
});

describe('reservedHeadingIn', () => {
  const headings = ['Reasoning', 'In Progress', 'a.b'];
  const cases: Array<[string, string | null]> = [
    ['text\n## Reasoning\nmore', 'Reasoning'],
    ['## In Progress', 'In Progress'],
    ['x\n## Reasoning   \n', 'Reasoning'],
    ['### Reasoning', null],
    ['## Reasoning behind it', null],
    [' ## Reasoning', null],
    ['text ## Reasoning', null],
    ['## aXb', null],
    ['## a.b', 'a.b'],
    ['', null],
  ];
  for (const [text, expected] of cases) {
    test(`${JSON.stringify(text)} -> ${expected}`, () => assert.equal(reservedHeadingIn(text, headings), expected));
  }
});

// ---------------------------------------------------------------------------------------------
// validate.ts

describe('validate', () => {
  test('parseInput returns the parsed value', () => {
    const v = parseInput(DecisionInput, { title: '  Use  Valkey ', decision: 'We use Valkey.', tags: 'a, b' }, 'decision');
    assert.equal(v.title, 'Use Valkey');
    assert.deepEqual(v.tags, ['a', 'b']);
    assert.equal(v.enforce, undefined, 'no default at the input: a revision tells "not given" (carry over) from a value');
    assert.equal(
      Decision.parse({ ...v, slug: 'x', id: 'D-001', created: '2026-01-01', updated: '2026-01-01' }).enforce,
      'advisory',
      'the stored item defaults to advisory',
    );
  });

  test('parseInput throws INVALID_INPUT naming each bad field', () => {
    const err = thrown(() => parseInput(DecisionInput, { title: '', decision: '', enforce: 'always' }, 'decision'));
    assert.ok(isAxmeError(err, 'INVALID_INPUT'), String(err));
    assert.match(err.message, /^invalid decision: /);
    assert.match(err.message, /title: must not be empty/);
    assert.match(err.message, /decision: must not be empty/);
    assert.match(err.message, /enforce: /);
    const paths = (err.data.issues as Array<{ path: string }>).map((i) => i.path).sort();
    assert.deepEqual(paths, ['decision', 'enforce', 'title']);
  });
});
